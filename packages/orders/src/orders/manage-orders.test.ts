import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle, OrderStatus } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrderTenant, ORDER_STATUS_EFFECTS, type OrderTenant } from '../../test/orders.ts';
import { updateOrderStatus } from '../order-status/update-order-status.ts';
import { createLegacyOrder } from './create-legacy-order.ts';
import { rejectFulfillmentStatusWrite } from './fulfillment-status.ts';
import { getOrder, getOrderByNumber, getPublicOrder, getPublicOrderByNumber } from './get-order.ts';
import { listOrders, listPublicOrders } from './list-orders.ts';
import { ORDER_STATUSES, orderListQuerySchema, publicOrderListQuerySchema } from './schemas.ts';
import { updateOrderNotes } from './update-order-notes.ts';

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

const auditsOf = (organizationId: string, targetId: string) =>
  handle.db
    .selectFrom('audit_logs')
    .select(['action', 'actor_user_id', 'metadata'])
    .where('organization_id', '=', organizationId)
    .where('target_id', '=', targetId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/** A fresh order brought to `status` along the allowed path. */
async function orderIn(shop: OrderTenant, status: OrderStatus, notes?: string) {
  const order = await createLegacyOrder(handle.db, shop.scope(), shop.body(notes ? { notes } : {}));
  const path: Record<OrderStatus, OrderStatus[]> = {
    PENDING: [],
    CONFIRMED: ['CONFIRMED'],
    PROCESSING: ['CONFIRMED', 'PROCESSING'],
    COMPLETED: ['CONFIRMED', 'PROCESSING', 'COMPLETED'],
    CANCELLED: ['CANCELLED'],
  };
  for (const next of path[status])
    await updateOrderStatus(handle.db, shop.ctx(), { id: order.id, status: next }, ORDER_STATUS_EFFECTS);
  return order;
}

const ALLOWED: [OrderStatus, OrderStatus][] = [
  ['PENDING', 'CONFIRMED'],
  ['CONFIRMED', 'PROCESSING'],
  ['PROCESSING', 'COMPLETED'],
  ['PENDING', 'CANCELLED'],
  ['CONFIRMED', 'CANCELLED'],
  ['PROCESSING', 'CANCELLED'],
];
const isAllowed = (from: OrderStatus, to: OrderStatus) =>
  ALLOWED.some(([allowedFrom, allowedTo]) => allowedFrom === from && allowedTo === to);

describe('updateOrderStatus', () => {
  let shop: OrderTenant;
  beforeAll(async () => {
    shop = await tenant();
  });

  for (const [from, to] of ALLOWED) {
    it(`moves ${from} to ${to} and audits order.status_changed`, async () => {
      const order = await orderIn(shop, from);
      clock.advance(1000);
      const updated = await updateOrderStatus(
        handle.db,
        shop.ctx(),
        { id: order.id, status: to },
        ORDER_STATUS_EFFECTS,
      );
      expect(updated).toMatchObject({
        id: order.id,
        status: to,
        fulfillmentStatus: 'UNFULFILLED',
        updatedAt: clock.now().toISOString(),
      });
      expect(await getOrder(handle.db, shop.organizationId, order.id)).toEqual(updated);
      const audits = await auditsOf(shop.organizationId, order.id);
      expect(audits.at(-1)).toEqual({
        action: 'order.status_changed',
        actor_user_id: 'usr_orders_test',
        metadata: { from, to },
      });
    });
  }

  for (const from of ORDER_STATUSES) {
    for (const to of ORDER_STATUSES.filter((target) => !isAllowed(from, target))) {
      it(`refuses ${from} to ${to} with 409 INVALID_STATE_TRANSITION and changes nothing`, async () => {
        const order = await orderIn(shop, from);
        const before = await getOrder(handle.db, shop.organizationId, order.id);
        const auditsBefore = await auditsOf(shop.organizationId, order.id);
        clock.advance(1000);
        const error = await failureOf(
          updateOrderStatus(handle.db, shop.ctx(), { id: order.id, status: to }, ORDER_STATUS_EFFECTS),
        );
        expect(error.code).toBe('INVALID_STATE_TRANSITION');
        expect(error.status).toBe(409);
        expect(await getOrder(handle.db, shop.organizationId, order.id)).toEqual(before);
        expect(await auditsOf(shop.organizationId, order.id)).toEqual(auditsBefore);
      });
    }
  }

  it('answers 404 for an unknown order or one of another organization', async () => {
    const other = await tenant();
    const foreign = await orderIn(other, 'PENDING');
    for (const id of ['ord_unknown', foreign.id]) {
      const error = await failureOf(
        updateOrderStatus(handle.db, shop.ctx(), { id, status: 'CONFIRMED' }, ORDER_STATUS_EFFECTS),
      );
      expect(error.code).toBe('RESOURCE_NOT_FOUND');
    }
    expect((await getOrder(handle.db, other.organizationId, foreign.id)).status).toBe('PENDING');
  });

  it.skipIf(testDatabaseKind !== 'postgres')(
    'lets exactly one of ten concurrent identical transitions pass',
    async () => {
      const order = await orderIn(shop, 'PENDING');
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, () =>
          updateOrderStatus(
            handle.db,
            shop.ctx(),
            { id: order.id, status: 'CONFIRMED' },
            ORDER_STATUS_EFFECTS,
          ),
        ),
      );
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      for (const result of results) {
        if (result.status === 'rejected')
          expect((result.reason as AppError).code).toBe('INVALID_STATE_TRANSITION');
      }
      const audits = await auditsOf(shop.organizationId, order.id);
      expect(audits.filter((audit) => audit.action === 'order.status_changed')).toHaveLength(1);
    },
  );

  it.skipIf(testDatabaseKind !== 'postgres')(
    'judges a transition that waited on the lock from the state the winner left',
    async () => {
      const order = await orderIn(shop, 'PROCESSING');
      const results = await Promise.allSettled([
        updateOrderStatus(handle.db, shop.ctx(), { id: order.id, status: 'COMPLETED' }, ORDER_STATUS_EFFECTS),
        updateOrderStatus(handle.db, shop.ctx(), { id: order.id, status: 'CANCELLED' }, ORDER_STATUS_EFFECTS),
      ]);
      // Both are allowed from PROCESSING, but each closes the order: the second finds it terminal.
      expect(results.filter((result) => result.status === 'fulfilled')).toHaveLength(1);
      const final = await getOrder(handle.db, shop.organizationId, order.id);
      const winner = results.find((result) => result.status === 'fulfilled') as PromiseFulfilledResult<{
        status: string;
      }>;
      expect(final.status).toBe(winner.value.status);
    },
  );
});

describe('updateOrderNotes', () => {
  it('sets, replaces and clears notes (null or empty), auditing without the text', async () => {
    const shop = await tenant();
    const order = await orderIn(shop, 'PENDING');
    clock.advance(1000);
    const set = await updateOrderNotes(handle.db, shop.ctx(), { id: order.id, notes: 'Gift wrap' });
    expect(set.notes).toBe('Gift wrap');
    expect(set.updatedAt).toBe(clock.now().toISOString());
    const replaced = await updateOrderNotes(handle.db, shop.ctx(), { id: order.id, notes: 'Call first' });
    expect(replaced.notes).toBe('Call first');
    const cleared = await updateOrderNotes(handle.db, shop.ctx(), { id: order.id, notes: null });
    expect(cleared.notes).toBeNull();
    await updateOrderNotes(handle.db, shop.ctx(), { id: order.id, notes: 'again' });
    expect((await updateOrderNotes(handle.db, shop.ctx(), { id: order.id, notes: '' })).notes).toBeNull();

    const audits = await auditsOf(shop.organizationId, order.id);
    expect(audits.map((audit) => [audit.action, audit.metadata])).toEqual([
      ['order.notes_updated', { cleared: false }],
      ['order.notes_updated', { cleared: false }],
      ['order.notes_updated', { cleared: true }],
      ['order.notes_updated', { cleared: false }],
      ['order.notes_updated', { cleared: true }],
    ]);
    expect(JSON.stringify(audits)).not.toMatch(/Gift wrap|Call first/);
  });

  it('writes nothing when the notes do not change, and edits notes of a terminal order', async () => {
    const shop = await tenant();
    const order = await orderIn(shop, 'CANCELLED', 'kept');
    const before = await getOrder(handle.db, shop.organizationId, order.id);
    clock.advance(1000);
    expect(await updateOrderNotes(handle.db, shop.ctx(), { id: order.id, notes: 'kept' })).toEqual(before);
    expect((await auditsOf(shop.organizationId, order.id)).map((audit) => audit.action)).toEqual([
      'order.status_changed',
    ]);
    const updated = await updateOrderNotes(handle.db, shop.ctx(), {
      id: order.id,
      notes: 'refunded by phone',
    });
    expect(updated).toMatchObject({ status: 'CANCELLED', notes: 'refunded by phone' });
  });

  it('answers 404 for an order of another organization', async () => {
    const shop = await tenant();
    const other = await tenant();
    const foreign = await orderIn(other, 'PENDING', 'theirs');
    const error = await failureOf(updateOrderNotes(handle.db, shop.ctx(), { id: foreign.id, notes: null }));
    expect(error.code).toBe('RESOURCE_NOT_FOUND');
    expect((await getOrder(handle.db, other.organizationId, foreign.id)).notes).toBe('theirs');
  });
});

describe('rejectFulfillmentStatusWrite', () => {
  it('always refuses with 409 LINE_FULFILLMENT_REQUIRED', () => {
    let caught: unknown;
    try {
      rejectFulfillmentStatusWrite();
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(AppError);
    expect((caught as AppError).code).toBe('LINE_FULFILLMENT_REQUIRED');
    expect((caught as AppError).status).toBe(409);
  });
});

describe('order reads', () => {
  it('reads by id and by number; public reads strip notes; foreign and unknown are 404', async () => {
    const shop = await tenant();
    const other = await tenant();
    const order = await orderIn(shop, 'PENDING', 'secret note');
    const foreign = await orderIn(other, 'PENDING');

    const byId = await getOrder(handle.db, shop.organizationId, order.id);
    expect(byId.notes).toBe('secret note');
    expect(byId.salesRecordId).toMatch(/^sal_/);
    expect(await getOrderByNumber(handle.db, shop.organizationId, order.orderNumber)).toEqual(byId);

    const publicRead = await getPublicOrder(handle.db, shop.organizationId, order.id);
    expect(publicRead).not.toHaveProperty('notes');
    expect(publicRead).not.toHaveProperty('salesRecordId');
    expect(JSON.stringify(publicRead)).not.toContain('secret note');
    expect(await getPublicOrderByNumber(handle.db, shop.organizationId, order.orderNumber)).toEqual(
      publicRead,
    );

    for (const read of [
      () => getOrder(handle.db, shop.organizationId, foreign.id),
      () => getOrder(handle.db, shop.organizationId, 'ord_unknown'),
      () => getOrderByNumber(handle.db, shop.organizationId, 999),
      () => getPublicOrder(handle.db, shop.organizationId, foreign.id),
      () => getPublicOrderByNumber(handle.db, shop.organizationId, 999),
    ]) {
      expect((await failureOf(read())).code).toBe('RESOURCE_NOT_FOUND');
    }
  });
});

describe('listOrders', () => {
  let shop: OrderTenant;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    shop = await tenant();
    const other = await tenant();
    await createLegacyOrder(handle.db, other.scope(), other.body({ customerEmail: 'grace@example.com' }));
    const place = async (key: string, email: string, status: OrderStatus) => {
      clock.advance(60_000);
      const order = await createLegacyOrder(
        handle.db,
        shop.scope(),
        shop.body({ customerEmail: email, notes: 'n' }),
      );
      ids[key] = order.id;
      ids[`at:${key}`] = order.createdAt;
      if (status !== 'PENDING') {
        for (const next of status === 'CANCELLED' ? ['CANCELLED'] : ['CONFIRMED']) {
          await updateOrderStatus(
            handle.db,
            shop.ctx(),
            { id: order.id, status: next as OrderStatus },
            ORDER_STATUS_EFFECTS,
          );
        }
      }
    };
    await place('a', 'ada@example.com', 'PENDING');
    await place('b', 'Grace@Example.com', 'CONFIRMED');
    await place('c', 'ada@example.com', 'CANCELLED');
    await place('d', 'linus@kernel.test', 'PENDING');
    await place('e', 'grace@example.com', 'PENDING');
  });

  const list = (query: Record<string, unknown> = {}) =>
    listOrders(handle.db, shop.organizationId, orderListQuerySchema.parse(query));
  const idsOf = async (query: Record<string, unknown> = {}) =>
    (await list(query)).data.map((order) => Object.entries(ids).find(([, id]) => id === order.id)![0]);

  it('lists the organization’s orders newest first with their lines and notes', async () => {
    const page = await list();
    expect(page.data.map((order) => order.id)).toEqual(['e', 'd', 'c', 'b', 'a'].map((key) => ids[key]));
    expect(page.nextCursor).toBeNull();
    expect(page.data[0]!.items).toHaveLength(1);
    expect(page.data[0]!.notes).toBe('n');
  });

  it('pages with a keyset cursor and refuses a cursor that names no order', async () => {
    const first = await list({ limit: 2 });
    expect(first.data.map((order) => order.id)).toEqual([ids.e, ids.d]);
    expect(first.nextCursor).toBe(ids.d);
    const second = await list({ limit: 2, cursor: first.nextCursor });
    expect(second.data.map((order) => order.id)).toEqual([ids.c, ids.b]);
    const third = await list({ limit: 2, cursor: second.nextCursor });
    expect(third).toEqual({ data: [expect.objectContaining({ id: ids.a })], nextCursor: null });
    const error = await failureOf(list({ cursor: 'ord_unknown' }));
    expect(error.code).toBe('VALIDATION_FAILED');
  });

  it('filters by status, fulfillment status, payment status and email', async () => {
    expect(await idsOf({ status: 'PENDING' })).toEqual(['e', 'd', 'a']);
    expect(await idsOf({ status: 'CANCELLED' })).toEqual(['c']);
    expect(await idsOf({ fulfillmentStatus: 'UNFULFILLED' })).toEqual(['e', 'd', 'c', 'b', 'a']);
    expect(await idsOf({ fulfillmentStatus: 'FULFILLED' })).toEqual([]);
    expect(await idsOf({ paymentStatus: 'PAID' })).toEqual([]);
    expect(await idsOf({ email: 'GRACE@example.com' })).toEqual(['e', 'b']);
    expect(await idsOf({ email: 'ada@example.com', status: 'PENDING' })).toEqual(['a']);
  });

  it('searches by order number or by a substring of the email', async () => {
    const numberOf = (await getOrder(handle.db, shop.organizationId, ids.c!)).orderNumber;
    expect(await idsOf({ search: String(numberOf) })).toEqual(['c']);
    expect(await idsOf({ search: `#${numberOf}` })).toEqual(['c']);
    expect(await idsOf({ search: '99999' })).toEqual([]);
    expect(await idsOf({ search: 'KERNEL' })).toEqual(['d']);
    expect(await idsOf({ search: 'example.com' })).toEqual(['e', 'c', 'b', 'a']);
    expect(await idsOf({ search: '%' })).toEqual([]);
  });

  it('filters by a creation date range, from inclusive, to exclusive', async () => {
    expect(await idsOf({ createdFrom: ids['at:b'], createdTo: ids['at:d'] })).toEqual(['c', 'b']);
    expect(await idsOf({ createdFrom: ids['at:e'] })).toEqual(['e']);
    expect(await idsOf({ createdTo: ids['at:a'] })).toEqual([]);
  });

  it('lists publicly without notes or the sales record', async () => {
    const page = await listPublicOrders(
      handle.db,
      shop.organizationId,
      publicOrderListQuerySchema.parse({ limit: 2 }),
    );
    expect(page.data.map((order) => order.id)).toEqual([ids.e, ids.d]);
    for (const order of page.data) {
      expect(order).not.toHaveProperty('notes');
      expect(order).not.toHaveProperty('salesRecordId');
    }
  });
});
