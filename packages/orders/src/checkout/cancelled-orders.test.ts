import { AppError, ManualClock } from '@commerce/core';
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
import { updateOrderStatus } from '../order-status/update-order-status.ts';
import { bindCheckoutSession } from './bind-checkout-session.ts';
import { createCheckoutSession } from './create-checkout-session.ts';
import { createPaymentSession } from './create-payment-session.ts';
import { queueAbandonedCartEmails, startCheckoutMaintenance } from './maintenance.ts';
import { paymentActionBackoffMs, runPaymentActions } from './payment-actions.ts';
import { settlePaymentEvent } from './settle-payment-event.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-11-26T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 20 });
});
afterAll(async () => {
  await handle.close();
});

const merchant = (s: CheckoutShop) => ({
  organizationId: s.organizationId,
  actor: { userId: 'usr_cancel_test', email: 'merchant@cancel.test' },
  at: clock.now(),
});

async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

/** A session bound on the limited variant (one unit) and handed off to `payments`: its order awaits payment. */
async function awaitingPayment(s: CheckoutShop, payments: FakePaymentProvider, idempotencyKey?: string) {
  const created = await createCheckoutSession(handle.db, s.createScope(), {
    lines: [{ itemId: s.limited.itemId, variantId: s.limited.variantId, quantity: 1 }],
    email: 'ada@example.com',
    customerName: 'Ada Lovelace',
    shippingCountry: 'US',
  });
  await bindCheckoutSession(handle.db, s.bindScope(), { token: created.checkoutToken });
  const handoff = await createPaymentSession(
    handle.db,
    payments,
    { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG },
    { token: created.checkoutToken, idempotencyKey },
  );
  return {
    token: created.checkoutToken,
    sessionId: created.id,
    orderId: handoff.orderId!,
    intentId: handoff.clientSecret.split('_secret_')[0]!,
    attemptId: payments.calls.at(-1)!.idempotencyKey,
  };
}

const cancel = (s: CheckoutShop, orderId: string, payments: FakePaymentProvider) =>
  updateOrderStatus(
    handle.db,
    merchant(s),
    { id: orderId, status: 'CANCELLED' },
    { payments, email: CHECKOUT_EMAIL_CONFIG },
  );

/** A verified processor event for the intent, settled in its own transaction as the webhook does. */
function settle(intentId: string, type: 'payment_intent.succeeded' | 'payment_intent.payment_failed') {
  return inTransaction(handle.db, async (trx) => {
    const attempt = await trx
      .selectFrom('payment_attempts')
      .select(['amount_in_cents', 'currency'])
      .where('intent_id', '=', intentId)
      .executeTakeFirstOrThrow();
    return settlePaymentEvent(
      trx,
      {
        id: `evt_${Math.random()}`,
        type,
        intentId,
        amountInCents: attempt.amount_in_cents,
        currency: attempt.currency,
        metadata: {},
        createdAt: clock.now(),
      },
      { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG },
    );
  });
}

const stateOf = async (organizationId: string, orderId: string) => {
  const order = await handle.db
    .selectFrom('orders')
    .innerJoin('sales_records', (join) =>
      join
        .onRef('sales_records.organization_id', '=', 'orders.organization_id')
        .onRef('sales_records.id', '=', 'orders.sales_record_id'),
    )
    .select(['orders.status', 'orders.payment_status', 'sales_records.payment_status as salePaymentStatus'])
    .where('orders.organization_id', '=', organizationId)
    .where('orders.id', '=', orderId)
    .executeTakeFirstOrThrow();
  const session = await handle.db
    .selectFrom('checkout_sessions')
    .select('status')
    .where('organization_id', '=', organizationId)
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow();
  const attempt = await handle.db
    .selectFrom('payment_attempts')
    .select([
      'status',
      'intent_id',
      'provider_action',
      'provider_action_due_at',
      'provider_action_tries',
      'refund_id',
    ])
    .where('organization_id', '=', organizationId)
    .where('order_id', '=', orderId)
    .executeTakeFirstOrThrow();
  const reservations = await handle.db
    .selectFrom('inventory_reservations as r')
    .innerJoin('checkout_sessions as s', (join) =>
      join.onRef('s.organization_id', '=', 'r.organization_id').onRef('s.id', '=', 'r.checkout_session_id'),
    )
    .select('r.status')
    .where('r.organization_id', '=', organizationId)
    .where('s.order_id', '=', orderId)
    .execute();
  return { order, session: session.status, attempt, reservations: reservations.map((row) => row.status) };
};

const emailTypesOf = async (organizationId: string) =>
  (
    await handle.db
      .selectFrom('outbox')
      .select('metadata')
      .where('organization_id', '=', organizationId)
      .orderBy('id')
      .execute()
  ).map((row) => (row.metadata as { templateType?: string }).templateType);

const auditsOf = (organizationId: string, orderId: string) =>
  handle.db
    .selectFrom('audit_logs')
    .select(['action', 'metadata', 'actor_user_id'])
    .where('organization_id', '=', organizationId)
    .where('target_id', '=', orderId)
    .orderBy('id')
    .execute();

describe('cancelling an order awaiting payment', () => {
  it('releases its stock, cancels the session and the attempt, and cancels the intent after the commit', async () => {
    const s = await createCheckoutShop(handle.db, clock, { stock: 1 });
    const payments = createFakePaymentProvider();
    const paid = await awaitingPayment(s, payments);
    expect(await s.stock()).toBe(0);

    const order = await cancel(s, paid.orderId, payments);

    expect(order).toMatchObject({ status: 'CANCELLED', paymentStatus: 'FAILED' });
    expect(await s.stock()).toBe(1);
    expect(await stateOf(s.organizationId, paid.orderId)).toEqual({
      order: { status: 'CANCELLED', payment_status: 'FAILED', salePaymentStatus: 'FAILED' },
      session: 'CANCELLED',
      attempt: {
        status: 'CANCELLED',
        intent_id: paid.intentId,
        provider_action: null,
        provider_action_due_at: null,
        provider_action_tries: 1,
        refund_id: null,
      },
      reservations: ['RELEASED'],
    });
    expect(payments.cancels).toEqual([
      { intentId: paid.intentId, idempotencyKey: `${paid.attemptId}:cancel-order:0` },
    ]);
    expect((await auditsOf(s.organizationId, paid.orderId)).map((row) => row.action)).toEqual([
      'order.status_changed',
    ]);
  });

  it('refuses a later payment-session with 409 INVALID_STATE_TRANSITION, a replayed key included', async () => {
    const s = await createCheckoutShop(handle.db, clock);
    const payments = createFakePaymentProvider();
    const key = 'cancel-replay-0123456789';
    const paid = await awaitingPayment(s, payments, key);
    await cancel(s, paid.orderId, payments);
    const scope = { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG };

    const again = await failureOf(createPaymentSession(handle.db, payments, scope, { token: paid.token }));
    expect(again.code).toBe('INVALID_STATE_TRANSITION');
    const replay = await failureOf(
      createPaymentSession(handle.db, payments, scope, { token: paid.token, idempotencyKey: key }),
    );
    expect(replay.code).toBe('INVALID_STATE_TRANSITION');
    expect(payments.calls).toHaveLength(1);
  });

  it('cancels a session whose payment failed too, so the shopper cannot retry on its intent', async () => {
    const s = await createCheckoutShop(handle.db, clock, { stock: 1 });
    const payments = createFakePaymentProvider();
    const paid = await awaitingPayment(s, payments);
    expect(await settle(paid.intentId, 'payment_intent.payment_failed')).toMatchObject({ outcome: 'failed' });
    expect(await s.stock()).toBe(1);

    await cancel(s, paid.orderId, payments);

    expect(await s.stock()).toBe(1);
    expect((await stateOf(s.organizationId, paid.orderId)).session).toBe('CANCELLED');
    expect(payments.cancels.map((call) => call.intentId)).toEqual([paid.intentId]);
    const retry = await failureOf(
      createPaymentSession(
        handle.db,
        payments,
        { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG },
        { token: paid.token },
      ),
    );
    expect(retry.code).toBe('INVALID_STATE_TRANSITION');
    expect(await s.stock()).toBe(1);
  });

  it('changes only the status of a paid order: no refund, no stock back, no processor call', async () => {
    const s = await createCheckoutShop(handle.db, clock, { stock: 1 });
    const payments = createFakePaymentProvider();
    const paid = await awaitingPayment(s, payments);
    await settle(paid.intentId, 'payment_intent.succeeded');

    await cancel(s, paid.orderId, payments);

    const state = await stateOf(s.organizationId, paid.orderId);
    expect(state.order).toEqual({ status: 'CANCELLED', payment_status: 'PAID', salePaymentStatus: 'PAID' });
    expect(state.attempt).toMatchObject({ status: 'SUCCEEDED', provider_action: null });
    expect(await s.stock()).toBe(0);
    expect(payments.cancels).toEqual([]);
    expect(payments.refunds).toEqual([]);
  });

  it('keeps the cancellation owed when the processor is down, and the worker sweep makes it after the backoff', async () => {
    const s = await createCheckoutShop(handle.db, clock);
    const payments = createFakePaymentProvider();
    const paid = await awaitingPayment(s, payments);
    payments.cancelFailWith = new AppError('PROVIDER_UNAVAILABLE');

    const order = await cancel(s, paid.orderId, payments);

    expect(order.status).toBe('CANCELLED');
    const owed = (await stateOf(s.organizationId, paid.orderId)).attempt;
    expect(owed).toMatchObject({ provider_action: 'CANCEL', provider_action_tries: 1 });
    expect(owed.provider_action_due_at).toEqual(new Date(clock.now().getTime() + paymentActionBackoffMs(0)));
    // Not due yet: a run now takes nothing.
    expect(await runPaymentActions(handle.db, { payments, at: clock.now() })).toMatchObject({ done: 0 });

    payments.cancelFailWith = undefined;
    clock.advance(paymentActionBackoffMs(0));
    const logged: Record<string, unknown>[] = [];
    const logger = { info: (fields: Record<string, unknown>) => logged.push(fields), error: () => {} };
    const sweeps = startCheckoutMaintenance({
      db: handle.db,
      clock,
      email: CHECKOUT_EMAIL_CONFIG,
      abandonedCartDelayMinutes: 60 * 24 * 365,
      paymentTimeout: { payments, minutes: 60 * 24 * 365 },
      intervalMs: 3_600_000,
      logger,
    });
    const swept = await sweeps.runOnce();
    await sweeps.stop();

    expect(swept.paymentActionsDone).toBeGreaterThanOrEqual(1);
    expect(payments.cancels.map((call) => call.idempotencyKey)).toEqual([
      `${paid.attemptId}:cancel-order:0`,
      `${paid.attemptId}:cancel-order:1`,
    ]);
    expect((await stateOf(s.organizationId, paid.orderId)).attempt).toMatchObject({
      provider_action: null,
      provider_action_tries: 2,
    });
  });

  it('finds the intent by the attempt key when the payment-session call never stored it, and records it', async () => {
    const s = await createCheckoutShop(handle.db, clock);
    const payments = createFakePaymentProvider();
    const created = await createCheckoutSession(handle.db, s.createScope(), {
      lines: [{ itemId: s.plainItemId, quantity: 1 }],
      email: 'ada@example.com',
      customerName: 'Ada Lovelace',
      shippingCountry: 'US',
    });
    await bindCheckoutSession(handle.db, s.bindScope(), { token: created.checkoutToken });
    payments.failWith = new AppError('PROVIDER_UNAVAILABLE');
    await failureOf(
      createPaymentSession(
        handle.db,
        payments,
        { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG },
        { token: created.checkoutToken },
      ),
    );
    payments.failWith = undefined;
    const attempt = await handle.db
      .selectFrom('payment_attempts')
      .select(['id', 'order_id', 'intent_id'])
      .where('organization_id', '=', s.organizationId)
      .executeTakeFirstOrThrow();
    expect(attempt.intent_id).toBeNull();

    await cancel(s, attempt.order_id!, payments);

    const intent = payments.intents.get(attempt.id)!;
    expect(payments.calls.map((call) => call.idempotencyKey)).toEqual([attempt.id, attempt.id]);
    expect(payments.cancels.map((call) => call.intentId)).toEqual([intent.intentId]);
    expect((await stateOf(s.organizationId, attempt.order_id!)).attempt).toMatchObject({
      intent_id: intent.intentId,
      provider_action: null,
    });
  });

  it('answers 409 to a payment-session call whose provider call outlived the cancellation', async () => {
    const s = await createCheckoutShop(handle.db, clock);
    const payments = createFakePaymentProvider();
    const created = await createCheckoutSession(handle.db, s.createScope(), {
      lines: [{ itemId: s.plainItemId, quantity: 1 }],
      email: 'ada@example.com',
      customerName: 'Ada Lovelace',
      shippingCountry: 'US',
    });
    await bindCheckoutSession(handle.db, s.bindScope(), { token: created.checkoutToken });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let announce!: () => void;
    const inCall = new Promise<void>((resolve) => {
      announce = resolve;
    });
    // Only the shopper's call is held; the cancellation's look-up of the intent goes through.
    payments.delay = () => {
      if (payments.calls.length > 1) return Promise.resolve();
      announce();
      return gate;
    };
    const handoff = createPaymentSession(
      handle.db,
      payments,
      { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG },
      { token: created.checkoutToken },
    );
    await inCall;
    const { order_id: orderId } = await handle.db
      .selectFrom('payment_attempts')
      .select('order_id')
      .where('organization_id', '=', s.organizationId)
      .executeTakeFirstOrThrow();
    await cancel(s, orderId!, payments);
    release();

    expect((await failureOf(handoff)).code).toBe('INVALID_STATE_TRANSITION');
    expect(payments.cancels).toHaveLength(1);
    expect((await stateOf(s.organizationId, orderId!)).attempt).toMatchObject({
      status: 'CANCELLED',
      intent_id: payments.cancels[0]!.intentId,
      provider_action: null,
    });
  });

  it('sends no abandoned-cart reminder for a cancelled order', async () => {
    const s = await createCheckoutShop(handle.db, clock);
    const payments = createFakePaymentProvider();
    const paid = await awaitingPayment(s, payments);
    await cancel(s, paid.orderId, payments);
    clock.advance(2 * 60 * 60_000);
    await queueAbandonedCartEmails(handle.db, {
      at: clock.now(),
      email: CHECKOUT_EMAIL_CONFIG,
      delayMinutes: 60,
      batchSize: 1000,
    });
    expect(await emailTypesOf(s.organizationId)).not.toContain('ABANDONED_CART_RECOVERY');
  });
});

describe('a payment that arrives for a cancelled order', () => {
  it('is recorded REFUNDED and audited, takes no stock, sends no confirmation, and is refunded in full', async () => {
    const s = await createCheckoutShop(handle.db, clock, { stock: 1 });
    const payments = createFakePaymentProvider();
    const paid = await awaitingPayment(s, payments);
    await cancel(s, paid.orderId, payments);

    const settled = await settle(paid.intentId, 'payment_intent.succeeded');

    expect(settled).toEqual({
      outcome: 'refunded',
      organizationId: s.organizationId,
      orderId: paid.orderId,
      paymentAttemptId: paid.attemptId,
    });
    expect(await s.stock()).toBe(1);
    const owed = await stateOf(s.organizationId, paid.orderId);
    expect(owed).toMatchObject({
      order: { status: 'CANCELLED', payment_status: 'REFUNDED', salePaymentStatus: 'REFUNDED' },
      session: 'CANCELLED',
      attempt: { status: 'REFUNDED', provider_action: 'REFUND', refund_id: null },
      reservations: ['RELEASED'],
    });
    expect(await emailTypesOf(s.organizationId)).not.toContain('ORDER_CONFIRMATION');

    // The gateway makes the refund once the webhook's transaction commits.
    expect(await runPaymentActions(handle.db, { payments, at: clock.now() })).toMatchObject({ done: 1 });
    expect(payments.refunds).toEqual([
      {
        intentId: paid.intentId,
        idempotencyKey: `${paid.attemptId}:refund`,
        metadata: {
          organizationId: s.organizationId,
          orderId: paid.orderId,
          paymentAttemptId: paid.attemptId,
        },
      },
    ]);
    expect((await stateOf(s.organizationId, paid.orderId)).attempt).toMatchObject({
      provider_action: null,
      refund_id: `re_${paid.attemptId}:refund`,
    });
    const audits = await auditsOf(s.organizationId, paid.orderId);
    expect(audits.map((row) => row.action)).toEqual([
      'order.status_changed',
      'order.payment_refunded',
      'order.payment_refund_issued',
    ]);
    expect(audits[1]).toMatchObject({
      actor_user_id: null,
      metadata: expect.objectContaining({ reason: 'ORDER_CANCELLED', paymentAttemptId: paid.attemptId }),
    });

    // A replay, or a failure after it, changes nothing and refunds nothing more.
    expect(await settle(paid.intentId, 'payment_intent.succeeded')).toMatchObject({ outcome: 'unchanged' });
    expect(await settle(paid.intentId, 'payment_intent.payment_failed')).toMatchObject({
      outcome: 'unchanged',
    });
    expect(await runPaymentActions(handle.db, { payments, at: clock.now() })).toMatchObject({ claimed: 0 });
    expect(payments.refunds).toHaveLength(1);
  });

  it('keeps the refund owed while the processor refuses, with the same key on every try', async () => {
    const s = await createCheckoutShop(handle.db, clock);
    const payments = createFakePaymentProvider();
    const paid = await awaitingPayment(s, payments);
    await cancel(s, paid.orderId, payments);
    await settle(paid.intentId, 'payment_intent.succeeded');
    payments.refundFailWith = new AppError('PROVIDER_ERROR');
    expect(await runPaymentActions(handle.db, { payments, at: clock.now() })).toMatchObject({ failed: 1 });
    expect((await stateOf(s.organizationId, paid.orderId)).attempt).toMatchObject({
      provider_action: 'REFUND',
    });

    payments.refundFailWith = undefined;
    clock.advance(paymentActionBackoffMs(0));
    expect(await runPaymentActions(handle.db, { payments, at: clock.now() })).toMatchObject({ done: 1 });
    expect(payments.refunds.map((call) => call.idempotencyKey)).toEqual([
      `${paid.attemptId}:refund`,
      `${paid.attemptId}:refund`,
    ]);
  });

  it('replaces a cancellation still owed: the refund is made, the cancellation is not', async () => {
    const s = await createCheckoutShop(handle.db, clock);
    const payments = createFakePaymentProvider();
    const paid = await awaitingPayment(s, payments);
    payments.cancelFailWith = new AppError('PROVIDER_UNAVAILABLE');
    await cancel(s, paid.orderId, payments);
    payments.cancelFailWith = undefined;

    await settle(paid.intentId, 'payment_intent.succeeded');
    expect(await runPaymentActions(handle.db, { payments, at: clock.now() })).toMatchObject({ done: 1 });

    expect(payments.cancels).toHaveLength(1);
    expect(payments.refunds).toHaveLength(1);
    expect((await stateOf(s.organizationId, paid.orderId)).attempt).toMatchObject({
      status: 'REFUNDED',
      provider_action: null,
    });
  });
});

describe.skipIf(testDatabaseKind !== 'postgres')('cancel against webhook (PostgreSQL)', () => {
  it('settles each race one way: paid then cancelled, or cancelled then refunded; never both, never stuck', async () => {
    const races = 8;
    const s = await createCheckoutShop(handle.db, clock, { stock: races });
    const payments = createFakePaymentProvider();
    const orders = [];
    for (let index = 0; index < races; index += 1) orders.push(await awaitingPayment(s, payments));
    expect(await s.stock()).toBe(0);

    await Promise.all(
      orders.flatMap((paid) => [
        cancel(s, paid.orderId, payments),
        settle(paid.intentId, 'payment_intent.succeeded'),
      ]),
    );
    await runPaymentActions(handle.db, { payments, at: clock.now() });

    let paidFirst = 0;
    let refunded = 0;
    for (const paid of orders) {
      const state = await stateOf(s.organizationId, paid.orderId);
      expect(state.order.status).toBe('CANCELLED');
      expect(state.attempt.provider_action).toBeNull();
      if (state.order.payment_status === 'PAID') {
        paidFirst += 1;
        expect(state).toMatchObject({ session: 'COMPLETED', reservations: ['CONSUMED'] });
        expect(state.attempt.status).toBe('SUCCEEDED');
      } else {
        refunded += 1;
        expect(state).toMatchObject({
          order: { payment_status: 'REFUNDED', salePaymentStatus: 'REFUNDED' },
          session: 'CANCELLED',
          reservations: ['RELEASED'],
        });
        expect(state.attempt).toMatchObject({ status: 'REFUNDED', refund_id: `re_${paid.attemptId}:refund` });
      }
    }
    expect(paidFirst + refunded).toBe(races);
    // Stock: a unit back per refunded order; confirmations and refunds one per paid and refunded order.
    expect(await s.stock()).toBe(refunded);
    expect(
      (await emailTypesOf(s.organizationId)).filter((type) => type === 'ORDER_CONFIRMATION'),
    ).toHaveLength(paidFirst);
    expect(payments.refunds).toHaveLength(refunded);
  });
});

/** What an earlier release left when it cancelled an order awaiting payment: only the order's status changed. */
async function cancelledByAnEarlierRelease(organizationId: string, orderId: string) {
  await handle.db
    .updateTable('orders')
    .set({ status: 'CANCELLED' })
    .where('organization_id', '=', organizationId)
    .where('id', '=', orderId)
    .execute();
}

describe('an order cancelled by an earlier release, its payment still awaited', () => {
  it('refunds a success exactly as for a new cancellation: no PAID, no confirmation, stock back', async () => {
    const s = await createCheckoutShop(handle.db, clock, { stock: 1 });
    const payments = createFakePaymentProvider();
    const paid = await awaitingPayment(s, payments);
    await cancelledByAnEarlierRelease(s.organizationId, paid.orderId);
    expect((await stateOf(s.organizationId, paid.orderId)).attempt.status).toBe('PENDING');

    expect(await settle(paid.intentId, 'payment_intent.succeeded')).toEqual({
      outcome: 'refunded',
      organizationId: s.organizationId,
      orderId: paid.orderId,
      paymentAttemptId: paid.attemptId,
    });

    expect(await stateOf(s.organizationId, paid.orderId)).toMatchObject({
      order: { status: 'CANCELLED', payment_status: 'REFUNDED', salePaymentStatus: 'REFUNDED' },
      session: 'CANCELLED',
      attempt: { status: 'REFUNDED', provider_action: 'REFUND' },
      reservations: ['RELEASED'],
    });
    expect(await s.stock()).toBe(1);
    expect(await emailTypesOf(s.organizationId)).not.toContain('ORDER_CONFIRMATION');
    expect(await runPaymentActions(handle.db, { payments, at: clock.now() })).toMatchObject({ done: 1 });
    expect(payments.refunds.map((call) => call.idempotencyKey)).toEqual([`${paid.attemptId}:refund`]);
    expect(payments.cancels).toEqual([]);
    expect((await auditsOf(s.organizationId, paid.orderId)).map((row) => row.action)).toEqual([
      'order.payment_refunded',
      'order.payment_refund_issued',
    ]);
  });

  it('takes a failure as the cancellation: stock back, session cancelled, intent cancel owed; a later success is refunded', async () => {
    const s = await createCheckoutShop(handle.db, clock, { stock: 1 });
    const payments = createFakePaymentProvider();
    const paid = await awaitingPayment(s, payments);
    await cancelledByAnEarlierRelease(s.organizationId, paid.orderId);

    expect(await settle(paid.intentId, 'payment_intent.payment_failed')).toMatchObject({ outcome: 'failed' });
    expect(await stateOf(s.organizationId, paid.orderId)).toMatchObject({
      order: { status: 'CANCELLED', payment_status: 'FAILED' },
      session: 'CANCELLED',
      attempt: { status: 'CANCELLED', provider_action: 'CANCEL' },
      reservations: ['RELEASED'],
    });
    expect(await s.stock()).toBe(1);

    expect(await settle(paid.intentId, 'payment_intent.succeeded')).toMatchObject({ outcome: 'refunded' });
    expect(await runPaymentActions(handle.db, { payments, at: clock.now() })).toMatchObject({ done: 1 });
    expect(payments.refunds).toHaveLength(1);
    expect(await s.stock()).toBe(1);
    expect((await stateOf(s.organizationId, paid.orderId)).order.payment_status).toBe('REFUNDED');
  });

  it('refuses payment-session with 409 INVALID_STATE_TRANSITION, awaiting payment or after a failure, a replayed key included', async () => {
    const s = await createCheckoutShop(handle.db, clock, { stock: 2 });
    const payments = createFakePaymentProvider();
    const scope = { at: clock.now(), email: CHECKOUT_EMAIL_CONFIG };
    const key = 'old-cancel-replay-0123456789';
    const awaiting = await awaitingPayment(s, payments, key);
    await cancelledByAnEarlierRelease(s.organizationId, awaiting.orderId);
    // The old shape after a failed payment: the session free to retry, the order cancelled.
    const failed = await awaitingPayment(s, payments);
    await settle(failed.intentId, 'payment_intent.payment_failed');
    await cancelledByAnEarlierRelease(s.organizationId, failed.orderId);
    const callsBefore = payments.calls.length;

    for (const input of [
      { token: awaiting.token },
      { token: awaiting.token, idempotencyKey: key },
      { token: failed.token },
    ]) {
      const refused = await failureOf(createPaymentSession(handle.db, payments, scope, input));
      expect(refused.code).toBe('INVALID_STATE_TRANSITION');
    }
    expect(payments.calls).toHaveLength(callsBefore);
    // The failed one's stock was released by its failure and is not taken again.
    expect((await stateOf(s.organizationId, failed.orderId)).reservations).toEqual(['RELEASED']);
    expect((await stateOf(s.organizationId, failed.orderId)).session).toBe('PAYMENT_FAILED');
  });
});

describe('the processor call owed after a cancellation', () => {
  it('refunds at once when the processor refuses to cancel because the payment succeeded, webhook or not', async () => {
    const s = await createCheckoutShop(handle.db, clock, { stock: 1 });
    const payments = createFakePaymentProvider();
    const paid = await awaitingPayment(s, payments);
    payments.cancelResult = { outcome: 'not_cancelable', intentStatus: 'succeeded' };

    const order = await cancel(s, paid.orderId, payments);

    expect(order.status).toBe('CANCELLED');
    expect(payments.refunds.map((call) => [call.intentId, call.idempotencyKey])).toEqual([
      [paid.intentId, `${paid.attemptId}:refund`],
    ]);
    expect(await stateOf(s.organizationId, paid.orderId)).toMatchObject({
      order: { status: 'CANCELLED', payment_status: 'REFUNDED', salePaymentStatus: 'REFUNDED' },
      attempt: { status: 'REFUNDED', provider_action: null, refund_id: `re_${paid.attemptId}:refund` },
      reservations: ['RELEASED'],
    });
    const audits = await auditsOf(s.organizationId, paid.orderId);
    expect(audits.map((row) => row.action)).toEqual([
      'order.status_changed',
      'order.payment_refunded',
      'order.payment_refund_issued',
    ]);
    expect(audits[1]!.metadata).toMatchObject({ reason: 'ORDER_CANCELLED', intentStatus: 'succeeded' });

    // The success webhook, when it comes after all, changes nothing and refunds nothing more.
    expect(await settle(paid.intentId, 'payment_intent.succeeded')).toMatchObject({ outcome: 'unchanged' });
    expect(await runPaymentActions(handle.db, { payments, at: clock.now() })).toMatchObject({ claimed: 0 });
    expect(payments.refunds).toHaveLength(1);
    expect(await emailTypesOf(s.organizationId)).not.toContain('ORDER_CONFIRMATION');
  });

  it('keeps the cancellation owed while the intent is processing', async () => {
    const s = await createCheckoutShop(handle.db, clock);
    const payments = createFakePaymentProvider();
    const paid = await awaitingPayment(s, payments);
    payments.cancelResult = { outcome: 'not_cancelable', intentStatus: 'processing' };

    await cancel(s, paid.orderId, payments);

    expect((await stateOf(s.organizationId, paid.orderId)).attempt).toMatchObject({
      status: 'CANCELLED',
      provider_action: 'CANCEL',
      provider_action_tries: 1,
    });
    payments.cancelResult = { outcome: 'canceled' };
    clock.advance(paymentActionBackoffMs(0));
    expect(await runPaymentActions(handle.db, { payments, at: clock.now() })).toMatchObject({ done: 1 });
    expect((await stateOf(s.organizationId, paid.orderId)).attempt.provider_action).toBeNull();
  });

  it('never fails a committed cancellation on an unexpected error: logged with ids, left owed', async () => {
    const s = await createCheckoutShop(handle.db, clock, { stock: 1 });
    const payments = createFakePaymentProvider();
    const paid = await awaitingPayment(s, payments);
    payments.cancelFailWith = new TypeError('customer ada@example.com broke it');
    const logged: Record<string, unknown>[] = [];
    const logger = { info: () => {}, error: (fields: Record<string, unknown>) => logged.push(fields) };

    const order = await updateOrderStatus(
      handle.db,
      merchant(s),
      { id: paid.orderId, status: 'CANCELLED' },
      { payments, email: CHECKOUT_EMAIL_CONFIG, logger },
    );

    expect(order.status).toBe('CANCELLED');
    expect(await s.stock()).toBe(1);
    expect((await stateOf(s.organizationId, paid.orderId)).attempt).toMatchObject({
      status: 'CANCELLED',
      provider_action: 'CANCEL',
    });
    expect(logged).toEqual([
      {
        organizationId: s.organizationId,
        paymentAttemptId: paid.attemptId,
        action: 'CANCEL',
        tries: 1,
        errorName: 'TypeError',
      },
    ]);
  });

  it('lets a worker run go on with the next row after an unexpected error', async () => {
    const s = await createCheckoutShop(handle.db, clock);
    const payments = createFakePaymentProvider();
    const first = await awaitingPayment(s, payments);
    const second = await awaitingPayment(s, payments);
    payments.cancelFailWith = new AppError('PROVIDER_UNAVAILABLE');
    await cancel(s, first.orderId, payments);
    await cancel(s, second.orderId, payments);
    payments.cancelFailWith = undefined;
    payments.duringCancel = async (intentId) => {
      if (intentId === first.intentId) throw new RangeError('a bug');
    };
    clock.advance(paymentActionBackoffMs(0));

    const run = await runPaymentActions(handle.db, {
      payments,
      at: clock.now(),
      logger: { info() {}, error() {} },
    });

    // Other tests' rows may be due too (the database is shared): these two are judged by their state.
    expect(run.failed).toBeGreaterThanOrEqual(1);
    expect(run.done).toBeGreaterThanOrEqual(1);
    expect(payments.cancels.map((call) => call.intentId)).toEqual(
      expect.arrayContaining([first.intentId, second.intentId]),
    );
    expect((await stateOf(s.organizationId, first.orderId)).attempt.provider_action).toBe('CANCEL');
    expect((await stateOf(s.organizationId, second.orderId)).attempt.provider_action).toBeNull();
  });
});
