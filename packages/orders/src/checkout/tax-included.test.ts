import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT_EMAIL_CONFIG, createCheckoutShop, createFakePaymentProvider } from '../../test/checkout.ts';
import { findOrder, readOrder } from '../orders/order-read.ts';
import { sandboxTaxOf, sandboxTaxProvider } from '../tax/sandbox-tax.ts';
import { bindCheckoutSession } from './bind-checkout-session.ts';
import { createCheckoutSession } from './create-checkout-session.ts';
import { createPaymentSession } from './create-payment-session.ts';
import { repriceCheckoutSession } from './reprice-checkout-session.ts';

// Tax-included stores record the tax their prices hold; the total does not change.

let handle: DatabaseHandle;
const clock = new ManualClock('2026-06-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 20 });
});
afterAll(async () => {
  await handle.close();
});

describe('sandboxTaxOf with prices that include tax', () => {
  it.each([
    // amount, country, tax held (half up to the cent)
    [12_000, 'GB', 2000], // 120.00 at 20 % holds 20.00
    [11_900, 'DE', 1900],
    [7500, 'DE', 1197], // 1197.48…
    [1, 'SE', 0], // 0.2
    [3, 'SE', 1], // 0.6
    [10_000, 'JP', 0], // untaxed country
  ])('%i cents in %s hold %i cents', (amount, country, tax) => {
    expect(
      sandboxTaxOf({ country, subtotalInCents: amount, shippingInCents: 0, pricesIncludeTax: true })
        .taxInCents,
    ).toBe(tax);
  });

  it('counts shipping in the amount that holds the tax', () => {
    expect(
      sandboxTaxOf({ country: 'GB', subtotalInCents: 10_000, shippingInCents: 2000, pricesIncludeTax: true }),
    ).toEqual({ taxInCents: 2000, rateBasisPoints: 2000 });
    expect(
      sandboxTaxOf({
        country: 'GB',
        subtotalInCents: 10_000,
        shippingInCents: 2000,
        pricesIncludeTax: false,
      }),
    ).toEqual({ taxInCents: 2400, rateBasisPoints: 2000 });
  });
});

describe('binding and ordering with prices that include tax', () => {
  it('records the included tax on the session, the sales record and the order, with the total unchanged', async () => {
    const s = await createCheckoutShop(handle.db, clock);
    const created = await createCheckoutSession(handle.db, s.createScope(), {
      lines: [{ itemId: s.tee.itemId, variantId: s.tee.pricedVariantId, quantity: 2 }],
      email: 'ada@example.com',
      customerName: 'Ada Lovelace',
      shippingCountry: 'DE',
    });
    // 2 × 45.00 and standard shipping 5.00: 95.00, of which 19 % VAT is 15.17 (1516.8…).
    const bound = await bindCheckoutSession(
      handle.db,
      s.bindScope({ tax: sandboxTaxProvider, taxIncludedInPrices: true }),
      { token: created.checkoutToken },
    );
    expect(bound).toMatchObject({
      subtotalInCents: 9000,
      shippingInCents: 500,
      taxInCents: 1517,
      taxIncluded: true,
      totalInCents: 9500,
    });

    const handoff = await createPaymentSession(
      handle.db,
      createFakePaymentProvider(),
      { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG },
      { token: created.checkoutToken },
    );
    expect(handoff.amountInCents).toBe(9500);
    const order = await findOrder(handle.db, s.organizationId, handoff.orderId!);
    expect(order).toMatchObject({ tax_in_cents: 1517, tax_included: true, total_in_cents: 9500 });
    const record = await handle.db
      .selectFrom('sales_records')
      .select(['tax_in_cents', 'tax_included', 'total_in_cents'])
      .where('organization_id', '=', s.organizationId)
      .where('id', '=', order.sales_record_id)
      .executeTakeFirstOrThrow();
    expect(record).toEqual({ tax_in_cents: 1517, tax_included: true, total_in_cents: 9500 });
    expect(await readOrder(handle.db, s.organizationId, order)).toMatchObject({
      taxInCents: 1517,
      taxIncluded: true,
      totalInCents: 9500,
    });
  });

  it('adds the tax to prices that exclude it, and a reprice clears the tax until the next bind', async () => {
    const s = await createCheckoutShop(handle.db, clock);
    const created = await createCheckoutSession(handle.db, s.createScope(), {
      lines: [{ itemId: s.tee.itemId, variantId: s.tee.pricedVariantId, quantity: 2 }],
      email: 'ada@example.com',
      customerName: 'Ada Lovelace',
      shippingCountry: 'DE',
    });
    const included = await bindCheckoutSession(
      handle.db,
      s.bindScope({ tax: sandboxTaxProvider, taxIncludedInPrices: true }),
      { token: created.checkoutToken },
    );
    expect(included.taxIncluded).toBe(true);
    const reopened = await repriceCheckoutSession(handle.db, s.scope(), { token: created.checkoutToken });
    expect(reopened).toMatchObject({ taxInCents: 0, taxIncluded: false, totalInCents: 9500 });
    const excluded = await bindCheckoutSession(handle.db, s.bindScope({ tax: sandboxTaxProvider }), {
      token: created.checkoutToken,
    });
    expect(excluded).toMatchObject({ taxInCents: 1805, taxIncluded: false, totalInCents: 11_305 });
  });

  it('keeps the database from recording a total that adds included tax', async () => {
    const s = await createCheckoutShop(handle.db, clock);
    const insert = handle.db
      .insertInto('sales_records')
      .values({
        organization_id: s.organizationId,
        id: 'sal_bad_total',
        source: 'CHECKOUT',
        currency: 'USD',
        customer_name: 'Ada',
        customer_email: 'ada@example.com',
        subtotal_in_cents: 1000,
        tax_in_cents: 167,
        tax_included: true,
        total_in_cents: 1167,
        payment_status: 'NOT_REQUIRED',
      })
      .execute();
    await expect(insert).rejects.toThrow(/sales_records_total/);
  });
});
