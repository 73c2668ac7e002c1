import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { inTransaction } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrderTenant } from '../../test/orders.ts';
import { createLegacyOrder } from './create-legacy-order.ts';
import { getOrder } from './get-order.ts';
import { createLegacyOrderInputSchema } from './schemas.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-06-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 20 });
});
afterAll(async () => {
  await handle.close();
});

const tenant = () => createOrderTenant(handle.db, clock);

async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const outboxOf = (organizationId: string) =>
  handle.db
    .selectFrom('outbox')
    .select(['metadata', 'payload'])
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .execute();

describe('createLegacyOrder', () => {
  it('records a sale with PRODUCT lines and projects it as an order with the spec totals', async () => {
    const shop = await tenant();
    const created = await createLegacyOrder(
      handle.db,
      shop.scope('EUR'),
      shop.body({
        customerPhone: '+1 555 0100',
        notes: 'Leave at the door',
        items: [
          {
            itemId: shop.itemId,
            variantId: shop.variantId,
            name: 'Tee / Blue',
            quantity: 2,
            unitPriceInCents: 1500,
          },
          { itemId: shop.itemId, name: 'Tee', quantity: 3, unitPriceInCents: 999 },
        ],
      }),
    );

    expect(created).toEqual({
      id: expect.stringMatching(/^ord_[0-9A-Z]{26}$/),
      orderReference: expect.stringMatching(/^or1_[0-9a-f]{32}$/),
      orderNumber: 1,
      status: 'PENDING',
      fulfillmentStatus: 'UNFULFILLED',
      paymentStatus: 'NOT_REQUIRED',
      currency: 'EUR',
      customerName: 'Ada Lovelace',
      customerEmail: 'ada@example.com',
      customerPhone: '+1 555 0100',
      items: [
        {
          id: expect.stringMatching(/^sli_/),
          type: 'PRODUCT',
          itemId: shop.itemId,
          variantId: shop.variantId,
          name: 'Tee / Blue',
          quantity: 2,
          unitPriceInCents: 1500,
          totalInCents: 3000,
        },
        {
          id: expect.stringMatching(/^sli_/),
          type: 'PRODUCT',
          itemId: shop.itemId,
          variantId: null,
          name: 'Tee',
          quantity: 3,
          unitPriceInCents: 999,
          totalInCents: 2997,
        },
      ],
      itemCount: 5,
      subtotalInCents: 5997,
      shippingInCents: 0,
      taxInCents: 0,
      taxIncluded: false,
      discountInCents: 0,
      totalInCents: 5997,
      createdAt: clock.now().toISOString(),
      updatedAt: clock.now().toISOString(),
      orderStatusToken: expect.stringMatching(/^o1_[A-Za-z0-9_-]{43}$/),
    });
    expect(created).not.toHaveProperty('notes');

    const merchantRead = await getOrder(handle.db, shop.organizationId, created.id);
    expect(merchantRead.notes).toBe('Leave at the door');
    const record = await handle.db
      .selectFrom('sales_records')
      .selectAll()
      .where('organization_id', '=', shop.organizationId)
      .where('id', '=', merchantRead.salesRecordId)
      .executeTakeFirstOrThrow();
    expect(record).toMatchObject({
      source: 'LEGACY_ORDER',
      currency: 'EUR',
      subtotal_in_cents: 5997,
      shipping_in_cents: 0,
      tax_in_cents: 0,
      discount_in_cents: 0,
      total_in_cents: 5997,
      payment_status: 'NOT_REQUIRED',
    });
    // The token is stored only as its SHA-256.
    const tokens = await handle.db
      .selectFrom('order_status_tokens')
      .select('token_hash')
      .where('organization_id', '=', shop.organizationId)
      .execute();
    expect(tokens).toHaveLength(1);
    expect(tokens[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(tokens[0]!.token_hash).not.toContain(created.orderStatusToken.slice(3));
  });

  it('queues ORDER_CONFIRMATION with the order-status link in the same transaction', async () => {
    const shop = await tenant();
    const created = await createLegacyOrder(
      handle.db,
      shop.scope(),
      shop.body({
        items: [{ itemId: shop.itemId, name: 'Tee', quantity: 2, unitPriceInCents: 6400 }],
      }),
    );
    const [message, ...rest] = await outboxOf(shop.organizationId);
    expect(rest).toEqual([]);
    expect(message!.metadata).toMatchObject({
      templateType: 'ORDER_CONFIRMATION',
      orderId: created.id,
      orderNumber: 1,
    });
    const payload = message!.payload as { to: string; subject: string; text: string };
    expect(payload.to).toBe('ada@example.com');
    expect(payload.subject).toBe('Order 1 confirmed');
    expect(payload.text).toContain(`https://shop.example/order-status?token=${created.orderStatusToken}`);
    expect(payload.text).toContain('$128.00');
    expect(payload.text).toContain('Ada Lovelace');
  });

  it('numbers orders 1, 2, 3 per organization, each organization on its own', async () => {
    const shop = await tenant();
    const other = await tenant();
    const numbers = [];
    for (let i = 0; i < 3; i++)
      numbers.push((await createLegacyOrder(handle.db, shop.scope(), shop.body())).orderNumber);
    numbers.push((await createLegacyOrder(handle.db, other.scope(), other.body())).orderNumber);
    expect(numbers).toEqual([1, 2, 3, 1]);
  });

  it('gives the number back when the creating transaction rolls back: no gap', async () => {
    const shop = await tenant();
    await createLegacyOrder(handle.db, shop.scope(), shop.body());
    await expect(
      inTransaction(handle.db, async (trx) => {
        const order = await createLegacyOrder(trx, shop.scope(), shop.body());
        expect(order.orderNumber).toBe(2);
        throw new Error('the caller failed after the order was written');
      }),
    ).rejects.toThrow(/caller failed/);
    const next = await createLegacyOrder(handle.db, shop.scope(), shop.body());
    expect(next.orderNumber).toBe(2);
    const orders = await handle.db
      .selectFrom('orders')
      .select('order_number')
      .where('organization_id', '=', shop.organizationId)
      .orderBy('order_number')
      .execute();
    expect(orders.map((order) => order.order_number)).toEqual([1, 2]);
  });

  it('refuses draft, archived, unknown and foreign items and foreign variants, listing every bad line, writing nothing', async () => {
    const shop = await tenant();
    const other = await tenant();
    const error = await failureOf(
      createLegacyOrder(
        handle.db,
        shop.scope(),
        shop.body({
          items: [
            { itemId: shop.itemId, name: 'ok', quantity: 1, unitPriceInCents: 1 },
            { itemId: shop.draftItemId, name: 'draft', quantity: 1, unitPriceInCents: 1 },
            { itemId: shop.archivedItemId, name: 'archived', quantity: 1, unitPriceInCents: 1 },
            { itemId: 'itm_unknown', name: 'unknown', quantity: 1, unitPriceInCents: 1 },
            { itemId: other.itemId, name: 'foreign', quantity: 1, unitPriceInCents: 1 },
            {
              itemId: shop.itemId,
              variantId: other.variantId,
              name: 'foreign variant',
              quantity: 1,
              unitPriceInCents: 1,
            },
            {
              itemId: shop.itemId,
              variantId: 'var_unknown',
              name: 'unknown variant',
              quantity: 1,
              unitPriceInCents: 1,
            },
          ],
        }),
      ),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
    expect((error.details as { issues: { path: string }[] }).issues.map((issue) => issue.path)).toEqual([
      'items.1.itemId',
      'items.2.itemId',
      'items.3.itemId',
      'items.4.itemId',
      'items.5.variantId',
      'items.6.variantId',
    ]);
    for (const table of ['orders', 'sales_records', 'order_number_counters', 'outbox'] as const) {
      const rows = await handle.db
        .selectFrom(table)
        .select('organization_id')
        .where('organization_id', '=', shop.organizationId)
        .execute();
      expect(rows, table).toEqual([]);
    }
    expect((await createLegacyOrder(handle.db, shop.scope(), shop.body())).orderNumber).toBe(1);
  });

  it('refuses a variant of another item of the same organization', async () => {
    const shop = await tenant();
    await handle.db
      .insertInto('items')
      .values({
        organization_id: shop.organizationId,
        id: `${shop.itemId}_b`,
        slug: `${shop.itemId}-b`.replace(/_/g, '-').toLowerCase(),
        name: 'B',
        type: 'SALE',
        status: 'ACTIVE',
      })
      .execute();
    const error = await failureOf(
      createLegacyOrder(
        handle.db,
        shop.scope(),
        shop.body({
          items: [
            {
              itemId: `${shop.itemId}_b`,
              variantId: shop.variantId,
              name: 'x',
              quantity: 1,
              unitPriceInCents: 1,
            },
          ],
        }),
      ),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
  });

  it.skipIf(testDatabaseKind !== 'postgres')(
    'gives 50 concurrent creates the numbers 1 to 50: no duplicate, no gap',
    async () => {
      const shop = await tenant();
      const created = await Promise.all(
        Array.from({ length: 50 }, () => createLegacyOrder(handle.db, shop.scope(), shop.body())),
      );
      expect(created.map((order) => order.orderNumber).sort((a, b) => a - b)).toEqual(
        Array.from({ length: 50 }, (_, index) => index + 1),
      );
      const counter = await handle.db
        .selectFrom('order_number_counters')
        .select('next_number')
        .where('organization_id', '=', shop.organizationId)
        .executeTakeFirstOrThrow();
      expect(counter.next_number).toBe(51);
    },
  );
});

describe('the legacy order body', () => {
  const line = { itemId: 'itm_x', name: 'Tee', quantity: 1, unitPriceInCents: 100 };
  const base = { customerName: 'Ada', customerEmail: 'ada@example.com', items: [line] };
  const rejects = (body: unknown) => expect(createLegacyOrderInputSchema.safeParse(body).success).toBe(false);
  const accepts = (body: unknown) => expect(createLegacyOrderInputSchema.safeParse(body).success).toBe(true);

  it('takes the spec fields within their limits', () => {
    accepts({
      ...base,
      customerName: 'a'.repeat(200),
      customerPhone: '1'.repeat(50),
      notes: 'n'.repeat(2000),
    });
    accepts({ ...base, items: Array.from({ length: 100 }, () => line) });
    accepts({
      ...base,
      items: [{ ...line, variantId: 'var_x', quantity: 10_000, unitPriceInCents: 1_000_000_000 }],
    });
  });

  it('refuses what is over a limit, missing, malformed or unknown', () => {
    rejects({ ...base, customerName: 'a'.repeat(201) });
    rejects({ ...base, customerName: '  ' });
    rejects({ ...base, customerPhone: '1'.repeat(51) });
    rejects({ ...base, notes: 'n'.repeat(2001) });
    rejects({ ...base, customerEmail: 'not-an-email' });
    rejects({ ...base, items: [] });
    rejects({ ...base, items: Array.from({ length: 101 }, () => line) });
    rejects({ ...base, items: [{ ...line, quantity: 0 }] });
    rejects({ ...base, items: [{ ...line, quantity: 10_001 }] });
    rejects({ ...base, items: [{ ...line, quantity: 1.5 }] });
    rejects({ ...base, items: [{ ...line, unitPriceInCents: -1 }] });
    rejects({ ...base, items: [{ ...line, unitPriceInCents: 1_000_000_001 }] });
    rejects({ ...base, items: [{ ...line, name: '' }] });
    rejects({ ...base, items: [{ ...line, sku: 'x' }] });
    rejects({ ...base, couponCode: 'FREE' });
    const { customerName: _name, ...withoutName } = base;
    rejects(withoutName);
  });
});
