import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle, ReturnStatus } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createReturnShop, type ReturnShop } from '../../test/returns.ts';
import { seedDelivery } from '../../test/shipments.ts';
import type { CreatedLegacyOrder } from '../orders/schemas.ts';
import { createReturn, requestReturn } from './create-return.ts';
import { listOrderReturns, listReturns } from './list-returns.ts';
import { approveReturn, cancelReturn, completeReturn, receiveReturn, rejectReturn } from './move-return.ts';
import {
  type CreateReturnInput,
  RETURN_STATUSES,
  type ReturnRead,
  returnListQuerySchema,
} from './schemas.ts';
import { RETURN_TRANSITIONS } from './transitions.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-06-01T09:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;

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

const refOf = (order: CreatedLegacyOrder) => ({ orderReference: order.orderReference! });
const lineIds = (order: CreatedLegacyOrder) => ({ tee: order.items[0]!.id, mug: order.items[1]!.id });
const oneTee = (order: CreatedLegacyOrder, quantity = 1): CreateReturnInput => ({
  lines: [{ lineId: lineIds(order).tee, quantity, reason: 'SIZE_OR_FIT' }],
});

const outboxTypes = async (organizationId: string, returnId: string) =>
  (
    await handle.db
      .selectFrom('outbox')
      .select(['metadata', 'payload'])
      .where('organization_id', '=', organizationId)
      .orderBy('id')
      .execute()
  ).filter((row) => (row.metadata as { returnId?: string }).returnId === returnId);

const auditsOf = (organizationId: string, targetId: string) =>
  handle.db
    .selectFrom('audit_logs')
    .select(['action', 'actor_user_id', 'actor_email', 'metadata'])
    .where('organization_id', '=', organizationId)
    .where('target_id', '=', targetId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

describe('createReturn', () => {
  let s: ReturnShop;
  beforeAll(async () => {
    s = await createReturnShop(handle.db, clock);
  });

  it('creates a REQUESTED return of a completed order, audits it and emails RETURN_REQUESTED', async () => {
    const order = await s.order();
    const { tee, mug } = lineIds(order);
    clock.advance(1000);
    const created = await createReturn(handle.db, s.scope(), refOf(order), {
      lines: [
        { lineId: tee, quantity: 2, reason: 'SIZE_OR_FIT', note: 'too small' },
        { lineId: mug, quantity: 1, reason: 'DAMAGED' },
      ],
    });
    expect(created).toMatchObject({
      orderId: order.id,
      orderReference: order.orderReference,
      orderNumber: order.orderNumber,
      status: 'REQUESTED',
      channel: 'ACCOUNT',
      customerEmail: 'ada@example.com',
      currency: 'USD',
      refundTotalInCents: 2 * 1500 + 900,
      rejectionReason: null,
      createdAt: clock.now().toISOString(),
      approvedAt: null,
      cancelledAt: null,
    });
    expect(created.id).toMatch(/^ret_/);
    expect(created.lines).toEqual([
      {
        lineId: tee,
        itemId: s.shop.itemId,
        variantId: null,
        name: 'Tee',
        quantity: 2,
        unitPriceInCents: 1500,
        totalInCents: 3000,
        reason: 'SIZE_OR_FIT',
        note: 'too small',
      },
      {
        lineId: mug,
        itemId: s.shop.itemId,
        variantId: s.shop.variantId,
        name: 'Mug',
        quantity: 1,
        unitPriceInCents: 900,
        totalInCents: 900,
        reason: 'DAMAGED',
        note: null,
      },
    ]);
    expect(await auditsOf(s.organizationId, created.id)).toEqual([
      {
        action: 'return.requested',
        actor_user_id: null,
        actor_email: 'ADA@example.com',
        metadata: {
          orderId: order.id,
          customerId: 'cus_ada',
          channel: 'ACCOUNT',
          lines: [
            { lineId: tee, quantity: 2, reason: 'SIZE_OR_FIT' },
            { lineId: mug, quantity: 1, reason: 'DAMAGED' },
          ],
        },
      },
    ]);
    const [email, ...more] = await outboxTypes(s.organizationId, created.id);
    expect(more).toEqual([]);
    expect(email!.metadata).toMatchObject({ templateType: 'RETURN_REQUESTED', orderId: order.id });
    const payload = email!.payload as { to: string; text: string };
    expect(payload.to).toBe('ada@example.com');
    expect(payload.text).toContain(created.id);
    expect(payload.text).toContain(`https://shop.example/account/orders/${order.orderReference}#returns`);
  });

  it('finds the order by its display number too (compatibility)', async () => {
    const order = await s.order();
    const created = await createReturn(
      handle.db,
      s.scope(),
      { orderNumber: String(order.orderNumber) },
      oneTee(order),
    );
    expect(created.orderId).toBe(order.id);
  });

  it('answers the same neutral 404 for malformed, unknown, foreign and other customers’ orders', async () => {
    const order = await s.order();
    const other = await createReturnShop(handle.db, clock);
    const keys = [
      { orderReference: 'or1_nothex' },
      { orderReference: `or1_${'0'.repeat(32)}` },
      { orderNumber: '01' },
      { orderNumber: '999999' },
    ];
    for (const key of keys) {
      const error = await failureOf(createReturn(handle.db, s.scope(), key, oneTee(order)));
      expect(error.code).toBe('RESOURCE_NOT_FOUND');
    }
    for (const who of [s.stranger, other.customer]) {
      const error = await failureOf(createReturn(handle.db, s.scope(who), refOf(order), oneTee(order)));
      expect(error.code).toBe('RESOURCE_NOT_FOUND');
      expect(error.message).toBe('Order not found');
    }
  });

  it('refuses orders of which nothing has shipped, whatever their status', async () => {
    for (const status of ['CONFIRMED', 'PROCESSING'] as const) {
      const order = await s.order(status);
      const error = await failureOf(createReturn(handle.db, s.scope(), refOf(order), oneTee(order)));
      expect(error.code, status).toBe('RETURN_NOT_ELIGIBLE');
      expect(error.details).toEqual({ reason: 'NOT_SHIPPED', windowEndsAt: null });
    }
  });

  it('returns only shipped units: a partly shipped order offers what left, never the rest', async () => {
    const order = await s.order('PROCESSING');
    const tees = order.items[0]!;
    await s.ship(order.id, [{ lineId: tees.id, quantity: 1 }]);
    const over = await failureOf(
      createReturn(handle.db, s.scope(), refOf(order), {
        lines: [{ lineId: tees.id, quantity: 2, reason: 'DAMAGED' }],
      }),
    );
    expect(over.code).toBe('OVER_RETURN');
    expect(over.details).toEqual({ lines: [{ lineId: tees.id, requested: 2, returnable: 1 }] });
    const listed = await listOrderReturns(handle.db, s.scope(), refOf(order), { limit: 10 });
    expect(listed.eligibility.lines).toMatchObject([
      { lineId: tees.id, purchasedQuantity: 3, shippedQuantity: 1, returnableQuantity: 1 },
      { purchasedQuantity: 2, shippedQuantity: 0, returnableQuantity: 0 },
    ]);
    await createReturn(handle.db, s.scope(), refOf(order), oneTee(order));
    const counters = await handle.db
      .selectFrom('sales_record_lines')
      .select(['shipped_quantity', 'allocated_quantity'])
      .where('organization_id', '=', s.organizationId)
      .where('id', '=', tees.id)
      .executeTakeFirstOrThrow();
    expect(counters).toEqual({ shipped_quantity: 1, allocated_quantity: 0 });
  });

  it('answers the neutral 404 for a legacy order the account does not show (never confirmed by the merchant)', async () => {
    for (const status of ['PENDING', 'CANCELLED'] as const) {
      const order = await s.order(status);
      const byNumber = { orderNumber: String(order.orderNumber) };
      // Thunks, so each rejection is awaited as soon as it exists (never left unhandled).
      for (const attempt of [
        () => createReturn(handle.db, s.scope(), refOf(order), oneTee(order)),
        () => createReturn(handle.db, s.scope(), byNumber, oneTee(order)),
        () => listOrderReturns(handle.db, s.scope(), refOf(order), { limit: 10 }),
      ]) {
        const error = await failureOf(attempt());
        expect(error.code, status).toBe('RESOURCE_NOT_FOUND');
        expect(error.message).toBe('Order not found');
      }
    }
  });

  it('counts the window from the last delivery, else shipment, not from when the order was placed', async () => {
    const order = await s.order('PROCESSING');
    clock.advance(40 * DAY);
    await s.ship(order.id, [{ lineId: order.items[0]!.id, quantity: 3 }]);
    const shippedAt = clock.now();
    clock.advance(30 * DAY - 1);
    expect(
      (await listOrderReturns(handle.db, s.scope(), refOf(order), { limit: 1 })).eligibility,
    ).toMatchObject({
      eligible: true,
      windowEndsAt: new Date(shippedAt.getTime() + 30 * DAY).toISOString(),
    });
    const [shipment] = await handle.db
      .selectFrom('fulfillments')
      .select(['id', 'sales_record_id'])
      .where('organization_id', '=', s.organizationId)
      .where('order_id', '=', order.id)
      .execute();
    // Delivered now: the window starts again from the delivery.
    await seedDelivery(handle.db, {
      organizationId: s.organizationId,
      fulfillmentId: shipment!.id,
      at: clock.now(),
    });
    const completedAt = clock.now();
    clock.advance(30 * DAY - 1);
    await createReturn(handle.db, s.scope(), refOf(order), oneTee(order));
    clock.advance(1);
    const error = await failureOf(createReturn(handle.db, s.scope(), refOf(order), oneTee(order)));
    expect(error.code).toBe('RETURN_NOT_ELIGIBLE');
    expect(error.details).toEqual({
      reason: 'WINDOW_CLOSED',
      windowEndsAt: new Date(completedAt.getTime() + 30 * DAY).toISOString(),
    });
  });

  it('uses the store’s window: 7 days, or 0 to turn returns off', async () => {
    const order = await s.order();
    clock.advance(8 * DAY);
    expect(
      (await failureOf(createReturn(handle.db, s.scope(s.customer, 7), refOf(order), oneTee(order)))).details,
    ).toMatchObject({ reason: 'WINDOW_CLOSED' });
    await createReturn(handle.db, s.scope(s.customer, 9), refOf(order), oneTee(order));
    const fresh = await s.order();
    expect(
      (await failureOf(createReturn(handle.db, s.scope(s.customer, 0), refOf(fresh), oneTee(fresh)))).details,
    ).toMatchObject({ reason: 'RETURNS_DISABLED' });
  });

  it('refuses lines that are not PRODUCT lines of the order, or repeat one, with 400', async () => {
    const order = await s.order();
    const another = await s.order();
    const { tee } = lineIds(order);
    const error = await failureOf(
      createReturn(handle.db, s.scope(), refOf(order), {
        lines: [
          { lineId: tee, quantity: 1, reason: 'OTHER' },
          { lineId: lineIds(another).tee, quantity: 1, reason: 'OTHER' },
          { lineId: tee, quantity: 1, reason: 'OTHER' },
        ],
      }),
    );
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(error.details).toEqual({
      issues: [
        { path: 'lines.1.lineId', message: 'does not name a PRODUCT line of the order' },
        { path: 'lines.2.lineId', message: 'names a line already in the request' },
      ],
    });
  });

  it('never returns more than was bought: live returns hold their quantity, rejected and cancelled ones release it', async () => {
    const order = await s.order();
    const { tee } = lineIds(order);
    const first = await createReturn(handle.db, s.scope(), refOf(order), oneTee(order, 2));
    const over = await failureOf(createReturn(handle.db, s.scope(), refOf(order), oneTee(order, 2)));
    expect(over.code).toBe('OVER_RETURN');
    expect(over.details).toEqual({ lines: [{ lineId: tee, requested: 2, returnable: 1 }] });
    const second = await createReturn(handle.db, s.scope(), refOf(order), oneTee(order, 1));
    expect((await failureOf(createReturn(handle.db, s.scope(), refOf(order), oneTee(order, 1)))).code).toBe(
      'OVER_RETURN',
    );
    await cancelReturn(handle.db, s.scope(), { orderReference: order.orderReference!, returnId: second.id });
    await rejectReturn(handle.db, s.merchant(), { returnId: first.id, reason: 'Worn' });
    await createReturn(handle.db, s.scope(), refOf(order), oneTee(order, 3));
  });
});

describe('requestReturn with an idempotency key', () => {
  it('replays the recorded return for the same key and request, and refuses the key for another request', async () => {
    const s = await createReturnShop(handle.db, clock);
    const order = await s.order();
    const key = 'return-key-0123456789';
    const first = await requestReturn(handle.db, s.scope(), refOf(order), oneTee(order), key);
    expect(first.replayed).toBe(false);
    clock.advance(1000);
    const again = await requestReturn(handle.db, s.scope(), refOf(order), oneTee(order), key);
    expect(again).toEqual({ created: first.created, replayed: true });
    const other = await failureOf(requestReturn(handle.db, s.scope(), refOf(order), oneTee(order, 2), key));
    expect(other.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const byStranger = await failureOf(
      requestReturn(handle.db, s.scope(s.stranger), refOf(order), oneTee(order), key),
    );
    expect(byStranger.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const stored = await handle.db
      .selectFrom('returns')
      .select('id')
      .where('order_id', '=', order.id)
      .execute();
    expect(stored.map((row) => row.id)).toEqual([first.created.id]);
    // A refused request records nothing: the key stays free for the corrected one.
    const confirmed = await s.order('CONFIRMED');
    const refused = await failureOf(
      requestReturn(handle.db, s.scope(), refOf(confirmed), oneTee(confirmed), 'refused-key-0123456789'),
    );
    expect(refused.code).toBe('RETURN_NOT_ELIGIBLE');
    await requestReturn(handle.db, s.scope(), refOf(order), oneTee(order), 'refused-key-0123456789');
  });
});

describe('merchant transitions', () => {
  let s: ReturnShop;
  beforeAll(async () => {
    s = await createReturnShop(handle.db, clock);
  });

  /** A fresh return brought to `status` along the allowed path. */
  async function returnIn(status: ReturnStatus): Promise<ReturnRead> {
    const order = await s.order();
    const created = await createReturn(handle.db, s.scope(), refOf(order), oneTee(order));
    const ref = { orderReference: order.orderReference!, returnId: created.id };
    const steps: Record<ReturnStatus, (() => Promise<ReturnRead>)[]> = {
      REQUESTED: [],
      APPROVED: [() => approveReturn(handle.db, s.merchant(), ref)],
      RECEIVED: [
        () => approveReturn(handle.db, s.merchant(), ref),
        () => receiveReturn(handle.db, s.merchant(), ref),
      ],
      COMPLETED: [
        () => approveReturn(handle.db, s.merchant(), ref),
        () => receiveReturn(handle.db, s.merchant(), ref),
        () => completeReturn(handle.db, s.merchant(), ref),
      ],
      REJECTED: [() => rejectReturn(handle.db, s.merchant(), { ...ref, reason: 'No' })],
      CANCELLED: [() => cancelReturn(handle.db, s.scope(), ref)],
    };
    let current = created;
    for (const step of steps[status]) current = await step();
    expect(current.status).toBe(status);
    return current;
  }

  const orderRefOf = async (read: ReturnRead) => ({
    orderReference: read.orderReference!,
    returnId: read.id,
  });
  const MOVES: Record<
    'APPROVED' | 'RECEIVED' | 'COMPLETED' | 'REJECTED' | 'CANCELLED',
    (r: ReturnRead) => Promise<ReturnRead>
  > = {
    APPROVED: (r) => approveReturn(handle.db, s.merchant(), { returnId: r.id }),
    RECEIVED: (r) => receiveReturn(handle.db, s.merchant(), { returnId: r.id }),
    COMPLETED: (r) => completeReturn(handle.db, s.merchant(), { returnId: r.id }),
    REJECTED: (r) => rejectReturn(handle.db, s.merchant(), { returnId: r.id, reason: 'Outside our policy' }),
    CANCELLED: async (r) => cancelReturn(handle.db, s.scope(), await orderRefOf(r)),
  };
  const EMAILS = {
    APPROVED: 'RETURN_APPROVED',
    RECEIVED: 'RETURN_RECEIVED',
    COMPLETED: 'RETURN_COMPLETED',
    REJECTED: 'RETURN_REJECTED',
    CANCELLED: null,
  } as const;
  const STAMPS = {
    APPROVED: 'approvedAt',
    RECEIVED: 'receivedAt',
    COMPLETED: 'completedAt',
    REJECTED: 'rejectedAt',
    CANCELLED: 'cancelledAt',
  } as const;

  for (const from of RETURN_STATUSES) {
    for (const to of Object.keys(MOVES) as (keyof typeof MOVES)[]) {
      const allowed = RETURN_TRANSITIONS[from].includes(to);
      it(`${allowed ? 'moves' : 'refuses'} ${from} → ${to}`, async () => {
        const before = await returnIn(from);
        clock.advance(1000);
        const emailsBefore = (await outboxTypes(s.organizationId, before.id)).length;
        if (!allowed) {
          const error = await failureOf(MOVES[to](before));
          expect(error.code).toBe('INVALID_STATE_TRANSITION');
          expect(error.details).toEqual({ from, to });
          expect(
            (
              await listReturns(
                handle.db,
                s.organizationId,
                returnListQuerySchema.parse({ orderId: before.orderId }),
              )
            ).data[0],
          ).toEqual(before);
          expect(await outboxTypes(s.organizationId, before.id)).toHaveLength(emailsBefore);
          return;
        }
        const after = await MOVES[to](before);
        expect(after.status).toBe(to);
        expect(after[STAMPS[to]]).toBe(clock.now().toISOString());
        expect(after.updatedAt).toBe(clock.now().toISOString());
        expect(after.rejectionReason).toBe(to === 'REJECTED' ? 'Outside our policy' : null);
        const audits = await auditsOf(s.organizationId, before.id);
        expect(audits.at(-1)).toMatchObject({
          action: `return.${{ APPROVED: 'approved', RECEIVED: 'received', COMPLETED: 'completed', REJECTED: 'rejected', CANCELLED: 'cancelled' }[to]}`,
          actor_user_id: to === 'CANCELLED' ? null : 'usr_returns_test',
          metadata: {
            orderId: before.orderId,
            from,
            to,
            ...(to === 'REJECTED' ? { reason: 'Outside our policy' } : {}),
          },
        });
        const emails = await outboxTypes(s.organizationId, before.id);
        if (EMAILS[to] === null) {
          expect(emails).toHaveLength(emailsBefore);
        } else {
          expect(emails).toHaveLength(emailsBefore + 1);
          const last = emails.at(-1)!;
          expect(last.metadata).toMatchObject({ templateType: EMAILS[to] });
          const text = (last.payload as { text: string }).text;
          expect(text).toContain(before.id);
          if (to === 'COMPLETED') expect(text).toContain('$15.00');
          if (to === 'REJECTED') expect(text).toContain('Outside our policy');
        }
      });
    }
  }

  it('answers 404 for a return of another organization', async () => {
    const mine = await returnIn('REQUESTED');
    const other = await createReturnShop(handle.db, clock);
    const error = await failureOf(approveReturn(handle.db, other.merchant(), { returnId: mine.id }));
    expect(error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('lets a customer cancel only returns of their own order', async () => {
    const mine = await returnIn('REQUESTED');
    const anotherOrder = await s.order();
    const viaOtherOrder = await failureOf(
      cancelReturn(handle.db, s.scope(), { orderReference: anotherOrder.orderReference!, returnId: mine.id }),
    );
    expect(viaOtherOrder.code).toBe('RESOURCE_NOT_FOUND');
    const byStranger = await failureOf(
      cancelReturn(handle.db, s.scope(s.stranger), {
        orderReference: mine.orderReference!,
        returnId: mine.id,
      }),
    );
    expect(byStranger.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('serialises concurrent moves of one return: one approval wins, the other is judged from APPROVED', async () => {
    const requested = await returnIn('REQUESTED');
    const results = await Promise.allSettled([
      approveReturn(handle.db, s.merchant(), { returnId: requested.id }),
      approveReturn(handle.db, s.merchant(), { returnId: requested.id }),
    ]);
    expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
    const rejected = results.find((result) => result.status === 'rejected') as PromiseRejectedResult;
    expect((rejected.reason as AppError).details).toEqual({ from: 'APPROVED', to: 'APPROVED' });
    const emails = await outboxTypes(s.organizationId, requested.id);
    expect(
      emails.filter(
        (email) => (email.metadata as { templateType: string }).templateType === 'RETURN_APPROVED',
      ),
    ).toHaveLength(1);
  });
});

describe('lists', () => {
  it('shows a customer their order’s returns newest first, page by page, with what is still returnable', async () => {
    const s = await createReturnShop(handle.db, clock);
    const order = await s.order();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(1000);
      ids.push((await createReturn(handle.db, s.scope(), refOf(order), oneTee(order))).id);
    }
    const first = await listOrderReturns(handle.db, s.scope(), refOf(order), { limit: 2 });
    expect(first.data.map((r) => r.id)).toEqual([ids[2], ids[1]]);
    expect(first.nextCursor).toBe(ids[1]);
    const second = await listOrderReturns(
      handle.db,
      s.scope(),
      { orderNumber: String(order.orderNumber) },
      {
        limit: 2,
        cursor: first.nextCursor!,
      },
    );
    expect(second.data.map((r) => r.id)).toEqual([ids[0]]);
    expect(second.nextCursor).toBeNull();
    expect(first.eligibility).toMatchObject({ eligible: true, reason: null });
    expect(
      first.eligibility.lines.map((line) => [line.name, line.purchasedQuantity, line.returnableQuantity]),
    ).toEqual([
      ['Tee', 3, 0],
      ['Mug', 2, 2],
    ]);
    const stranger = await failureOf(
      listOrderReturns(handle.db, s.scope(s.stranger), refOf(order), { limit: 2 }),
    );
    expect(stranger.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('says why an order cannot be returned', async () => {
    const s = await createReturnShop(handle.db, clock);
    const processing = await s.order('PROCESSING');
    const listed = await listOrderReturns(handle.db, s.scope(), refOf(processing), { limit: 10 });
    expect(listed).toMatchObject({ data: [], nextCursor: null });
    expect(listed.eligibility).toMatchObject({
      eligible: false,
      reason: 'NOT_SHIPPED',
      windowEndsAt: null,
    });
  });

  it('filters the merchant list by status, order and email, newest first, keyset-paginated', async () => {
    const s = await createReturnShop(handle.db, clock);
    const a = await s.order();
    const b = await s.order();
    clock.advance(1000);
    const r1 = await createReturn(handle.db, s.scope(), refOf(a), oneTee(a));
    clock.advance(1000);
    const r2 = await createReturn(handle.db, s.scope(), refOf(b), oneTee(b));
    clock.advance(1000);
    const r3 = await createReturn(handle.db, s.scope(), refOf(b), oneTee(b));
    await approveReturn(handle.db, s.merchant(), { returnId: r2.id });
    const list = (query: Record<string, unknown>) =>
      listReturns(handle.db, s.organizationId, returnListQuerySchema.parse(query));
    expect((await list({})).data.map((r) => r.id)).toEqual([r3.id, r2.id, r1.id]);
    expect((await list({ status: 'APPROVED' })).data.map((r) => r.id)).toEqual([r2.id]);
    expect((await list({ orderId: b.id })).data.map((r) => r.id)).toEqual([r3.id, r2.id]);
    expect((await list({ email: 'ADA@EXAMPLE.COM' })).data).toHaveLength(3);
    expect((await list({ email: 'eve@example.com' })).data).toHaveLength(0);
    const page = await list({ limit: 1, cursor: r3.id });
    expect(page).toMatchObject({ nextCursor: r2.id });
    expect(page.data.map((r) => r.id)).toEqual([r2.id]);
    expect((await failureOf(list({ cursor: 'ret_unknown' }))).code).toBe('VALIDATION_FAILED');
    const other = await createReturnShop(handle.db, clock);
    expect(
      (await listReturns(handle.db, other.organizationId, returnListQuerySchema.parse({}))).data,
    ).toEqual([]);
  });
});

describe('concurrency', () => {
  it.skipIf(testDatabaseKind !== 'postgres')(
    'never lets concurrent returns of one line exceed the purchased quantity',
    async () => {
      const s = await createReturnShop(handle.db, clock);
      const order = await s.order();
      const results = await Promise.allSettled(
        Array.from({ length: 12 }, () => createReturn(handle.db, s.scope(), refOf(order), oneTee(order))),
      );
      const created = results.filter((result) => result.status === 'fulfilled');
      expect(created).toHaveLength(3);
      for (const result of results) {
        if (result.status === 'rejected') expect((result.reason as AppError).code).toBe('OVER_RETURN');
      }
      const claimed = await handle.db
        .selectFrom('return_lines')
        .select((eb) => eb.fn.sum<string>('quantity').as('total'))
        .where('organization_id', '=', s.organizationId)
        .where('sales_record_line_id', '=', lineIds(order).tee)
        .executeTakeFirstOrThrow();
      expect(Number(claimed.total)).toBe(3);
    },
  );
});
