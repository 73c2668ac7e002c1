import { AppError, hashToken, ManualClock, newToken } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_EMAIL_CONFIG } from '../../test/orders.ts';
import { createReturnShop, type ReturnShop } from '../../test/returns.ts';
import type { CreatedLegacyOrder } from '../orders/schemas.ts';
import { createReturn } from '../returns/create-return.ts';
import { issueReturnAction } from './issue-return-action.ts';
import { performAction } from './perform-action.ts';
import { previewAction } from './preview-action.ts';
import { ACTION_TOKEN_RETENTION_MS, pruneActionTokens } from './prune-action-tokens.ts';
import type { PerformActionInput } from './schemas.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-07-01T09:00:00.000Z');
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

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
const teeOf = (order: CreatedLegacyOrder) => order.items[0]!.id;
const mugOf = (order: CreatedLegacyOrder) => order.items[1]!.id;

const returnsOf = (organizationId: string) =>
  handle.db
    .selectFrom('returns')
    .select(['id', 'status', 'channel'])
    .where('organization_id', '=', organizationId)
    .execute();
const outboxCount = async (organizationId: string) =>
  (await handle.db.selectFrom('outbox').select('id').where('organization_id', '=', organizationId).execute())
    .length;

let s: ReturnShop;
const issue = (order: CreatedLegacyOrder, shop: ReturnShop = s) =>
  issueReturnAction(handle.db, shop.scope(), refOf(order), { purpose: 'RETURN_REQUEST' });
const perform = (token: string, input: PerformActionInput, shop: ReturnShop = s) =>
  performAction(
    handle.db,
    { organizationId: shop.organizationId, returnWindowDays: 30, email: TEST_EMAIL_CONFIG, at: clock.now() },
    token,
    input,
  );
const preview = (token: string, shop: ReturnShop = s) =>
  previewAction(handle.db, { organizationId: shop.organizationId, at: clock.now() }, token);
const twoTees = (order: CreatedLegacyOrder): PerformActionInput => ({
  action: 'REQUEST_RETURN',
  lines: [{ lineId: teeOf(order), quantity: 2, reason: 'DEFECTIVE' }],
});

beforeAll(async () => {
  s = await createReturnShop(handle.db, clock);
});

describe('issueReturnAction', () => {
  it('issues an a1_ token once: hashed at rest, never emailed, bound to the purpose and the eligible lines', async () => {
    const order = await s.order();
    await createReturn(handle.db, s.scope(), refOf(order), {
      lines: [{ lineId: mugOf(order), quantity: 2, reason: 'OTHER' }],
    });
    const emailsBefore = await outboxCount(s.organizationId);
    const issued = await issue(order);
    expect(issued.token).toMatch(/^a1_[A-Za-z0-9_-]{43}$/);
    expect(issued).toMatchObject({
      purpose: 'RETURN_REQUEST',
      orderReference: order.orderReference,
      orderNumber: order.orderNumber,
      expiresAt: new Date(clock.now().getTime() + DAY).toISOString(),
      // The mugs are already claimed: only the tees are eligible.
      lines: [
        {
          lineId: teeOf(order),
          itemId: s.shop.itemId,
          variantId: null,
          name: 'Tee',
          unitPriceInCents: 1500,
          quantity: 3,
        },
      ],
    });
    expect(await outboxCount(s.organizationId)).toBe(emailsBefore);
    const rows = await handle.db
      .selectFrom('action_tokens')
      .selectAll()
      .where('organization_id', '=', s.organizationId)
      .where('order_id', '=', order.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(hashToken(issued.token));
    expect(JSON.stringify(rows[0])).not.toContain(issued.token);
    expect(rows[0]).toMatchObject({ purpose: 'RETURN_REQUEST', customer_id: 'cus_ada', consumed_at: null });
  });

  it('never outlives the return window', async () => {
    const order = await s.order();
    clock.advance(30 * DAY - 2 * HOUR);
    const issued = await issue(order);
    expect(issued.expiresAt).toBe(new Date(clock.now().getTime() + 2 * HOUR).toISOString());
  });

  it('refuses orders that cannot be returned, and other customers’ orders with the neutral 404', async () => {
    const processing = await s.order('PROCESSING');
    const error = await failureOf(issue(processing));
    expect(error.code).toBe('RETURN_NOT_ELIGIBLE');
    expect(error.details).toMatchObject({ reason: 'NOT_SHIPPED' });
    // A legacy order the merchant never confirmed is not in the account: the same neutral 404.
    const pending = await s.order('PENDING');
    expect((await failureOf(issue(pending))).code).toBe('RESOURCE_NOT_FOUND');
    const order = await s.order();
    const stranger = await failureOf(
      issueReturnAction(handle.db, s.scope(s.stranger), refOf(order), { purpose: 'RETURN_REQUEST' }),
    );
    expect(stranger.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('works by order number (compatibility route)', async () => {
    const order = await s.order();
    const issued = await issueReturnAction(
      handle.db,
      s.scope(),
      { orderNumber: String(order.orderNumber) },
      { purpose: 'RETURN_REQUEST' },
    );
    expect(issued.orderReference).toBe(order.orderReference);
  });
});

describe('previewAction and performAction', () => {
  it('previews without changing anything', async () => {
    const order = await s.order();
    const { token } = await issue(order);
    const before = await handle.db.selectFrom('action_tokens').selectAll().execute();
    const shown = await preview(token);
    expect(shown).toMatchObject({
      purpose: 'RETURN_REQUEST',
      consumedAt: null,
      order: { orderReference: order.orderReference, orderNumber: order.orderNumber, status: 'COMPLETED' },
      actions: [{ action: 'REQUEST_RETURN', enabled: true }],
      result: null,
    });
    expect(shown.lines.map((line) => [line.name, line.quantity, line.returnableQuantity])).toEqual([
      ['Tee', 3, 3],
      ['Mug', 2, 2],
    ]);
    await preview(token);
    expect(await handle.db.selectFrom('action_tokens').selectAll().execute()).toEqual(before);
    expect((await returnsOf(s.organizationId)).filter((r) => r.channel === 'ACTION_TOKEN')).toEqual([]);
  });

  it('performs the action once, replays the same request and refuses a different one', async () => {
    const order = await s.order();
    const { token } = await issue(order);
    clock.advance(1000);
    const first = await perform(token, twoTees(order));
    expect(first.isReplay).toBe(false);
    expect(first.result.action).toBe('REQUEST_RETURN');
    expect(first.result.return).toMatchObject({
      orderId: order.id,
      status: 'REQUESTED',
      channel: 'ACTION_TOKEN',
      refundTotalInCents: 3000,
    });
    const emails = await outboxCount(s.organizationId);

    clock.advance(1000);
    // The same request, keys in another order: the recorded result, nothing new.
    const again = await perform(token, {
      lines: [{ reason: 'DEFECTIVE', quantity: 2, lineId: teeOf(order) }],
      action: 'REQUEST_RETURN',
    });
    expect(again).toEqual({ result: first.result, isReplay: true });
    expect(await outboxCount(s.organizationId)).toBe(emails);

    const different = await failureOf(
      perform(token, {
        action: 'REQUEST_RETURN',
        lines: [{ lineId: teeOf(order), quantity: 1, reason: 'DEFECTIVE' }],
      }),
    );
    expect(different.code).toBe('ACTION_TOKEN_CONSUMED');
    const ofOrder = (await returnsOf(s.organizationId)).filter((r) => r.id === first.result.return.id);
    expect(ofOrder).toHaveLength(1);
    expect(
      (await handle.db.selectFrom('returns').select('id').where('order_id', '=', order.id).execute()).length,
    ).toBe(1);

    const shown = await preview(token);
    expect(shown.consumedAt).toBe(new Date(clock.now().getTime() - 1000).toISOString());
    expect(shown.actions).toEqual([{ action: 'REQUEST_RETURN', enabled: false }]);
    expect(shown.result).toEqual(first.result);
    expect(shown.lines.every((line) => line.returnableQuantity === 0)).toBe(true);
  });

  it('keeps to the token’s lines and quantities (400) and records nothing when the return is refused', async () => {
    const order = await s.order();
    await createReturn(handle.db, s.scope(), refOf(order), {
      lines: [{ lineId: mugOf(order), quantity: 1, reason: 'OTHER' }],
    });
    const { token } = await issue(order);
    const other = await s.order();
    const outside = await failureOf(
      perform(token, {
        action: 'REQUEST_RETURN',
        lines: [
          { lineId: teeOf(other), quantity: 1, reason: 'OTHER' },
          { lineId: mugOf(order), quantity: 2, reason: 'OTHER' },
        ],
      }),
    );
    expect(outside.code).toBe('VALIDATION_FAILED');
    expect(outside.details).toEqual({
      issues: [
        { path: 'lines.0.lineId', message: "is not one of the token's lines" },
        { path: 'lines.1.quantity', message: "exceeds the token's quantity of 1" },
      ],
    });
    // The tees are claimed through the account after the token was issued: the token's request is refused…
    await createReturn(handle.db, s.scope(), refOf(order), {
      lines: [{ lineId: teeOf(order), quantity: 2, reason: 'OTHER' }],
    });
    expect((await failureOf(perform(token, twoTees(order)))).code).toBe('OVER_RETURN');
    // …and the token is still unused, so a request that fits works.
    const done = await perform(token, {
      action: 'REQUEST_RETURN',
      lines: [{ lineId: teeOf(order), quantity: 1, reason: 'OTHER' }],
    });
    expect(done.isReplay).toBe(false);
  });

  it('gives unknown, malformed, expired, revoked and cross-tenant tokens the same neutral 404', async () => {
    const order = await s.order();
    const revoked = await issue(order);
    const live = await issue(order);
    const otherShop = await createReturnShop(handle.db, clock);
    const foreign = await issue(await otherShop.order(), otherShop);
    const expectNeutral404 = async (token: string, shop: ReturnShop = s) => {
      // Thunks, so each rejection is awaited as soon as it exists (never left unhandled).
      for (const attempt of [() => preview(token, shop), () => perform(token, twoTees(order), shop)]) {
        const error = await failureOf(attempt());
        expect(error.code, token).toBe('RESOURCE_NOT_FOUND');
        expect(error.message).toBe('Not found');
      }
    };
    for (const token of [
      newToken('action'),
      'a1_short',
      newToken('orderStatus'),
      revoked.token,
      foreign.token,
    ])
      await expectNeutral404(token);
    // The same tokens work where they belong, and nothing above consumed them.
    expect((await preview(foreign.token, otherShop)).consumedAt).toBeNull();
    expect((await preview(live.token)).consumedAt).toBeNull();
    await expectNeutral404(live.token, otherShop);

    clock.advance(DAY);
    await expectNeutral404(live.token);
    await expectNeutral404(foreign.token, otherShop);
  });

  it('stops a used token, replays included, once it expires', async () => {
    const order = await s.order();
    const { token } = await issue(order);
    await perform(token, twoTees(order));
    expect((await perform(token, twoTees(order))).isReplay).toBe(true);
    clock.advance(DAY);
    expect((await failureOf(perform(token, twoTees(order)))).code).toBe('RESOURCE_NOT_FOUND');
    expect((await failureOf(preview(token))).code).toBe('RESOURCE_NOT_FOUND');
  });

  it.skipIf(testDatabaseKind !== 'postgres')(
    'performs the action once under concurrent POSTs of one token',
    async () => {
      const order = await s.order();
      const { token } = await issue(order);
      const results = await Promise.all(Array.from({ length: 10 }, () => perform(token, twoTees(order))));
      expect(results.filter((result) => !result.isReplay)).toHaveLength(1);
      const returnIds = new Set(results.map((result) => result.result.return.id));
      expect(returnIds.size).toBe(1);
      const rows = await handle.db
        .selectFrom('returns')
        .select('id')
        .where('order_id', '=', order.id)
        .execute();
      expect(rows).toHaveLength(1);
    },
  );
});

describe('pruneActionTokens', () => {
  it('deletes a token only once it has been expired for the retention period', async () => {
    const order = await s.order();
    const issued = await issueReturnAction(handle.db, s.scope(), refOf(order), { purpose: 'RETURN_REQUEST' });
    const stored = () =>
      handle.db
        .selectFrom('action_tokens')
        .select('token_hash')
        .where('token_hash', '=', hashToken(issued.token))
        .execute();
    const expiresAt = new Date(issued.expiresAt).getTime();

    // Earlier tests' tokens may go too; this one must stay until its retention ends.
    await pruneActionTokens(handle.db, new Date(expiresAt + ACTION_TOKEN_RETENTION_MS - 1000));
    expect(await stored()).toHaveLength(1);
    expect(
      await pruneActionTokens(handle.db, new Date(expiresAt + ACTION_TOKEN_RETENTION_MS)),
    ).toBeGreaterThan(0);
    expect(await stored()).toEqual([]);
  });
});
