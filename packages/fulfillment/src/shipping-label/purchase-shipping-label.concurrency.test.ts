import { randomUUID } from 'node:crypto';
import { type AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codesOf, createLabelShop, purchaseBodyFor, type Shop, sandboxAccount } from '../../test/labels.ts';
import type { CarrierProvider } from '../carrier/carrier-provider.ts';
import { createCarrierProvider } from '../carrier/create-carrier-provider.ts';
import { purchaseShippingLabel } from './purchase-shipping-label.ts';
import type { LabelPurchaseContext } from './settle-label-purchase.ts';

/**
 * The purchase's invariants under concurrent requests (locks, keys, funds).
 * Meaningful on PostgreSQL (TEST_DATABASE_URL); PGlite runs them one at a time.
 */
let handle: DatabaseHandle;
const clock = new ManualClock('2026-11-26T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 24 });
});
afterAll(async () => {
  await handle.close();
});

const sandbox = (startingBalanceInCents: number): CarrierProvider =>
  createCarrierProvider(
    {
      carrier: {
        provider: 'sandbox',
        timeoutMs: 5000,
        sandboxStartingBalanceInCents: startingBalanceInCents,
      },
    },
    { db: handle.db, clock },
  );

const ctxOf = (s: Shop, carrier: CarrierProvider): LabelPurchaseContext => ({
  organizationId: s.shop.organizationId,
  actor: { userId: 'usr_labels_test', email: 'merchant@labels.test' },
  clock,
  carrier,
  carrierTimeoutMs: 5000,
});

describe('concurrent label purchases', () => {
  it('of 8 purchases with distinct keys for the same lines exactly one claims; the others are OVER_FULFILLMENT or LABEL_PURCHASE_UNSETTLED', async () => {
    const s = await createLabelShop(handle.db, clock);
    const carrier = sandbox(10_000);
    const body = await purchaseBodyFor(handle.db, s, carrier);
    const results = await Promise.allSettled(
      Array.from({ length: 8 }, () =>
        purchaseShippingLabel(handle.db, ctxOf(s, carrier), body, randomUUID()),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const codes = codesOf(results);
    expect(codes).toHaveLength(7);
    for (const code of codes) expect(['OVER_FULFILLMENT', 'LABEL_PURCHASE_UNSETTLED']).toContain(code);
    expect(await sandboxAccount(handle.db, s.shop.organizationId)).toEqual({
      balance_in_cents: 10_000 - 680,
      purchase_count: 1,
    });
    const lines = await handle.db
      .selectFrom('sales_record_lines')
      .select(['allocated_quantity', 'quantity'])
      .where('sales_record_id', '=', s.recordId)
      .execute();
    for (const line of lines) expect(line.allocated_quantity).toBe(line.quantity);
    const purchases = await handle.db
      .selectFrom('label_purchases')
      .select('status')
      .where('organization_id', '=', s.shop.organizationId)
      .execute();
    expect(purchases).toEqual([{ status: 'PURCHASED' }]);
  });

  it('10 concurrent requests with one key make one carrier purchase; the others replay it or are told it is in progress', async () => {
    const s = await createLabelShop(handle.db, clock);
    const carrier = sandbox(10_000);
    const body = await purchaseBodyFor(handle.db, s, carrier);
    const key = randomUUID();
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, () => purchaseShippingLabel(handle.db, ctxOf(s, carrier), body, key)),
    );
    expect((await sandboxAccount(handle.db, s.shop.organizationId)).purchase_count).toBe(1);
    const bought = results.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    expect(bought.length).toBeGreaterThanOrEqual(1);
    expect(bought.filter((outcome) => !outcome.replayed)).toHaveLength(1);
    expect(new Set(bought.map((outcome) => outcome.body.purchase.id)).size).toBe(1);
    for (const code of codesOf(results)) expect(code).toBe('LABEL_PURCHASE_IN_PROGRESS');
    const purchases = await handle.db
      .selectFrom('label_purchases')
      .select('id')
      .where('organization_id', '=', s.shop.organizationId)
      .execute();
    expect(purchases).toHaveLength(1);
  });

  it('purchases that together exceed the balance never overdraw it: 2 of 6 labels of 680 fit 1500', async () => {
    const first = await createLabelShop(handle.db, clock);
    const carrier = sandbox(1500);
    // Six orders of one organization, each with its own lines: only the funds are shared.
    const orders = [first];
    for (let index = 1; index < 6; index += 1) orders.push(await first.another());
    const bodies = await Promise.all(orders.map((order) => purchaseBodyFor(handle.db, order, carrier)));
    const results = await Promise.allSettled(
      bodies.map((body, index) =>
        purchaseShippingLabel(handle.db, ctxOf(orders[index]!, carrier), body, randomUUID()),
      ),
    );
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(2);
    // Never a carrier refusal for funds: the claim refused every purchase the balance could not cover.
    expect(codesOf(results)).toEqual(Array(4).fill('INSUFFICIENT_POSTAGE_FUNDS'));
    expect(await sandboxAccount(handle.db, first.shop.organizationId)).toEqual({
      balance_in_cents: 1500 - 2 * 680,
      purchase_count: 2,
    });
  });
});

describe('a purchase that settles while another is being checked', () => {
  /**
   * Purchase A claims the lines and waits in its carrier call; purchase B's selection sees the lines
   * held by A, and A settles before B reads its blockers (B's carrier rate call lets A finish first).
   * Before the fix B answered LABEL_NOT_PURCHASABLE with no blocker.
   */
  async function race(outcome: 'OK' | 'REJECTED') {
    const s = await createLabelShop(handle.db, clock);
    const real = sandbox(10_000);
    const body = await purchaseBodyFor(handle.db, s, real);
    let release!: () => void;
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    const slow: CarrierProvider = {
      ...real,
      services: () => real.services(),
      purchase: async (account, request) => {
        await released;
        return outcome === 'OK'
          ? real.purchase(account, request)
          : { kind: 'REJECTED', providerCode: 'card_declined', message: 'Declined' };
      },
    };
    const first = purchaseShippingLabel(handle.db, ctxOf(s, slow), body, randomUUID());
    // A's claim is committed once the lines are allocated.
    await expect
      .poll(async () =>
        (
          await handle.db
            .selectFrom('label_purchases')
            .select('status')
            .where('organization_id', '=', s.shop.organizationId)
            .execute()
        ).map((row) => row.status),
      )
      .toEqual(['PENDING']);
    let settledFirst: Promise<unknown> | undefined;
    const settling: CarrierProvider = {
      ...real,
      services: () => real.services(),
      rate: async (account, request) => {
        if (!settledFirst) {
          release();
          settledFirst = first.then(
            () => undefined,
            () => undefined,
          );
          await settledFirst;
        }
        return real.rate(account, request);
      },
    };
    const second = await purchaseShippingLabel(handle.db, ctxOf(s, settling), body, randomUUID()).then(
      (value) => ({ value }),
      (error: AppError) => ({ error }),
    );
    return {
      s,
      first: await first.then(
        (value) => ({ value }),
        (error: AppError) => ({ error }),
      ),
      second,
    };
  }

  it('answers OVER_FULFILLMENT when the holder bought the lines', async () => {
    const { first, second } = await race('OK');
    expect('value' in first).toBe(true);
    expect('error' in second && second.error.code).toBe('OVER_FULFILLMENT');
  });

  it('selects again and buys when the holder was declined and released the lines', async () => {
    const { s, first, second } = await race('REJECTED');
    expect('error' in first && first.error.code).toBe('PROVIDER_ERROR');
    expect('value' in second).toBe(true);
    const purchases = await handle.db
      .selectFrom('label_purchases')
      .select('status')
      .where('organization_id', '=', s.shop.organizationId)
      .orderBy('id')
      .execute();
    expect(purchases.map((row) => row.status)).toEqual(['FAILED', 'PURCHASED']);
  });
});
