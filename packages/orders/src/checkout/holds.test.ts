import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKOUT_EMAIL_CONFIG, type CheckoutShop, createCheckoutShop } from '../../test/checkout.ts';
import { bindCheckoutSession } from './bind-checkout-session.ts';
import { createCheckoutSession } from './create-checkout-session.ts';
import { expireCheckoutSessions } from './maintenance.ts';
import { repriceCheckoutSession } from './reprice-checkout-session.ts';
import type { CheckoutLineInput } from './schemas.ts';

// Stock holds: CHECKOUT_HOLD_MINUTES from the first bind, CHECKOUT_MAX_HELD_UNITS_PER_CLIENT per client.

let handle: DatabaseHandle;
const clock = new ManualClock('2026-06-01T09:00:00.000Z');
const MINUTE = 60_000;

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 20 });
});
afterAll(async () => {
  await handle.close();
});

async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const shop = (stock: number) => createCheckoutShop(handle.db, clock, { stock });
const limitedLine = (s: CheckoutShop, quantity: number): CheckoutLineInput => ({
  itemId: s.limited.itemId,
  variantId: s.limited.variantId,
  quantity,
});
const open = (s: CheckoutShop, quantity: number) =>
  createCheckoutSession(handle.db, s.createScope(), {
    lines: [limitedLine(s, quantity)],
    email: 'ada@example.com',
    customerName: 'Ada Lovelace',
    shippingCountry: 'US',
  });
/** A bind by `client` with a hold of 15 minutes and a cap of `cap` units. */
const bindAs = (s: CheckoutShop, token: string, client: string, cap = 20) =>
  bindCheckoutSession(
    handle.db,
    s.bindScope({ holdMinutes: 15, client: { key: client, maxHeldUnits: cap } }),
    { token },
  );

describe('hold duration', () => {
  it('holds from the first bind for CHECKOUT_HOLD_MINUTES, whatever the rebinds and reprices', async () => {
    const s = await shop(10);
    const created = await open(s, 10);
    const firstBind = clock.now();
    const bound = await bindAs(s, created.checkoutToken, 'client-a');
    const holdEnd = new Date(firstBind.getTime() + 15 * MINUTE).toISOString();
    expect(bound.expiresAt).toBe(holdEnd);

    // The three anonymous requests of the report, again and again: the clock never restarts.
    clock.advance(5 * MINUTE);
    expect((await bindAs(s, created.checkoutToken, 'client-a')).expiresAt).toBe(holdEnd);
    clock.advance(5 * MINUTE);
    await repriceCheckoutSession(handle.db, s.scope(), { token: created.checkoutToken });
    expect((await bindAs(s, created.checkoutToken, 'client-a')).expiresAt).toBe(holdEnd);
    expect(await s.stock()).toBe(0);

    clock.advance(5 * MINUTE);
    expect(
      await expireCheckoutSessions(handle.db, { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG }),
    ).toBeGreaterThanOrEqual(1);
    expect(await s.stock()).toBe(10);
    const gone = await failureOf(bindAs(s, created.checkoutToken, 'client-a'));
    expect(gone.code).toBe('RESOURCE_NOT_FOUND');
  });
});

describe('held units per client', () => {
  it('answers 429 with a Retry-After until the next hold ends once a client would hold more than the cap', async () => {
    const s = await shop(10);
    const first = await open(s, 2);
    await bindAs(s, first.checkoutToken, 'client-a', 3);
    clock.advance(4 * MINUTE);
    const second = await open(s, 2);
    const error = await failureOf(bindAs(s, second.checkoutToken, 'client-a', 3));
    expect(error.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(error.status).toBe(429);
    expect(error.retryAfterSeconds).toBe(11 * 60);
    // The cause, told apart from a request-rate limit: this bind's units and the cap.
    expect(error.details).toEqual({ reason: 'HELD_UNITS_CAP', maxUnits: 3, requestedUnits: 2 });
    expect(await s.stock()).toBe(8);

    // Another client is not affected; the same client may still bind within the cap.
    await bindAs(s, second.checkoutToken, 'client-b', 3);
    expect(await s.stock()).toBe(6);
    const third = await open(s, 1);
    await bindAs(s, third.checkoutToken, 'client-a', 3);
    expect(await s.stock()).toBe(5);
  });

  it('counts a rebind without its own earlier hold, and frees the room when a hold is released', async () => {
    const s = await shop(10);
    const first = await open(s, 3);
    await bindAs(s, first.checkoutToken, 'client-a', 3);
    await bindAs(s, first.checkoutToken, 'client-a', 3);
    const second = await open(s, 1);
    expect((await failureOf(bindAs(s, second.checkoutToken, 'client-a', 3))).code).toBe(
      'RATE_LIMIT_EXCEEDED',
    );

    await repriceCheckoutSession(handle.db, s.scope(), { token: first.checkoutToken });
    await bindAs(s, second.checkoutToken, 'client-a', 3);
    expect(await s.stock()).toBe(9);
  });

  it('refuses a single bind over the cap, and counts only tracked stock', async () => {
    const s = await shop(50);
    const big = await open(s, 21);
    const refused = await failureOf(bindAs(s, big.checkoutToken, 'client-a'));
    expect(refused.code).toBe('RATE_LIMIT_EXCEEDED');
    expect(refused.details).toEqual({ reason: 'HELD_UNITS_CAP', maxUnits: 20, requestedUnits: 21 });
    expect(await s.stock()).toBe(50);

    const untracked = await createCheckoutSession(handle.db, s.createScope(), {
      lines: [{ itemId: s.plainItemId, quantity: 500 }],
      email: 'ada@example.com',
      customerName: 'Ada Lovelace',
      shippingCountry: 'US',
    });
    expect((await bindAs(s, untracked.checkoutToken, 'client-a', 1)).status).toBe('BOUND');
  });

  it('names the short line and never the quantity available', async () => {
    const s = await shop(1);
    const created = await createCheckoutSession(handle.db, s.createScope(), {
      lines: [{ itemId: s.plainItemId, quantity: 1 }, limitedLine(s, 2)],
      email: 'ada@example.com',
      customerName: 'Ada Lovelace',
      shippingCountry: 'US',
    });
    const error = await failureOf(bindAs(s, created.checkoutToken, 'client-a'));
    expect(error.code).toBe('INSUFFICIENT_STOCK');
    expect(error.message).toContain('lines.1');
    expect(error.details).toEqual({
      shortages: [
        { path: 'lines.1', itemId: s.limited.itemId, variantId: s.limited.variantId, requestedQuantity: 2 },
      ],
    });
    expect(JSON.stringify(error.details)).not.toContain('available');
  });

  it("names a short line by the client's index of its first line when the cart merged duplicates", async () => {
    const s = await shop(1);
    const created = await createCheckoutSession(handle.db, s.createScope(), {
      lines: [
        { itemId: s.plainItemId, quantity: 1 },
        { itemId: s.plainItemId, quantity: 1 },
        limitedLine(s, 2),
      ],
      email: 'ada@example.com',
      customerName: 'Ada Lovelace',
      shippingCountry: 'US',
    });
    expect(created.lines).toHaveLength(2);
    const shortage = {
      shortages: [
        { path: 'lines.2', itemId: s.limited.itemId, variantId: s.limited.variantId, requestedQuantity: 2 },
      ],
    };
    const error = await failureOf(bindAs(s, created.checkoutToken, 'client-a'));
    expect(error.code).toBe('INSUFFICIENT_STOCK');
    expect(error.details).toEqual(shortage);
    // A reprice that keeps the lines keeps their indices.
    await repriceCheckoutSession(handle.db, s.scope(), { token: created.checkoutToken });
    expect((await failureOf(bindAs(s, created.checkoutToken, 'client-a'))).details).toEqual(shortage);
  });
});

describe.skipIf(testDatabaseKind !== 'postgres')('held units per client, concurrently (PostgreSQL)', () => {
  it('lets concurrent binds of one client hold no more than the cap, across variants', async () => {
    // Each session takes another variant, so no variant lock orders the binds: only the client's lock does.
    const s = await shop(100);
    const variantIds = Array.from({ length: 10 }, (_, index) => `${s.limited.variantId}_${index}`);
    await handle.db
      .insertInto('variants')
      .values(
        variantIds.map((id, index) => ({
          organization_id: s.organizationId,
          id,
          item_id: s.limited.itemId,
          name: `Size ${index}`,
          price_in_cents: 2500,
          inventory_quantity: 5,
        })),
      )
      .execute();
    const sessions = await Promise.all(
      variantIds.map((variantId) =>
        createCheckoutSession(handle.db, s.createScope(), {
          lines: [{ itemId: s.limited.itemId, variantId, quantity: 1 }],
          email: 'ada@example.com',
          customerName: 'Ada Lovelace',
          shippingCountry: 'US',
        }),
      ),
    );
    const outcomes = await Promise.allSettled(
      sessions.map((session) => bindAs(s, session.checkoutToken, 'client-a', 3)),
    );
    const bound = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.flatMap((outcome) =>
      outcome.status === 'rejected' ? [(outcome.reason as AppError).code] : [],
    );
    expect(bound).toHaveLength(3);
    expect(refused).toEqual(Array.from({ length: 7 }, () => 'RATE_LIMIT_EXCEEDED'));
    const held = await handle.db
      .selectFrom('inventory_reservations')
      .select((eb) => eb.fn.sum<string>('quantity').as('units'))
      .where('organization_id', '=', s.organizationId)
      .where('status', '=', 'ACTIVE')
      .executeTakeFirstOrThrow();
    expect(Number(held.units)).toBe(3);
  });

  it('lets concurrent binds of different clients each hold up to the cap', async () => {
    const s = await shop(100);
    const sessions = await Promise.all(Array.from({ length: 6 }, () => open(s, 2)));
    const outcomes = await Promise.allSettled(
      sessions.map((session, index) => bindAs(s, session.checkoutToken, `client-${index % 3}`, 4)),
    );
    expect(outcomes.every((outcome) => outcome.status === 'fulfilled')).toBe(true);
    expect(await s.stock()).toBe(88);
  });
});
