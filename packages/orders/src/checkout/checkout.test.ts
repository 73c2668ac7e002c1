import { AppError, hashToken, ManualClock } from '@commerce/core';
import { type DatabaseHandle, inTransaction } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CHECKOUT_EMAIL_CONFIG,
  type CheckoutShop,
  createCheckoutShop,
  createFakePaymentProvider,
  type FakePaymentProvider,
} from '../../test/checkout.ts';
import { sandboxTaxProvider } from '../tax/sandbox-tax.ts';
import { bindCheckoutSession } from './bind-checkout-session.ts';
import { confirmFreeCheckout } from './confirm-free-checkout.ts';
import { createCheckoutSession } from './create-checkout-session.ts';
import { createPaymentSession } from './create-payment-session.ts';
import {
  expireCheckoutSessions,
  expireUnpaidCheckoutSessions,
  type PaymentTimeoutSweep,
  queueAbandonedCartEmails,
  startCheckoutMaintenance,
  unsubscribeFromCartReminders,
} from './maintenance.ts';
import type { CheckoutMaintenanceLogger } from './payment-actions.ts';
import { repriceCheckoutSession } from './reprice-checkout-session.ts';
import type { CreateCheckoutSessionInput } from './schemas.ts';
import { settlePaymentEvent } from './settle-payment-event.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-06-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 20 });
});
afterAll(async () => {
  await handle.close();
});

const shop = (options?: { stock?: number }) => createCheckoutShop(handle.db, clock, options);

async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

const contact = { email: 'ada@example.com', customerName: 'Ada Lovelace', shippingCountry: 'US' };

function open(s: CheckoutShop, input: Partial<CreateCheckoutSessionInput> = {}) {
  return createCheckoutSession(handle.db, s.createScope(), {
    lines: [{ itemId: s.limited.itemId, variantId: s.limited.variantId, quantity: 1 }],
    ...contact,
    ...input,
  });
}

const reservationsOf = (organizationId: string) =>
  handle.db
    .selectFrom('inventory_reservations')
    .select(['status', 'quantity', 'variant_id'])
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .execute();

const emailsOf = (organizationId: string) =>
  handle.db
    .selectFrom('outbox')
    .select(['metadata', 'payload'])
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .execute()
    .then((rows) =>
      rows.map((row) => ({
        type: (row.metadata as { templateType?: string }).templateType,
        payload: row.payload,
      })),
    );

const orderOf = (organizationId: string, orderId: string) =>
  handle.db
    .selectFrom('orders')
    .innerJoin('sales_records', (join) =>
      join
        .onRef('sales_records.organization_id', '=', 'orders.organization_id')
        .onRef('sales_records.id', '=', 'orders.sales_record_id'),
    )
    .select([
      'orders.status',
      'orders.payment_status',
      'orders.total_in_cents',
      'sales_records.payment_status as salePaymentStatus',
      'sales_records.source',
    ])
    .where('orders.organization_id', '=', organizationId)
    .where('orders.id', '=', orderId)
    .executeTakeFirstOrThrow();

describe('createCheckoutSession', () => {
  it('prices every line from the catalog, merges repeated lines and stores only the token hash', async () => {
    const s = await shop();
    const created = await open(s, {
      lines: [
        { itemId: s.tee.itemId, variantId: s.tee.saleVariantId, quantity: 1 },
        { itemId: s.tee.itemId, variantId: s.tee.pricedVariantId, quantity: 2 },
        { itemId: s.plainItemId, quantity: 1 },
        { itemId: s.tee.itemId, variantId: s.tee.saleVariantId, quantity: 2 },
      ],
    });
    expect(created.checkoutToken).toMatch(/^c1_[A-Za-z0-9_-]{43}$/);
    expect(created.status).toBe('OPEN');
    expect(created.lines).toEqual([
      // Sale price, then the variant price, then the item price.
      expect.objectContaining({
        name: 'tee / Sale',
        quantity: 3,
        unitPriceInCents: 3000,
        totalInCents: 9000,
      }),
      expect.objectContaining({ name: 'tee / Priced', quantity: 2, unitPriceInCents: 4500 }),
      expect.objectContaining({ name: 'plain', variantId: null, quantity: 1, unitPriceInCents: 1000 }),
    ]);
    expect(created.subtotalInCents).toBe(9000 + 9000 + 1000);
    const row = await handle.db
      .selectFrom('checkout_sessions')
      .select('token_hash')
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(hashToken(created.checkoutToken));
  });

  it('offers the rates of the destination whose minimum subtotal the cart meets, defaulting to the cheapest', async () => {
    const s = await shop();
    const small = await open(s);
    expect(small.shippingRequired).toBe(true);
    expect(small.shippingOptions.map((option) => option.name)).toEqual(['Express', 'Standard']);
    expect(small.shippingRateId).toBe(s.rates.standard);
    expect(small.totalInCents).toBe(2500 + 500);

    const large = await open(s, { lines: [{ itemId: s.plainItemId, quantity: 10 }] });
    expect(large.shippingOptions.map((option) => option.name)).toEqual(['Express', 'Standard', 'Free']);
    expect(large.shippingInCents).toBe(0);

    const elsewhere = await open(s, { shippingCountry: 'FR' });
    expect(elsewhere.shippingOptions).toEqual([]);
    expect(elsewhere.shippingRateId).toBeNull();

    const error = await failureOf(open(s, { shippingRateId: s.rates.free }));
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toEqual({ issues: [{ path: 'shippingRateId', message: expect.any(String) }] });
  });

  it('refuses lines that cannot be sold, reporting each one', async () => {
    const s = await shop();
    const error = await failureOf(
      open(s, {
        lines: [
          { itemId: s.draftItemId, quantity: 1 },
          { itemId: s.tee.itemId, quantity: 1 },
          { itemId: s.tee.itemId, variantId: s.limited.variantId, quantity: 1 },
          { itemId: s.tee.itemId, variantId: s.tee.unpricedVariantId, quantity: 1 },
          { itemId: 'itm_unknown', quantity: 1 },
        ],
      }),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
    expect((error.details as { issues: { path: string }[] }).issues.map((issue) => issue.path)).toEqual([
      'lines.0.itemId',
      'lines.1.variantId',
      'lines.2.variantId',
      // The unpriced variant falls back to the item price: sellable.
      'lines.4.itemId',
    ]);
  });
});

describe('repriceCheckoutSession and bindCheckoutSession', () => {
  it('binds the server total with sandbox tax on goods and shipping and reserves tracked stock', async () => {
    const s = await shop({ stock: 3 });
    const created = await open(s, {
      lines: [
        { itemId: s.limited.itemId, variantId: s.limited.variantId, quantity: 2 },
        { itemId: s.plainItemId, quantity: 1 },
      ],
      shippingCountry: 'DE',
    });
    const bound = await bindCheckoutSession(handle.db, s.bindScope({ tax: sandboxTaxProvider }), {
      token: created.checkoutToken,
      shippingRateId: s.rates.express,
    });
    expect(bound).toMatchObject({
      status: 'BOUND',
      subtotalInCents: 6000,
      shippingInCents: 1500,
      // 19 % of 7500.
      taxInCents: 1425,
      totalInCents: 8925,
      currency: 'USD',
      shippingRateId: s.rates.express,
    });
    expect(await s.stock()).toBe(1);
    expect(await reservationsOf(s.organizationId)).toEqual([
      { status: 'ACTIVE', quantity: 2, variant_id: s.limited.variantId },
    ]);

    // Binding again (a retry) releases and reserves again: the stock is held once.
    await bindCheckoutSession(handle.db, s.bindScope({ tax: sandboxTaxProvider }), {
      token: created.checkoutToken,
    });
    expect(await s.stock()).toBe(1);

    // Prices that include tax add none: the tax they hold (19 % of 75.00 inclusive) is recorded.
    const included = await bindCheckoutSession(
      handle.db,
      s.bindScope({ tax: sandboxTaxProvider, taxIncludedInPrices: true }),
      { token: created.checkoutToken },
    );
    expect(included.taxInCents).toBe(1197);
    expect(included.taxIncluded).toBe(true);
    expect(included.totalInCents).toBe(7500);

    // Repricing a bound session reopens it and gives its stock back.
    const reopened = await repriceCheckoutSession(handle.db, s.scope(), {
      token: created.checkoutToken,
      lines: [{ itemId: s.limited.itemId, variantId: s.limited.variantId, quantity: 1 }],
    });
    expect(reopened.status).toBe('OPEN');
    expect(reopened.taxInCents).toBe(0);
    expect(await s.stock()).toBe(3);
    expect((await reservationsOf(s.organizationId)).map((row) => row.status)).toEqual([
      'RELEASED',
      'RELEASED',
      'RELEASED',
    ]);
  });

  it('answers 409 INSUFFICIENT_STOCK and takes nothing when a line is short', async () => {
    const s = await shop({ stock: 1 });
    const created = await open(s, {
      lines: [{ itemId: s.limited.itemId, variantId: s.limited.variantId, quantity: 2 }],
    });
    const error = await failureOf(
      bindCheckoutSession(handle.db, s.bindScope(), { token: created.checkoutToken }),
    );
    expect(error.code).toBe('INSUFFICIENT_STOCK');
    expect(error.details).toEqual({
      shortages: [
        { path: 'lines.0', itemId: s.limited.itemId, variantId: s.limited.variantId, requestedQuantity: 2 },
      ],
    });
    expect(await s.stock()).toBe(1);
    expect(await reservationsOf(s.organizationId)).toEqual([]);
  });

  it('answers 409 STALE_STATE when a price changed since the quote, saving the new quote', async () => {
    const s = await shop();
    const created = await open(s);
    await handle.db
      .updateTable('variants')
      .set({ price_in_cents: 2600 })
      .where('organization_id', '=', s.organizationId)
      .where('id', '=', s.limited.variantId)
      .execute();
    const error = await failureOf(
      bindCheckoutSession(handle.db, s.bindScope(), { token: created.checkoutToken }),
    );
    expect(error.code).toBe('STALE_STATE');
    expect(await s.stock()).toBe(5);
    const bound = await bindCheckoutSession(handle.db, s.bindScope(), { token: created.checkoutToken });
    expect(bound.subtotalInCents).toBe(2600);
  });

  it('answers 400 for a rate that is not an option and 409 STALE_STATE for a line no longer for sale', async () => {
    const s = await shop();
    const created = await open(s);
    const badRate = await failureOf(
      bindCheckoutSession(handle.db, s.bindScope(), {
        token: created.checkoutToken,
        shippingRateId: s.rates.free,
      }),
    );
    expect(badRate.code).toBe('VALIDATION_FAILED');
    await handle.db
      .updateTable('items')
      .set({ status: 'DRAFT' })
      .where('organization_id', '=', s.organizationId)
      .where('id', '=', s.limited.itemId)
      .execute();
    const gone = await failureOf(
      bindCheckoutSession(handle.db, s.bindScope(), { token: created.checkoutToken }),
    );
    expect(gone.code).toBe('STALE_STATE');
    expect(gone.details).toEqual({ issues: [{ path: 'lines.0.itemId', message: expect.any(String) }] });
    expect(await s.stock()).toBe(5);
  });

  it('needs an email, a name and a destination the store ships to before binding', async () => {
    const s = await shop();
    const created = await open(s, { email: undefined, customerName: undefined, shippingCountry: 'FR' });
    const error = await failureOf(
      bindCheckoutSession(handle.db, s.bindScope(), { token: created.checkoutToken }),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
    expect((error.details as { issues: { path: string }[] }).issues.map((issue) => issue.path)).toEqual([
      'email',
      'customerName',
      'shippingCountry',
    ]);
  });

  it('answers the same neutral 404 for malformed, unknown, foreign and expired tokens', async () => {
    const s = await shop();
    const other = await shop();
    const created = await open(s);
    const tokens = ['nope', `c1_${'A'.repeat(43)}`];
    for (const token of tokens) {
      expect((await failureOf(repriceCheckoutSession(handle.db, s.scope(), { token }))).code).toBe(
        'RESOURCE_NOT_FOUND',
      );
    }
    expect(
      (await failureOf(repriceCheckoutSession(handle.db, other.scope(), { token: created.checkoutToken })))
        .code,
    ).toBe('RESOURCE_NOT_FOUND');
    const later = new ManualClock(new Date(clock.now().getTime() + 61 * 60_000));
    expect(
      (
        await failureOf(
          repriceCheckoutSession(
            handle.db,
            { ...s.scope(), at: later.now() },
            { token: created.checkoutToken },
          ),
        )
      ).code,
    ).toBe('RESOURCE_NOT_FOUND');
  });
});

describe('confirmFreeCheckout', () => {
  it('turns a zero total into a PENDING + NOT_REQUIRED order, consuming the stock, once', async () => {
    const s = await shop({ stock: 2 });
    await handle.db
      .updateTable('variants')
      .set({ price_in_cents: 0 })
      .where('organization_id', '=', s.organizationId)
      .where('id', '=', s.limited.variantId)
      .execute();
    const created = await open(s, { shippingCountry: 'FR' });
    await handle.db.deleteFrom('shipping_rates').where('organization_id', '=', s.organizationId).execute();
    const bound = await bindCheckoutSession(handle.db, s.bindScope(), { token: created.checkoutToken });
    expect(bound.totalInCents).toBe(0);
    const order = await confirmFreeCheckout(handle.db, s.scope(), { token: created.checkoutToken });
    expect(order).toMatchObject({ status: 'PENDING', paymentStatus: 'NOT_REQUIRED', totalInCents: 0 });
    expect(order.orderStatusToken).toMatch(/^o1_/);
    expect(await s.stock()).toBe(1);
    expect((await reservationsOf(s.organizationId)).map((row) => row.status)).toEqual(['CONSUMED']);
    expect((await emailsOf(s.organizationId)).map((row) => row.type)).toEqual(['ORDER_CONFIRMATION']);

    const again = await confirmFreeCheckout(handle.db, s.scope(), { token: created.checkoutToken });
    expect(again.id).toBe(order.id);
    expect(again.orderStatusToken).not.toBe(order.orderStatusToken);
    expect(await s.stock()).toBe(1);
  });

  it('refuses a positive bound total and an unbound session with 409 INVALID_STATE_TRANSITION', async () => {
    const s = await shop();
    const created = await open(s);
    const unbound = await failureOf(
      confirmFreeCheckout(handle.db, s.scope(), { token: created.checkoutToken }),
    );
    expect(unbound.code).toBe('INVALID_STATE_TRANSITION');
    await bindCheckoutSession(handle.db, s.bindScope(), { token: created.checkoutToken });
    const positive = await failureOf(
      confirmFreeCheckout(handle.db, s.scope(), { token: created.checkoutToken }),
    );
    expect(positive.code).toBe('INVALID_STATE_TRANSITION');
  });
});

/**
 * A verified event for `intentId`, settled in its own transaction. The amount
 * and currency are the attempt's unless `money` says otherwise, as the
 * processor's would be.
 */
async function settle(
  intentId: string | null,
  type: string,
  money?: { amountInCents: number | null; currency: string | null },
  at: Date = clock.now(),
) {
  const attempt = intentId
    ? await handle.db
        .selectFrom('payment_attempts')
        .select(['amount_in_cents', 'currency'])
        .where('intent_id', '=', intentId)
        .executeTakeFirst()
    : undefined;
  const amount = money ?? {
    amountInCents: attempt?.amount_in_cents ?? null,
    currency: attempt?.currency ?? null,
  };
  return inTransaction(handle.db, (trx) =>
    settlePaymentEvent(
      trx,
      {
        id: `evt_${Math.random()}`,
        type,
        intentId,
        ...amount,
        metadata: {},
        createdAt: at,
      },
      { at, email: CHECKOUT_EMAIL_CONFIG },
    ),
  );
}

async function boundSession(s: CheckoutShop) {
  const created = await open(s);
  await bindCheckoutSession(handle.db, s.bindScope(), { token: created.checkoutToken });
  return created;
}

describe('createPaymentSession and settlePaymentEvent', () => {
  it('creates the order awaiting payment and one intent per session, answering retries from the attempt', async () => {
    const s = await shop();
    const payments = createFakePaymentProvider();
    const created = await boundSession(s);
    const handoff = await createPaymentSession(
      handle.db,
      payments,
      { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG },
      {
        token: created.checkoutToken,
      },
    );
    expect(handoff).toMatchObject({ publishableKey: 'pk_test_fake', amountInCents: 3000, currency: 'USD' });
    expect(handoff.clientSecret).toMatch(/^pi_[0-9a-f]+_secret_/);
    expect(payments.calls).toHaveLength(1);
    expect(payments.calls[0]).toMatchObject({ amountInCents: 3000, currency: 'USD' });
    expect(payments.calls[0]!.idempotencyKey).toMatch(/^pat_/);
    expect(await orderOf(s.organizationId, handoff.orderId!)).toEqual({
      status: 'PENDING',
      payment_status: 'AWAITING_PAYMENT',
      total_in_cents: 3000,
      salePaymentStatus: 'AWAITING_PAYMENT',
      source: 'CHECKOUT',
    });

    const again = await createPaymentSession(
      handle.db,
      payments,
      { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG },
      {
        token: created.checkoutToken,
      },
    );
    expect(again).toEqual(handoff);
    expect(payments.calls).toHaveLength(1);
    // Binding or repricing once a payment started is refused.
    const rebind = await failureOf(
      bindCheckoutSession(handle.db, s.bindScope(), { token: created.checkoutToken }),
    );
    expect(rebind.code).toBe('INVALID_STATE_TRANSITION');
  });

  it('replays a payment-session idempotency key for its token and refuses it for another', async () => {
    const s = await shop();
    const payments = createFakePaymentProvider();
    const first = await boundSession(s);
    const second = await boundSession(s);
    const scope = { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG };
    const key = 'key-0123456789abcdef';
    const handoff = await createPaymentSession(handle.db, payments, scope, {
      token: first.checkoutToken,
      idempotencyKey: key,
    });
    expect(handoff.replayed).toBe(false);
    const replay = await createPaymentSession(handle.db, payments, scope, {
      token: first.checkoutToken,
      idempotencyKey: key,
    });
    expect(replay).toEqual({ ...handoff, replayed: true });
    const reused = await failureOf(
      createPaymentSession(handle.db, payments, scope, { token: second.checkoutToken, idempotencyKey: key }),
    );
    expect(reused.code).toBe('IDEMPOTENCY_KEY_REUSED');
    // The refused call changed nothing: the second session is still bound, without an order.
    const row = await handle.db
      .selectFrom('checkout_sessions')
      .select(['status', 'order_id'])
      .where('id', '=', second.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'BOUND', order_id: null });
  });

  it('keeps the attempt when the provider fails, and the retry asks for the same key', async () => {
    const s = await shop();
    const payments = createFakePaymentProvider();
    const created = await boundSession(s);
    payments.failWith = new AppError('PROVIDER_UNAVAILABLE');
    const error = await failureOf(
      createPaymentSession(
        handle.db,
        payments,
        { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG },
        {
          token: created.checkoutToken,
        },
      ),
    );
    expect(error.code).toBe('PROVIDER_UNAVAILABLE');
    payments.failWith = undefined;
    await createPaymentSession(
      handle.db,
      payments,
      { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG },
      {
        token: created.checkoutToken,
      },
    );
    expect(payments.calls.map((call) => call.idempotencyKey)).toEqual([
      payments.calls[0]!.idempotencyKey,
      payments.calls[0]!.idempotencyKey,
    ]);
  });

  it('refuses an unbound session with 409 INVALID_STATE_TRANSITION', async () => {
    const s = await shop();
    const created = await open(s);
    const error = await failureOf(
      createPaymentSession(
        handle.db,
        createFakePaymentProvider(),
        { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG },
        {
          token: created.checkoutToken,
        },
      ),
    );
    expect(error.code).toBe('INVALID_STATE_TRANSITION');
  });

  it('settles success: PAID, stock consumed, session completed, confirmation queued; replays change nothing', async () => {
    const s = await shop({ stock: 1 });
    const payments = createFakePaymentProvider();
    const created = await boundSession(s);
    const handoff = await createPaymentSession(
      handle.db,
      payments,
      { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG },
      {
        token: created.checkoutToken,
      },
    );
    const intentId = handoff.clientSecret.split('_secret_')[0]!;
    expect(await settle(intentId, 'payment_intent.succeeded')).toEqual({
      outcome: 'paid',
      organizationId: s.organizationId,
      orderId: handoff.orderId,
    });
    expect(await orderOf(s.organizationId, handoff.orderId!)).toMatchObject({
      payment_status: 'PAID',
      salePaymentStatus: 'PAID',
    });
    expect(await s.stock()).toBe(0);
    expect((await reservationsOf(s.organizationId)).map((row) => row.status)).toEqual(['CONSUMED']);
    expect((await emailsOf(s.organizationId)).map((row) => row.type)).toEqual(['ORDER_CONFIRMATION']);

    expect((await settle(intentId, 'payment_intent.succeeded')).outcome).toBe('unchanged');
    expect((await settle(intentId, 'payment_intent.payment_failed')).outcome).toBe('unchanged');
    expect(await settle('pi_unknown', 'payment_intent.succeeded')).toEqual({ outcome: 'unknown_intent' });
    expect(await settle(intentId, 'charge.refunded')).toEqual({ outcome: 'ignored' });
    expect(await s.stock()).toBe(0);
    expect(await orderOf(s.organizationId, handoff.orderId!)).toMatchObject({ payment_status: 'PAID' });
    expect(await emailsOf(s.organizationId)).toHaveLength(1);
    const session = await handle.db
      .selectFrom('checkout_sessions')
      .select(['status', 'order_id'])
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(session).toEqual({ status: 'COMPLETED', order_id: handoff.orderId });
  });

  it('settles failure: FAILED, stock released with back-in-stock emails; a new payment session retries the same intent', async () => {
    const s = await shop({ stock: 1 });
    await handle.db
      .insertInto('stock_subscriptions')
      .values({
        organization_id: s.organizationId,
        id: 'stk_waiting',
        item_id: s.limited.itemId,
        variant_id: s.limited.variantId,
        email: 'waiting@example.com',
      })
      .execute();
    const payments = createFakePaymentProvider();
    const created = await boundSession(s);
    const scope = { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG };
    const handoff = await createPaymentSession(handle.db, payments, scope, { token: created.checkoutToken });
    const intentId = handoff.clientSecret.split('_secret_')[0]!;
    expect(await s.stock()).toBe(0);

    expect((await settle(intentId, 'payment_intent.payment_failed')).outcome).toBe('failed');
    expect(await orderOf(s.organizationId, handoff.orderId!)).toMatchObject({
      payment_status: 'FAILED',
      salePaymentStatus: 'FAILED',
    });
    expect(await s.stock()).toBe(1);
    expect((await emailsOf(s.organizationId)).map((row) => row.type)).toEqual(['BACK_IN_STOCK']);
    expect((await settle(intentId, 'payment_intent.payment_failed')).outcome).toBe('unchanged');
    expect(await s.stock()).toBe(1);

    const retried = await createPaymentSession(handle.db, payments, scope, { token: created.checkoutToken });
    expect(retried.clientSecret).toBe(handoff.clientSecret);
    expect(await s.stock()).toBe(0);
    expect(await orderOf(s.organizationId, handoff.orderId!)).toMatchObject({
      payment_status: 'AWAITING_PAYMENT',
    });
    expect((await settle(intentId, 'payment_intent.succeeded')).outcome).toBe('paid');
    expect(await s.stock()).toBe(0);
    expect((await reservationsOf(s.organizationId)).map((row) => row.status)).toEqual([
      'RELEASED',
      'CONSUMED',
    ]);
  });

  it("names a short line by the client's index when a retried payment session cannot take the stock again", async () => {
    const s = await shop({ stock: 1 });
    const payments = createFakePaymentProvider();
    const plain = { itemId: s.plainItemId, quantity: 1 };
    const created = await open(s, {
      lines: [plain, plain, { itemId: s.limited.itemId, variantId: s.limited.variantId, quantity: 1 }],
    });
    await bindCheckoutSession(handle.db, s.bindScope(), { token: created.checkoutToken });
    const scope = { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG };
    const handoff = await createPaymentSession(handle.db, payments, scope, { token: created.checkoutToken });
    const intentId = handoff.clientSecret.split('_secret_')[0]!;
    expect((await settle(intentId, 'payment_intent.payment_failed')).outcome).toBe('failed');
    // Someone else buys the released unit before the shopper retries.
    await handle.db
      .updateTable('variants')
      .set({ inventory_quantity: 0 })
      .where('organization_id', '=', s.organizationId)
      .where('id', '=', s.limited.variantId)
      .execute();

    const error = await failureOf(
      createPaymentSession(handle.db, payments, scope, { token: created.checkoutToken }),
    );
    expect(error.code).toBe('INSUFFICIENT_STOCK');
    expect(error.details).toEqual({
      shortages: [
        { path: 'lines.2', itemId: s.limited.itemId, variantId: s.limited.variantId, requestedQuantity: 1 },
      ],
    });
  });

  it('takes the stock again when a payment succeeds after it was reported failed', async () => {
    const s = await shop({ stock: 2 });
    const payments = createFakePaymentProvider();
    const created = await boundSession(s);
    const handoff = await createPaymentSession(
      handle.db,
      payments,
      { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG },
      {
        token: created.checkoutToken,
      },
    );
    const intentId = handoff.clientSecret.split('_secret_')[0]!;
    await settle(intentId, 'payment_intent.payment_failed');
    expect(await s.stock()).toBe(2);
    expect((await settle(intentId, 'payment_intent.succeeded')).outcome).toBe('paid');
    expect(await s.stock()).toBe(1);
    expect(await orderOf(s.organizationId, handoff.orderId!)).toMatchObject({ payment_status: 'PAID' });
  });
});

describe('settlePaymentEvent: amount and currency', () => {
  it('does not mark the order PAID for a success of another amount, another currency or none', async () => {
    const s = await shop({ stock: 1 });
    const payments = createFakePaymentProvider();
    const created = await boundSession(s);
    const scope = { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG };
    const handoff = await createPaymentSession(handle.db, payments, scope, { token: created.checkoutToken });
    const intentId = handoff.clientSecret.split('_secret_')[0]!;
    const attemptId = payments.calls[0]!.idempotencyKey;
    expect(handoff).toMatchObject({ amountInCents: 3000, currency: 'USD' });

    for (const money of [
      { amountInCents: 2999, currency: 'USD' },
      { amountInCents: 3001, currency: 'USD' },
      { amountInCents: 3000, currency: 'EUR' },
      { amountInCents: 3000, currency: null },
      { amountInCents: null, currency: 'USD' },
    ]) {
      expect(await settle(intentId, 'payment_intent.succeeded', money)).toEqual({
        outcome: 'amount_mismatch',
        organizationId: s.organizationId,
        orderId: handoff.orderId,
        paymentAttemptId: attemptId,
      });
    }
    expect(await orderOf(s.organizationId, handoff.orderId!)).toMatchObject({
      payment_status: 'AWAITING_PAYMENT',
      salePaymentStatus: 'AWAITING_PAYMENT',
    });
    expect(await s.stock()).toBe(0);
    expect((await reservationsOf(s.organizationId)).map((row) => row.status)).toEqual(['ACTIVE']);
    expect(await emailsOf(s.organizationId)).toEqual([]);
    const attempt = await handle.db
      .selectFrom('payment_attempts')
      .select('status')
      .where('organization_id', '=', s.organizationId)
      .executeTakeFirstOrThrow();
    expect(attempt.status).toBe('PENDING');

    // A failure needs no amount to be believed; the matching success still settles afterwards.
    expect(
      (await settle(intentId, 'payment_intent.payment_failed', { amountInCents: null, currency: null }))
        .outcome,
    ).toBe('failed');
    await createPaymentSession(handle.db, payments, scope, { token: created.checkoutToken });
    expect(
      (await settle(intentId, 'payment_intent.succeeded', { amountInCents: 3000, currency: 'USD' })).outcome,
    ).toBe('paid');
    expect(await orderOf(s.organizationId, handoff.orderId!)).toMatchObject({ payment_status: 'PAID' });
  });
});

describe('expiry and abandoned carts', () => {
  it('expires bound sessions past their time, releasing stock, and leaves sessions awaiting payment', async () => {
    const s = await shop({ stock: 3 });
    const payments = createFakePaymentProvider();
    const bound = await open(s);
    await bindCheckoutSession(handle.db, s.bindScope(), { token: bound.checkoutToken });
    const paying = await open(s);
    await bindCheckoutSession(handle.db, s.bindScope(), { token: paying.checkoutToken });
    await createPaymentSession(
      handle.db,
      payments,
      { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG },
      {
        token: paying.checkoutToken,
      },
    );
    expect(await s.stock()).toBe(1);

    const beforeExpiry = new Date(clock.now().getTime() + 59 * 60_000);
    expect(await expireCheckoutSessions(handle.db, { at: beforeExpiry, email: CHECKOUT_EMAIL_CONFIG })).toBe(
      0,
    );
    const afterExpiry = new Date(clock.now().getTime() + 61 * 60_000);
    await expireCheckoutSessions(handle.db, { at: afterExpiry, email: CHECKOUT_EMAIL_CONFIG });
    const statuses = await handle.db
      .selectFrom('checkout_sessions')
      .select(['id', 'status'])
      .where('organization_id', '=', s.organizationId)
      .orderBy('id')
      .execute();
    expect(statuses.map((row) => row.status)).toEqual(['EXPIRED', 'AWAITING_PAYMENT']);
    expect(await s.stock()).toBe(2);
    const error = await failureOf(
      repriceCheckoutSession(handle.db, { ...s.scope(), at: afterExpiry }, { token: bound.checkoutToken }),
    );
    expect(error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('queues one reminder per unpaid session with an email after the delay, never for paid or opted-out carts', async () => {
    const s = await shop();
    const remind = (minutesLater: number) =>
      queueAbandonedCartEmails(handle.db, {
        at: new Date(clock.now().getTime() + minutesLater * 60_000),
        email: CHECKOUT_EMAIL_CONFIG,
        delayMinutes: 60,
        batchSize: 1000,
      });
    const reminded = await open(s, {
      lines: [{ itemId: s.plainItemId, quantity: 2 }],
      email: 'cart@example.com',
    });
    await open(s, { email: undefined });
    const free = await open(s, { email: 'paid@example.com' });
    await handle.db
      .updateTable('checkout_sessions')
      .set({ status: 'COMPLETED' })
      .where('organization_id', '=', s.organizationId)
      .where('id', '=', free.id)
      .execute();
    const before = await handle.db
      .selectFrom('outbox')
      .select('id')
      .where('organization_id', '=', s.organizationId)
      .execute();
    expect(before).toHaveLength(0);

    await remind(30);
    expect(await emailsOf(s.organizationId)).toHaveLength(0);
    await remind(61);
    await remind(120);
    const emails = await emailsOf(s.organizationId);
    expect(emails.map((row) => row.type)).toEqual(['ABANDONED_CART_RECOVERY']);
    const text = JSON.stringify(emails[0]!.payload);
    expect(text).toContain('cart@example.com');
    expect(text).toContain(
      `https://shop.example/cart/recover?items=${encodeURIComponent(`${s.plainItemId}::2`)}`,
    );
    const unsubscribe = /\/cart\/reminders\/unsubscribe\?token=(u1_[A-Za-z0-9_-]{43})/.exec(text)![1]!;
    expect(reminded.id).toBeTruthy();

    expect(await unsubscribeFromCartReminders(handle.db, unsubscribe, clock.now())).toBe(true);
    expect(await unsubscribeFromCartReminders(handle.db, unsubscribe, clock.now())).toBe(true);
    expect(await unsubscribeFromCartReminders(handle.db, 'u1_nope', clock.now())).toBe(false);
    await open(s, { email: 'CART@example.com' });
    await remind(240);
    expect(await emailsOf(s.organizationId)).toHaveLength(1);
  });
  it('runs both sweeps from the worker loop, and stops cleanly', async () => {
    const s = await shop({ stock: 1 });
    const created = await open(s);
    await bindCheckoutSession(handle.db, s.bindScope(), { token: created.checkoutToken });
    const later = new ManualClock(new Date(clock.now().getTime() + 2 * 60 * 60_000));
    const logged: string[] = [];
    const sweeps = startCheckoutMaintenance({
      db: handle.db,
      clock: later,
      email: CHECKOUT_EMAIL_CONFIG,
      abandonedCartDelayMinutes: 60,
      intervalMs: 3_600_000,
      logger: {
        info: (_fields, message) => logged.push(message),
        error: (_fields, message) => logged.push(message),
      },
    });
    const outcome = await sweeps.runOnce();
    await sweeps.stop();
    expect(outcome.expired).toBeGreaterThanOrEqual(1);
    expect(outcome.reminded).toBeGreaterThanOrEqual(1);
    expect(logged).toContain('checkout sweep');
    expect(await s.stock()).toBe(1);
    expect((await emailsOf(s.organizationId)).map((row) => row.type)).toEqual(['ABANDONED_CART_RECOVERY']);
  });
});

describe('payment timeout (expireUnpaidCheckoutSessions)', () => {
  const minutesLater = (minutes: number) => new Date(clock.now().getTime() + minutes * 60_000);
  const sweep = (payments: FakePaymentProvider, minutes: number, logger?: CheckoutMaintenanceLogger) =>
    expireUnpaidCheckoutSessions(handle.db, {
      at: minutesLater(minutes),
      email: CHECKOUT_EMAIL_CONFIG,
      payments,
      timeoutMinutes: 60,
      batchSize: 1000,
      ...(logger ? { logger } : {}),
    });
  const sessionOf = (organizationId: string, id: string) =>
    handle.db
      .selectFrom('checkout_sessions')
      .select(['status', 'updated_at'])
      .where('organization_id', '=', organizationId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  const attemptStatusOf = async (organizationId: string) =>
    (
      await handle.db
        .selectFrom('payment_attempts')
        .select('status')
        .where('organization_id', '=', organizationId)
        .executeTakeFirstOrThrow()
    ).status;

  async function awaitingPayment(s: CheckoutShop, payments: FakePaymentProvider) {
    const created = await boundSession(s);
    const handoff = await createPaymentSession(
      handle.db,
      payments,
      { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG },
      { token: created.checkoutToken },
    );
    return {
      created,
      handoff,
      intentId: handoff.clientSecret.split('_secret_')[0]!,
      attemptId: payments.calls.at(-1)!.idempotencyKey,
    };
  }

  it('cancels the intent with no lock held, then expires the session: payment FAILED, stock back with back-in-stock emails', async () => {
    const s = await shop({ stock: 1 });
    await handle.db
      .insertInto('stock_subscriptions')
      .values({
        organization_id: s.organizationId,
        id: `stk_timeout_${s.organizationId}`,
        item_id: s.limited.itemId,
        variant_id: s.limited.variantId,
        email: 'waiting@example.com',
      })
      .execute();
    const payments = createFakePaymentProvider();
    const { created, handoff, intentId, attemptId } = await awaitingPayment(s, payments);
    expect(await s.stock()).toBe(0);

    await sweep(payments, 59);
    expect(payments.cancels.filter((call) => call.intentId === intentId)).toEqual([]);
    expect((await sessionOf(s.organizationId, created.id)).status).toBe('AWAITING_PAYMENT');

    // While the processor is called, the session row is free: a lock taken with NOWAIT succeeds.
    const lockedDuringCall: string[] = [];
    payments.duringCancel = async (cancelled) => {
      if (cancelled !== intentId) return;
      const rows = await inTransaction(handle.db, (trx) =>
        trx
          .selectFrom('checkout_sessions')
          .select('status')
          .where('organization_id', '=', s.organizationId)
          .where('id', '=', created.id)
          .forUpdate()
          .noWait()
          .execute(),
      );
      lockedDuringCall.push(rows[0]!.status);
    };
    const outcome = await sweep(payments, 61);
    expect(outcome.expired).toBeGreaterThanOrEqual(1);
    expect(lockedDuringCall).toEqual(['AWAITING_PAYMENT']);
    expect(payments.cancels.filter((call) => call.intentId === intentId)).toEqual([
      { intentId, idempotencyKey: `${attemptId}:cancel:${minutesLater(61).getTime()}` },
    ]);
    expect((await sessionOf(s.organizationId, created.id)).status).toBe('EXPIRED');
    expect(await attemptStatusOf(s.organizationId)).toBe('FAILED');
    expect(await orderOf(s.organizationId, handoff.orderId!)).toMatchObject({
      status: 'PENDING',
      payment_status: 'FAILED',
      salePaymentStatus: 'FAILED',
    });
    expect(await s.stock()).toBe(1);
    expect((await reservationsOf(s.organizationId)).map((row) => row.status)).toEqual(['RELEASED']);
    expect((await emailsOf(s.organizationId)).map((row) => row.type)).toEqual(['BACK_IN_STOCK']);

    // The shopper coming back finds the neutral 404 of an expired session; a later sweep does nothing.
    const error = await failureOf(
      createPaymentSession(
        handle.db,
        payments,
        { at: minutesLater(62), email: CHECKOUT_EMAIL_CONFIG },
        { token: created.checkoutToken },
      ),
    );
    expect(error.code).toBe('RESOURCE_NOT_FOUND');
    await sweep(payments, 200);
    expect(payments.cancels.filter((call) => call.intentId === intentId)).toHaveLength(1);
    expect(await s.stock()).toBe(1);
  });

  it('leaves an intent that succeeded to the webhook, and asks again one timeout later with a new key', async () => {
    const s = await shop({ stock: 1 });
    const payments = createFakePaymentProvider();
    const { created, handoff, intentId } = await awaitingPayment(s, payments);
    payments.cancelResult = { outcome: 'not_cancelable', intentStatus: 'succeeded' };
    const logged: string[] = [];
    const logger = {
      info: (fields: Record<string, unknown>, message: string) => {
        if (fields.intentId === intentId) logged.push(message);
      },
      error: () => {},
    };

    expect((await sweep(payments, 61, logger)).leftToWebhook).toBeGreaterThanOrEqual(1);
    expect(logged).toEqual(['payment timeout: intent not cancelable, left to the webhook']);
    expect((await sessionOf(s.organizationId, created.id)).status).toBe('AWAITING_PAYMENT');
    expect(await s.stock()).toBe(0);
    expect((await reservationsOf(s.organizationId)).map((row) => row.status)).toEqual(['ACTIVE']);
    await sweep(payments, 90);
    expect(payments.cancels.filter((call) => call.intentId === intentId)).toHaveLength(1);
    await sweep(payments, 122);
    const keys = payments.cancels
      .filter((call) => call.intentId === intentId)
      .map((call) => call.idempotencyKey);
    expect(keys).toHaveLength(2);
    expect(new Set(keys).size).toBe(2);

    expect((await settle(intentId, 'payment_intent.succeeded', undefined, minutesLater(123))).outcome).toBe(
      'paid',
    );
    expect(await orderOf(s.organizationId, handoff.orderId!)).toMatchObject({ payment_status: 'PAID' });
    expect(await s.stock()).toBe(0);
    expect((await reservationsOf(s.organizationId)).map((row) => row.status)).toEqual(['CONSUMED']);
  });

  it('skips a session a success webhook completed during the cancel call', async () => {
    const s = await shop({ stock: 1 });
    const payments = createFakePaymentProvider();
    const { created, handoff, intentId } = await awaitingPayment(s, payments);
    payments.duringCancel = async (cancelled) => {
      if (cancelled === intentId)
        await settle(intentId, 'payment_intent.succeeded', undefined, minutesLater(61));
    };
    expect((await sweep(payments, 61)).skipped).toBeGreaterThanOrEqual(1);
    expect((await sessionOf(s.organizationId, created.id)).status).toBe('COMPLETED');
    expect(await attemptStatusOf(s.organizationId)).toBe('SUCCEEDED');
    expect(await orderOf(s.organizationId, handoff.orderId!)).toMatchObject({ payment_status: 'PAID' });
    expect(await s.stock()).toBe(0);
    expect((await reservationsOf(s.organizationId)).map((row) => row.status)).toEqual(['CONSUMED']);
    expect((await emailsOf(s.organizationId)).map((row) => row.type)).toEqual(['ORDER_CONFIRMATION']);
  });

  it('expires a session a failure webhook reached during the cancel call, giving the stock back once', async () => {
    const s = await shop({ stock: 2 });
    const payments = createFakePaymentProvider();
    const { created, handoff, intentId } = await awaitingPayment(s, payments);
    expect(await s.stock()).toBe(1);
    payments.duringCancel = async (cancelled) => {
      if (cancelled === intentId)
        await settle(intentId, 'payment_intent.payment_failed', undefined, minutesLater(61));
    };
    await sweep(payments, 61);
    expect((await sessionOf(s.organizationId, created.id)).status).toBe('EXPIRED');
    expect(await orderOf(s.organizationId, handoff.orderId!)).toMatchObject({ payment_status: 'FAILED' });
    expect(await s.stock()).toBe(2);
    expect((await reservationsOf(s.organizationId)).map((row) => row.status)).toEqual(['RELEASED']);
  });

  it('settles a success arriving after the expiry: PAID, the stock taken again and floored at 0', async () => {
    const s = await shop({ stock: 1 });
    const payments = createFakePaymentProvider();
    const { created, handoff, intentId } = await awaitingPayment(s, payments);
    await sweep(payments, 61);
    expect((await sessionOf(s.organizationId, created.id)).status).toBe('EXPIRED');
    expect(await s.stock()).toBe(1);
    // Another shopper takes the unit back in stock.
    await boundSession(s);
    expect(await s.stock()).toBe(0);

    expect(await settle(intentId, 'payment_intent.succeeded', undefined, minutesLater(70))).toEqual({
      outcome: 'paid',
      organizationId: s.organizationId,
      orderId: handoff.orderId,
    });
    expect(await s.stock()).toBe(0);
    expect(await orderOf(s.organizationId, handoff.orderId!)).toMatchObject({
      payment_status: 'PAID',
      salePaymentStatus: 'PAID',
    });
    expect((await sessionOf(s.organizationId, created.id)).status).toBe('COMPLETED');
    expect(await attemptStatusOf(s.organizationId)).toBe('SUCCEEDED');
    expect((await emailsOf(s.organizationId)).map((row) => row.type)).toEqual(['ORDER_CONFIRMATION']);
    expect((await settle(intentId, 'payment_intent.succeeded', undefined, minutesLater(71))).outcome).toBe(
      'unchanged',
    );
  });

  it('expires a session whose intent was never created without calling the processor', async () => {
    const s = await shop({ stock: 1 });
    const payments = createFakePaymentProvider();
    const created = await boundSession(s);
    payments.failWith = new AppError('PROVIDER_UNAVAILABLE', 'down');
    await failureOf(
      createPaymentSession(
        handle.db,
        payments,
        { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG },
        { token: created.checkoutToken },
      ),
    );
    const cancelsBefore = payments.cancels.length;
    await sweep(payments, 61);
    expect((await sessionOf(s.organizationId, created.id)).status).toBe('EXPIRED');
    expect(await s.stock()).toBe(1);
    // Only other tests' sessions (with intents) may have been cancelled.
    expect(payments.cancels.slice(cancelsBefore).every((call) => call.intentId.startsWith('pi_'))).toBe(true);
    expect(await attemptStatusOf(s.organizationId)).toBe('FAILED');
  });

  it('gives the batch back when the processor is unreachable, and holds a refused one for a timeout', async () => {
    // Sessions of earlier tests are done with: this one runs alone past them in time.
    await sweep(createFakePaymentProvider(), 10_000);
    const s = await shop({ stock: 2 });
    const payments = createFakePaymentProvider();
    const first = await awaitingPayment(s, payments);
    const second = await awaitingPayment(s, payments);
    const before = await sessionOf(s.organizationId, first.created.id);
    const errors: string[] = [];
    const logger = {
      info: () => {},
      error: (_fields: Record<string, unknown>, message: string) => errors.push(message),
    };

    payments.cancelFailWith = new AppError('PROVIDER_UNAVAILABLE', 'down');
    expect(await sweep(payments, 61, logger)).toEqual({
      claimed: 2,
      expired: 0,
      leftToWebhook: 0,
      skipped: 0,
      failed: 2,
    });
    expect(payments.cancels).toHaveLength(1);
    expect(errors).toEqual(['payment timeout: processor unreachable']);
    expect(await sessionOf(s.organizationId, first.created.id)).toEqual(before);
    expect((await sessionOf(s.organizationId, second.created.id)).updated_at).toEqual(before.updated_at);

    payments.cancelFailWith = new AppError('PROVIDER_ERROR', 'refused');
    expect((await sweep(payments, 62, logger)).failed).toBe(2);
    expect(payments.cancels).toHaveLength(3);
    expect((await sweep(payments, 63)).claimed).toBe(0);
    expect(await s.stock()).toBe(0);

    payments.cancelFailWith = undefined;
    expect((await sweep(payments, 62 + 61)).expired).toBe(2);
    expect(await s.stock()).toBe(2);
  });

  it('runs from the worker loop when given the processor and the timeout', async () => {
    const s = await shop({ stock: 1 });
    const payments = createFakePaymentProvider();
    const { created } = await awaitingPayment(s, payments);
    const fields: Record<string, unknown>[] = [];
    const sweeps = startCheckoutMaintenance({
      db: handle.db,
      clock: new ManualClock(minutesLater(20_000)),
      email: CHECKOUT_EMAIL_CONFIG,
      abandonedCartDelayMinutes: 60,
      paymentTimeout: { payments, minutes: 60 },
      intervalMs: 3_600_000,
      logger: { info: (logged) => fields.push(logged), error: () => {} },
    });
    const outcome = await sweeps.runOnce();
    await sweeps.stop();
    expect(outcome.paymentsTimedOut).toBeGreaterThanOrEqual(1);
    expect(fields.at(-1)).toMatchObject({ paymentsTimedOut: outcome.paymentsTimedOut });
    expect((await sessionOf(s.organizationId, created.id)).status).toBe('EXPIRED');
    expect(await s.stock()).toBe(1);
  });
});

describe.skipIf(testDatabaseKind !== 'postgres')('concurrency (PostgreSQL)', () => {
  it('lets exactly one of ten concurrent checkouts of the last unit bind; the others get 409 INSUFFICIENT_STOCK', async () => {
    const s = await shop({ stock: 1 });
    const sessions = await Promise.all(Array.from({ length: 10 }, () => open(s)));
    const outcomes = await Promise.allSettled(
      sessions.map((session) =>
        bindCheckoutSession(handle.db, s.bindScope(), { token: session.checkoutToken }),
      ),
    );
    const bound = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.flatMap((outcome) =>
      outcome.status === 'rejected' ? [(outcome.reason as AppError).code] : [],
    );
    expect(bound).toHaveLength(1);
    expect(refused).toEqual(Array.from({ length: 9 }, () => 'INSUFFICIENT_STOCK'));
    expect(await s.stock()).toBe(0);
    expect(await reservationsOf(s.organizationId)).toHaveLength(1);
  });

  it('lets concurrent payment-timeout sweeps cancel each intent once and give each unit back once', async () => {
    const at = new Date(clock.now().getTime() + 30_000 * 60_000);
    const options = { at, email: CHECKOUT_EMAIL_CONFIG, timeoutMinutes: 60, batchSize: 2 };
    await expireUnpaidCheckoutSessions(handle.db, {
      ...options,
      payments: createFakePaymentProvider(),
      batchSize: 1000,
    });
    const s = await shop({ stock: 6 });
    const payments = createFakePaymentProvider();
    for (let index = 0; index < 6; index += 1) {
      const created = await open(s);
      await bindCheckoutSession(handle.db, s.bindScope(), { token: created.checkoutToken });
      await createPaymentSession(
        handle.db,
        payments,
        { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG },
        { token: created.checkoutToken },
      );
    }
    expect(await s.stock()).toBe(0);
    // Distinct start times, so the oldest two are every sweep's first choice unless claimed.
    const sessions = await handle.db
      .selectFrom('checkout_sessions')
      .select('id')
      .where('organization_id', '=', s.organizationId)
      .orderBy('id')
      .execute();
    for (const [index, session] of sessions.entries()) {
      await handle.db
        .updateTable('checkout_sessions')
        .set({ updated_at: new Date(clock.now().getTime() + index * 1000) })
        .where('organization_id', '=', s.organizationId)
        .where('id', '=', session.id)
        .execute();
    }
    // Each sweep starts while the ones before it are inside a processor call, their claims committed;
    // all the calls are held until the third is in flight.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let announce: () => void = () => {};
    payments.duringCancel = () => {
      announce();
      if (payments.cancels.length >= 3) release();
      return gate;
    };
    const running: Promise<PaymentTimeoutSweep>[] = [];
    for (let index = 0; index < 3; index += 1) {
      const inCall = new Promise<void>((resolve) => {
        announce = resolve;
      });
      running.push(expireUnpaidCheckoutSessions(handle.db, { ...options, payments }));
      await inCall;
    }
    const sweeps = await Promise.all(running);
    expect(sweeps.map((sweep) => sweep.claimed).sort()).toEqual([2, 2, 2]);
    expect(sweeps.reduce((sum, sweep) => sum + sweep.expired, 0)).toBe(6);
    const cancelled = payments.cancels.map((call) => call.intentId);
    expect(cancelled).toHaveLength(6);
    expect(new Set(cancelled).size).toBe(6);
    expect(await s.stock()).toBe(6);
    expect((await reservationsOf(s.organizationId)).map((row) => row.status)).toEqual(
      Array.from({ length: 6 }, () => 'RELEASED'),
    );
  });

  it('gives concurrent payment-session calls for one session one attempt and one idempotency key', async () => {
    const s = await shop();
    const payments = createFakePaymentProvider();
    const created = await open(s);
    await bindCheckoutSession(handle.db, s.bindScope(), { token: created.checkoutToken });
    // Hold the provider calls until all eight are in flight.
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    payments.delay = () => {
      if (payments.calls.length === 8) release();
      return gate;
    };
    const calls = Array.from({ length: 8 }, () =>
      createPaymentSession(
        handle.db,
        payments,
        { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG },
        {
          token: created.checkoutToken,
        },
      ),
    );
    const handoffs = await Promise.all(calls);
    expect(new Set(handoffs.map((handoff) => handoff.clientSecret)).size).toBe(1);
    expect(new Set(payments.calls.map((call) => call.idempotencyKey)).size).toBe(1);
    const attempts = await handle.db
      .selectFrom('payment_attempts')
      .select('intent_id')
      .where('organization_id', '=', s.organizationId)
      .execute();
    expect(attempts).toHaveLength(1);
    const orders = await handle.db
      .selectFrom('orders')
      .select('id')
      .where('organization_id', '=', s.organizationId)
      .execute();
    expect(orders).toHaveLength(1);
  });
});
