import { addMembership } from '@commerce/auth';
import { signInForTest } from '@commerce/customers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createItem } from '../support/catalog-fixture.ts';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { createGuestOrder } from '../support/orders.ts';
import { ACTORS, type Actor, createRoleFixture, expectedStatus, type RoleFixture } from '../support/roles.ts';

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;
let itemId: string;
let otherItemId: string;
/** A Staff member of `shop` holding only `customers:read`. */
let readerToken: string;
/** Session tokens: Ada (who places the orders), Eve (same shop, no orders), Ada at the other shop. */
let ada: string;
let eve: string;
let adaElsewhere: string;

const DAY = 24 * 60 * 60 * 1000;

interface Order {
  id: string;
  orderReference: string;
  orderNumber: number;
  items: { id: string; name: string; quantity: number }[];
}
interface Return {
  id: string;
  orderId: string;
  status: string;
  channel: string;
  refundTotalInCents: number;
  rejectionReason: string | null;
  lines: { lineId: string; quantity: number; reason: string }[];
}

async function ok<T>(response: Response, status: number): Promise<T> {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

/** A request as a customer (`session`: an `s1_` bearer, or none) to `slug`. */
const customerCall = (
  session: string | undefined,
  method: string,
  path: string,
  body?: unknown,
  slug = shop.slug,
) =>
  h.app.request(`/api/v1${path}`, {
    method,
    headers: {
      'x-organization-slug': slug,
      ...(session ? { authorization: `Bearer ${session}` } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });

/** A request with only a tenant header (or none): the action-token routes. */
const tokenCall = (slug: string | undefined, method: string, path: string, body?: unknown) =>
  h.app.request(`/api/v1${path}`, {
    method,
    headers: {
      ...(slug ? { 'x-organization-slug': slug } : {}),
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });

/** An ACTIVE sale item named by its slug; its id. */
const newItem = (fixture: RoleFixture, slug: string): Promise<string> =>
  createItem(fixture, { slug, name: slug, type: 'SALE', status: 'ACTIVE' });

/** A request as the fixture's Owner with a token minted now (tests below move the clock past older ones). */
async function ownerCall(
  fixture: RoleFixture,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<Response> {
  const token = await h.token({ email: `owner@${fixture.slug}.test` });
  return h.app.request(`/api/v1${path}`, {
    method,
    headers: {
      'x-organization-slug': fixture.slug,
      authorization: `Bearer ${token}`,
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      ...headers,
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

let shipments = 0;

/**
 * An order of Ada's (3 tees), placed publicly and moved by the Owner to COMPLETED unless told
 * otherwise; a COMPLETED one has its 3 tees shipped now (a direct fulfillment), so it is returnable.
 */
async function completedOrder(fixture: RoleFixture = shop, status = 'COMPLETED'): Promise<Order> {
  const order = await createGuestOrder<Order>(h, fixture.slug, [
    { itemId: fixture === shop ? itemId : otherItemId, name: 'Tee', quantity: 3, unitPriceInCents: 1500 },
  ]);
  const path = { PENDING: [], CONFIRMED: ['CONFIRMED'], COMPLETED: ['CONFIRMED', 'PROCESSING', 'COMPLETED'] }[
    status as 'PENDING'
  ];
  for (const next of path)
    await ok(await ownerCall(fixture, 'PATCH', `/merchant/orders/${order.id}/status`, { status: next }), 200);
  if (status === 'COMPLETED')
    await ok(
      await ownerCall(
        fixture,
        'POST',
        `/merchant/commerce/orders/${order.id}/fulfillments`,
        { lines: [{ lineId: order.items[0]!.id, quantity: 3 }], notifyCustomer: false },
        { 'x-idempotency-key': `returns-http-ship-${process.pid}-${++shipments}` },
      ),
      201,
    );
  return order;
}

const returnsPath = (order: Order) => `/customer/account/orders/by-reference/${order.orderReference}/returns`;
const actionsPath = (order: Order) =>
  `/customer/account/orders/by-reference/${order.orderReference}/return-actions`;
const teeLine = (order: Order, quantity = 1) => ({
  lines: [{ lineId: order.items[0]!.id, quantity, reason: 'SIZE_OR_FIT' }],
});

const emailTypes = async (organizationId: string, returnId: string) =>
  (
    await h.database.db
      .selectFrom('outbox')
      .select('metadata')
      .where('organization_id', '=', organizationId)
      .orderBy('id')
      .execute()
  )
    .map((row) => row.metadata as { templateType: string; returnId?: string })
    .filter((metadata) => metadata.returnId === returnId)
    .map((metadata) => metadata.templateType);

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'returns-shop', ['orders:operate']);
  other = await createRoleFixture(h, 'returns-other', ['orders:operate']);
  itemId = await newItem(shop, 'tee');
  otherItemId = await newItem(other, 'tee');
  await addMembership(h.database.db, {
    organizationId: shop.organizationId,
    email: 'reader@returns-shop.test',
    role: 'Staff',
    permissions: ['customers:read'],
    at: h.clock.now(),
  });
  readerToken = await h.token({ email: 'reader@returns-shop.test' });
  await ok(
    await h.app.request('/api/v1/merchant/auth/session', {
      headers: { authorization: `Bearer ${readerToken}` },
    }),
    200,
  );
  ada = (await signInForTest(h.database.db, shop.organizationId, 'ADA@example.com', h.clock.now())).token;
  eve = (await signInForTest(h.database.db, shop.organizationId, 'eve@example.com', h.clock.now())).token;
  adaElsewhere = (await signInForTest(h.database.db, other.organizationId, 'ada@example.com', h.clock.now()))
    .token;
});
afterAll(async () => {
  await h.close();
});

describe('customer returns', () => {
  it('lists activity, creates a return (201), lists it, and cancels it while pending', async () => {
    const order = await completedOrder();
    const empty = await ok<{
      data: Return[];
      nextCursor: string | null;
      eligibility: Record<string, unknown>;
    }>(await customerCall(ada, 'GET', returnsPath(order)), 200);
    expect(empty).toMatchObject({
      data: [],
      nextCursor: null,
      eligibility: {
        eligible: true,
        reason: null,
        lines: [{ lineId: order.items[0]!.id, purchasedQuantity: 3, returnableQuantity: 3 }],
      },
    });

    const created = await ok<Return>(
      await customerCall(ada, 'POST', returnsPath(order), teeLine(order, 2)),
      201,
    );
    expect(created).toMatchObject({
      orderId: order.id,
      status: 'REQUESTED',
      channel: 'ACCOUNT',
      refundTotalInCents: 3000,
    });
    expect(await emailTypes(shop.organizationId, created.id)).toEqual(['RETURN_REQUESTED']);

    const byNumber = await ok<{ data: Return[]; eligibility: { lines: { returnableQuantity: number }[] } }>(
      await customerCall(ada, 'GET', `/customer/account/orders/${order.orderNumber}/returns`),
      200,
    );
    expect(byNumber.data.map((r) => r.id)).toEqual([created.id]);
    expect(byNumber.eligibility.lines[0]!.returnableQuantity).toBe(1);

    await expectError(
      await customerCall(ada, 'POST', returnsPath(order), teeLine(order, 2)),
      409,
      'OVER_RETURN',
    );

    const cancelled = await ok<Return>(
      await customerCall(ada, 'POST', `${returnsPath(order)}/${created.id}/cancel`),
      200,
    );
    expect(cancelled.status).toBe('CANCELLED');
    const again = await expectError(
      await customerCall(ada, 'POST', `${returnsPath(order)}/${created.id}/cancel`),
      409,
      'INVALID_STATE_TRANSITION',
    );
    expect(again.details).toEqual({ from: 'CANCELLED', to: 'CANCELLED' });
  });

  it('replays a return request sent again with the same x-idempotency-key', async () => {
    const order = await completedOrder();
    const send = (body: unknown, key: string) =>
      h.app.request(`/api/v1${returnsPath(order)}`, {
        method: 'POST',
        headers: {
          'x-organization-slug': shop.slug,
          authorization: `Bearer ${ada}`,
          'content-type': 'application/json',
          'x-idempotency-key': key,
        },
        body: JSON.stringify(body),
      });
    const first = await send(teeLine(order), 'double-click-0123456789');
    const created = await ok<Return>(first, 201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const second = await send(teeLine(order), 'double-click-0123456789');
    expect(await ok<Return>(second, 201)).toEqual(created);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    await expectError(
      await send(teeLine(order, 2), 'double-click-0123456789'),
      409,
      'IDEMPOTENCY_KEY_REUSED',
    );
    await expectError(await send(teeLine(order), 'short'), 400, 'VALIDATION_FAILED');
    const stored = await h.database.db
      .selectFrom('returns')
      .select('id')
      .where('order_id', '=', order.id)
      .execute();
    expect(stored.map((row) => row.id)).toEqual([created.id]);
  });

  it('refuses an order of which nothing has shipped', async () => {
    const confirmed = await completedOrder(shop, 'CONFIRMED');
    const notYet = await expectError(
      await customerCall(ada, 'POST', returnsPath(confirmed), teeLine(confirmed)),
      409,
      'RETURN_NOT_ELIGIBLE',
    );
    expect(notYet.details).toEqual({ reason: 'NOT_SHIPPED', windowEndsAt: null });
  });

  it('answers 404 on every returns route for a legacy order the merchant has not confirmed, as the account does', async () => {
    const pending = await completedOrder(shop, 'PENDING');
    await expectError(
      await customerCall(ada, 'GET', `/customer/account/orders/by-reference/${pending.orderReference}`),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await customerCall(ada, 'POST', returnsPath(pending), teeLine(pending)),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(await customerCall(ada, 'GET', returnsPath(pending)), 404, 'RESOURCE_NOT_FOUND');
    await expectError(
      await customerCall(ada, 'POST', actionsPath(pending), { purpose: 'RETURN_REQUEST' }),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });

  it('validates the body: no customer email, known reasons, positive quantities', async () => {
    const order = await completedOrder();
    const cases: [unknown, string][] = [
      [{ ...teeLine(order), customerEmail: 'ada@example.com' }, ''],
      [{ lines: [{ lineId: order.items[0]!.id, quantity: 0, reason: 'OTHER' }] }, 'lines.0.quantity'],
      [{ lines: [{ lineId: order.items[0]!.id, quantity: 1, reason: 'BORED' }] }, 'lines.0.reason'],
      [{ lines: [] }, 'lines'],
      [{ lines: [{ lineId: 'sli_nope', quantity: 1, reason: 'OTHER' }] }, 'lines.0.lineId'],
    ];
    for (const [body, path] of cases) {
      const error = await expectError(
        await customerCall(ada, 'POST', returnsPath(order), body),
        400,
        'VALIDATION_FAILED',
      );
      expect(
        error.details?.issues?.map((issue) => issue.path),
        JSON.stringify(body),
      ).toContain(path);
    }
  });

  it('answers 401 without a session or with another store’s, and the neutral 404 for orders that are not yours', async () => {
    const order = await completedOrder();
    const created = await ok<Return>(
      await customerCall(ada, 'POST', returnsPath(order), teeLine(order)),
      201,
    );
    const routes: [string, string, unknown?][] = [
      ['GET', returnsPath(order)],
      ['POST', returnsPath(order), teeLine(order)],
      ['POST', `${returnsPath(order)}/${created.id}/cancel`],
      ['POST', actionsPath(order), { purpose: 'RETURN_REQUEST' }],
      ['GET', `/customer/account/orders/${order.orderNumber}/returns`],
      ['POST', `/customer/account/orders/${order.orderNumber}/return-actions`, { purpose: 'RETURN_REQUEST' }],
    ];
    for (const [method, path, body] of routes) {
      await expectError(await customerCall(undefined, method, path, body), 401, 'UNAUTHENTICATED');
      await expectError(await customerCall(adaElsewhere, method, path, body), 401, 'UNAUTHENTICATED');
      const notYours = await expectError(
        await customerCall(eve, method, path, body),
        404,
        'RESOURCE_NOT_FOUND',
      );
      const malformed = await expectError(
        await customerCall(
          ada,
          method,
          path.replace(order.orderReference, 'or1_zz').replace(`/${order.orderNumber}/`, '/0042/'),
          body,
        ),
        404,
        'RESOURCE_NOT_FOUND',
      );
      expect(malformed.message).toBe(notYours.message);
    }
    // The other store's order of the same email is not reachable through this store.
    const elsewhere = await completedOrder(other);
    await expectError(await customerCall(ada, 'GET', returnsPath(elsewhere)), 404, 'RESOURCE_NOT_FOUND');
    await ok(await customerCall(adaElsewhere, 'GET', returnsPath(elsewhere), undefined, other.slug), 200);
  });
});

describe('merchant returns', () => {
  const READERS: readonly Actor[] = ['owner', 'admin', 'staffWith'];
  const call = (actor: Actor | 'reader', method: string, path: string, body?: unknown) =>
    actor === 'reader'
      ? h.app.request(`/api/v1${path}`, {
          method,
          headers: {
            'x-organization-slug': shop.slug,
            authorization: `Bearer ${readerToken}`,
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        })
      : shop.call(actor, method, path, body);

  it('lets customers:read and orders:operate members read returns, and no one else', async () => {
    const order = await completedOrder();
    const created = await ok<Return>(
      await customerCall(ada, 'POST', returnsPath(order), teeLine(order)),
      201,
    );
    for (const actor of [...ACTORS, 'reader'] as const) {
      const allowed = actor === 'reader' || READERS.includes(actor);
      const list = await call(actor, 'GET', `/merchant/returns?orderId=${order.id}`);
      const one = await call(actor, 'GET', `/merchant/returns/${created.id}`);
      const status = allowed ? 200 : expectedStatus(actor as Actor, READERS, 200);
      expect([list.status, one.status], actor).toEqual([status, status]);
      if (allowed) {
        expect(((await list.json()) as { data: Return[] }).data.map((r) => r.id)).toEqual([created.id]);
        expect(((await one.json()) as Return).id).toBe(created.id);
      }
    }
    await expectError(
      await other.call('owner', 'GET', `/merchant/returns/${created.id}`),
      404,
      'RESOURCE_NOT_FOUND',
    );
    expect(
      ((await (await other.call('owner', 'GET', '/merchant/returns')).json()) as { data: unknown[] }).data,
    ).toEqual([]);
  });

  it('moves a return only for orders:operate members: approve, receive, complete, each emailing the customer', async () => {
    const order = await completedOrder();
    const created = await ok<Return>(
      await customerCall(ada, 'POST', returnsPath(order), teeLine(order, 2)),
      201,
    );
    for (const actor of ['reader', 'staffWithout', 'outsider', 'anonymous'] as const) {
      const response = await call(actor, 'POST', `/merchant/returns/${created.id}/approve`);
      expect(response.status, actor).toBe(actor === 'anonymous' ? 401 : 403);
    }
    const approved = await ok<Return>(
      await call('staffWith', 'POST', `/merchant/returns/${created.id}/approve`),
      200,
    );
    expect(approved.status).toBe('APPROVED');
    const wrong = await expectError(
      await call('owner', 'POST', `/merchant/returns/${created.id}/complete`),
      409,
      'INVALID_STATE_TRANSITION',
    );
    expect(wrong.details).toEqual({ from: 'APPROVED', to: 'COMPLETED' });
    expect(
      (await ok<Return>(await call('admin', 'POST', `/merchant/returns/${created.id}/receive`), 200)).status,
    ).toBe('RECEIVED');
    expect(
      (await ok<Return>(await call('owner', 'POST', `/merchant/returns/${created.id}/complete`), 200)).status,
    ).toBe('COMPLETED');
    expect(await emailTypes(shop.organizationId, created.id)).toEqual([
      'RETURN_REQUESTED',
      'RETURN_APPROVED',
      'RETURN_RECEIVED',
      'RETURN_COMPLETED',
    ]);
    const audits = await h.database.db
      .selectFrom('audit_logs')
      .select('action')
      .where('organization_id', '=', shop.organizationId)
      .where('target_id', '=', created.id)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    expect(audits.map((row) => row.action)).toEqual([
      'return.requested',
      'return.approved',
      'return.received',
      'return.completed',
    ]);
  });

  it('rejects with a reason the customer is told, which gives the quantity back', async () => {
    const order = await completedOrder();
    const created = await ok<Return>(
      await customerCall(ada, 'POST', returnsPath(order), teeLine(order, 3)),
      201,
    );
    await expectError(
      await call('owner', 'POST', `/merchant/returns/${created.id}/reject`, {}),
      400,
      'VALIDATION_FAILED',
    );
    const rejected = await ok<Return>(
      await call('staffWith', 'POST', `/merchant/returns/${created.id}/reject`, {
        reason: 'Worn and washed',
      }),
      200,
    );
    expect(rejected).toMatchObject({ status: 'REJECTED', rejectionReason: 'Worn and washed' });
    expect(await emailTypes(shop.organizationId, created.id)).toEqual([
      'RETURN_REQUESTED',
      'RETURN_REJECTED',
    ]);
    await expectError(
      await customerCall(ada, 'POST', `${returnsPath(order)}/${created.id}/cancel`),
      409,
      'INVALID_STATE_TRANSITION',
    );
    await ok(await customerCall(ada, 'POST', returnsPath(order), teeLine(order, 3)), 201);
  });
});

describe('return action tokens', () => {
  const performBody = (order: Order, quantity = 2) => ({
    action: 'REQUEST_RETURN',
    ...teeLine(order, quantity),
  });

  it('issues a token once (201, never emailed), previews it without mutation, performs once and replays', async () => {
    const order = await completedOrder();
    const emailsBefore = await h.database.db.selectFrom('outbox').select('id').execute();
    const issued = await ok<{
      token: string;
      purpose: string;
      expiresAt: string;
      lines: { quantity: number }[];
    }>(await customerCall(ada, 'POST', actionsPath(order), { purpose: 'RETURN_REQUEST' }), 201);
    expect(issued.token).toMatch(/^a1_[A-Za-z0-9_-]{43}$/);
    expect(issued).toMatchObject({ purpose: 'RETURN_REQUEST', lines: [{ quantity: 3 }] });
    expect(await h.database.db.selectFrom('outbox').select('id').execute()).toHaveLength(emailsBefore.length);

    const preview = await ok<{ consumedAt: string | null; actions: { enabled: boolean }[] }>(
      await tokenCall(shop.slug, 'GET', `/customer/actions/${issued.token}`),
      200,
    );
    expect(preview).toMatchObject({
      consumedAt: null,
      actions: [{ action: 'REQUEST_RETURN', enabled: true }],
    });
    await ok(await tokenCall(shop.slug, 'GET', `/customer/actions/${issued.token}`), 200);

    const first = await tokenCall(shop.slug, 'POST', `/customer/actions/${issued.token}`, performBody(order));
    const result = await ok<{ action: string; return: Return }>(first, 200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    expect(result.return).toMatchObject({ status: 'REQUESTED', channel: 'ACTION_TOKEN', orderId: order.id });

    const replay = await tokenCall(
      shop.slug,
      'POST',
      `/customer/actions/${issued.token}`,
      performBody(order),
    );
    expect(await ok(replay, 200)).toEqual(result);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');

    const different = await tokenCall(
      shop.slug,
      'POST',
      `/customer/actions/${issued.token}`,
      performBody(order, 1),
    );
    await expectError(different, 409, 'ACTION_TOKEN_CONSUMED');

    const stored = await h.database.db
      .selectFrom('returns')
      .select('id')
      .where('order_id', '=', order.id)
      .execute();
    expect(stored.map((row) => row.id)).toEqual([result.return.id]);
    const used = await ok<{ consumedAt: string | null; actions: { enabled: boolean }[]; result: unknown }>(
      await tokenCall(shop.slug, 'GET', `/customer/actions/${issued.token}`),
      200,
    );
    expect(used).toMatchObject({ actions: [{ action: 'REQUEST_RETURN', enabled: false }], result });
    expect(used.consumedAt).not.toBeNull();
    // Request logs carry the route template, never the token in the path.
    expect(JSON.stringify(h.logs)).not.toContain(issued.token);
    expect(JSON.stringify(h.logs)).toContain('/customer/actions/{token}');
  });

  it('issues by order number too (compatibility)', async () => {
    const order = await completedOrder();
    const issued = await ok<{ orderReference: string }>(
      await customerCall(ada, 'POST', `/customer/account/orders/${order.orderNumber}/return-actions`, {
        purpose: 'RETURN_REQUEST',
      }),
      201,
    );
    expect(issued.orderReference).toBe(order.orderReference);
    await expectError(
      await customerCall(ada, 'POST', actionsPath(order), { purpose: 'RETURN_CANCEL' }),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('gives unknown, malformed, expired, revoked and cross-tenant tokens one neutral 404, and needs the tenant header', async () => {
    const order = await completedOrder();
    const revoked = await ok<{ token: string }>(
      await customerCall(ada, 'POST', actionsPath(order), { purpose: 'RETURN_REQUEST' }),
      201,
    );
    const live = await ok<{ token: string }>(
      await customerCall(ada, 'POST', actionsPath(order), { purpose: 'RETURN_REQUEST' }),
      201,
    );
    const elsewhere = await completedOrder(other);
    const foreign = await ok<{ token: string }>(
      await customerCall(
        adaElsewhere,
        'POST',
        actionsPath(elsewhere),
        { purpose: 'RETURN_REQUEST' },
        other.slug,
      ),
      201,
    );
    const unknown = `a1_${'A'.repeat(43)}`;
    const expectNeutral = async (slug: string, token: string) => {
      const messages = [];
      for (const [method, body] of [
        ['GET', undefined],
        ['POST', performBody(order)],
      ] as const) {
        messages.push(
          (
            await expectError(
              await tokenCall(slug, method, `/customer/actions/${token}`, body),
              404,
              'RESOURCE_NOT_FOUND',
            )
          ).message,
        );
      }
      return messages;
    };
    const reference = await expectNeutral(shop.slug, unknown);
    for (const token of ['a1_short', revoked.token, foreign.token])
      expect(await expectNeutral(shop.slug, token)).toEqual(reference);
    await expectError(
      await tokenCall(undefined, 'GET', `/customer/actions/${live.token}`),
      400,
      'TENANT_REQUIRED',
    );
    await ok(await tokenCall(shop.slug, 'GET', `/customer/actions/${live.token}`), 200);
    await ok(await tokenCall(other.slug, 'GET', `/customer/actions/${foreign.token}`), 200);
    h.clock.advance(DAY);
    expect(await expectNeutral(shop.slug, live.token)).toEqual(reference);
  });

  it('is in the OpenAPI document with its bodies and codes', async () => {
    const document = await ok<{
      paths: Record<string, Record<string, { responses: Record<string, unknown>; requestBody?: unknown }>>;
    }>(await h.app.request('/api/v1/openapi.json'), 200);
    const expected: [string, string, string][] = [
      ['/customer/account/orders/by-reference/{orderReference}/returns', 'get', '200'],
      ['/customer/account/orders/by-reference/{orderReference}/returns', 'post', '201'],
      ['/customer/account/orders/by-reference/{orderReference}/returns/{returnId}/cancel', 'post', '200'],
      ['/customer/account/orders/by-reference/{orderReference}/return-actions', 'post', '201'],
      ['/customer/account/orders/{orderNumber}/returns', 'get', '200'],
      ['/customer/account/orders/{orderNumber}/return-actions', 'post', '201'],
      ['/customer/actions/{token}', 'get', '200'],
      ['/customer/actions/{token}', 'post', '200'],
      ['/merchant/returns', 'get', '200'],
      ['/merchant/returns/{returnId}', 'get', '200'],
      ['/merchant/returns/{returnId}/approve', 'post', '200'],
      ['/merchant/returns/{returnId}/reject', 'post', '200'],
      ['/merchant/returns/{returnId}/receive', 'post', '200'],
      ['/merchant/returns/{returnId}/complete', 'post', '200'],
    ];
    for (const [path, method, status] of expected) {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      expect(Object.keys(operation!.responses), `${method} ${path}`).toContain(status);
    }
    expect(
      document.paths['/customer/account/orders/by-reference/{orderReference}/returns']!.post!.requestBody,
    ).toBeDefined();
    expect(document.paths['/customer/actions/{token}']!.post!.requestBody).toBeDefined();
    expect(Object.keys(document.paths['/customer/actions/{token}']!.post!.responses)).toContain('409');
  });
});

// Last: it moves the clock days ahead.
describe('the return window', () => {
  it('follows the store setting and closes for requests and new tokens alike', async () => {
    const order = await completedOrder();
    await ok(
      await ownerCall(shop, 'PATCH', '/merchant/settings', { checkoutSettings: { returnWindowDays: 2 } }),
      200,
    );
    h.clock.advance(2 * DAY - 1000);
    await ok(await customerCall(ada, 'GET', returnsPath(order)), 200);
    const open = await ok<{ token: string; expiresAt: string }>(
      await customerCall(ada, 'POST', actionsPath(order), { purpose: 'RETURN_REQUEST' }),
      201,
    );
    expect(new Date(open.expiresAt).getTime() - h.clock.now().getTime()).toBe(1000);
    h.clock.advance(1000);
    const closed = await expectError(
      await customerCall(ada, 'POST', returnsPath(order), teeLine(order)),
      409,
      'RETURN_NOT_ELIGIBLE',
    );
    expect(closed.details).toMatchObject({ reason: 'WINDOW_CLOSED' });
    await expectError(
      await customerCall(ada, 'POST', actionsPath(order), { purpose: 'RETURN_REQUEST' }),
      409,
      'RETURN_NOT_ELIGIBLE',
    );
    await expectError(
      await tokenCall(shop.slug, 'GET', `/customer/actions/${open.token}`),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });
});
