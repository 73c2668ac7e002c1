import { ManualClock } from '@commerce/core';
import type { Database, DatabaseHandle } from '@commerce/db';
import type { Kysely, KyselyPlugin } from 'kysely';
import { Webhook } from 'standardwebhooks';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createNotificationsTestDatabase, ORG_ID } from '../../test/factories.ts';
import { startWebhookReceiver, type WebhookReceiver } from '../../test/webhook-receiver.ts';
import { createWebhookEndpoint, rotateWebhookEndpointSecret, type WebhookSettings } from './endpoints.ts';
import { enqueueWebhookEvent } from './enqueue-webhook-event.ts';
import { createWebhookWorker, type WebhookWorkerOptions, webhookRetryDelayMs } from './webhook-worker.ts';

const SIGNING_KEY = 'test-webhook-signing-key-0123456789abcdef';
const settings: WebhookSettings = {
  signingKey: SIGNING_KEY,
  policy: { requireHttps: false, allowPrivateHosts: true },
};
const actor = { userId: 'usr_test', email: 'owner@example.com' };
const noJitter = () => 0;

let handle: DatabaseHandle;
let clock: ManualClock;
let receiver: WebhookReceiver;

beforeAll(async () => {
  handle = await createNotificationsTestDatabase();
});
afterAll(async () => {
  await handle.close();
});
beforeEach(async () => {
  await handle.db.deleteFrom('webhook_endpoints').execute();
  // Near the real time: receivers refuse a signature more than five minutes from their clock.
  clock = new ManualClock(new Date(Date.now()).toISOString());
  receiver = await startWebhookReceiver();
});
afterEach(async () => {
  await receiver.close();
});

function worker(options: Partial<WebhookWorkerOptions> = {}) {
  return createWebhookWorker({
    db: handle.db,
    signingKey: SIGNING_KEY,
    allowPrivateHosts: true,
    clock,
    random: noJitter,
    baseBackoffMs: 1000,
    ...options,
  });
}

async function endpoint(events: string[] = ['order.created', 'booking.confirmed', 'booking.cancelled']) {
  return createWebhookEndpoint(handle.db, { organizationId: ORG_ID, actor, at: clock.now() }, settings, {
    url: receiver.url,
    events: events as never,
  });
}

function enqueue(
  type: 'order.created' | 'booking.confirmed' | 'booking.cancelled' | 'item.updated',
  objectId: string,
  data: unknown = { id: objectId },
) {
  return enqueueWebhookEvent(handle.db, { organizationId: ORG_ID, type, objectId, data, at: clock.now() });
}

function deliveries(db: Kysely<Database> = handle.db) {
  return db.selectFrom('webhook_deliveries').selectAll().orderBy('sequence').execute();
}

describe('webhookRetryDelayMs', () => {
  it('doubles from the base, caps at the maximum and only shortens by jitter', () => {
    const options = { baseBackoffMs: 10_000, maxBackoffMs: 60_000 };
    expect([1, 2, 3, 4, 9].map((attempts) => webhookRetryDelayMs(attempts, options, noJitter))).toEqual([
      10_000, 20_000, 40_000, 60_000, 60_000,
    ]);
    expect(webhookRetryDelayMs(1, options, () => 0.999)).toBeGreaterThanOrEqual(8000);
  });
});

describe('webhook worker', () => {
  it('signs a delivery by Standard Webhooks, which the receiver verifies with the secret, and records the answer', async () => {
    const created = await endpoint();
    receiver.answer = () => ({ status: 202, body: 'x'.repeat(5000) });
    const eventId = await enqueue('order.created', 'ord_1', { id: 'ord_1', total: 1200 });

    expect(await worker().runOnce()).toEqual({ claimed: 1, delivered: 1, retried: 0, failed: 0 });

    expect(receiver.received).toHaveLength(1);
    const [request] = receiver.received;
    expect(request!.headers['webhook-id']).toBe(eventId);
    expect(request!.headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    const verified = new Webhook(created.secret).verify(
      request!.body,
      request!.headers as Record<string, string>,
    );
    expect(verified).toEqual({
      id: eventId,
      type: 'order.created',
      createdAt: clock.now().toISOString(),
      organizationSlug: 'notifications',
      data: { id: 'ord_1', total: 1200 },
    });
    expect(() =>
      new Webhook(`whsec_${Buffer.alloc(32, 1).toString('base64')}`).verify(
        request!.body,
        request!.headers as Record<string, string>,
      ),
    ).toThrow();
    const [row] = await deliveries();
    expect(row).toMatchObject({ status: 'DELIVERED', attempts: 1, response_status: 202, locked_until: null });
    expect(row!.response_body).toHaveLength(2048);
    expect(row!.duration_ms).toBeGreaterThanOrEqual(0);
  });

  it('records an answer holding NUL characters (which PostgreSQL text refuses) without them', async () => {
    await endpoint();
    receiver.answer = () => ({ status: 200, body: 'ok\u0000\u0000done' });
    await enqueue('order.created', 'ord_nul');
    expect(await worker().runOnce()).toEqual({ claimed: 1, delivered: 1, retried: 0, failed: 0 });
    const [row] = await deliveries();
    expect(row).toMatchObject({ status: 'DELIVERED', attempts: 1, response_body: 'okdone' });
  });

  it('queues nothing for an event no endpoint subscribed to, and nothing for a disabled endpoint', async () => {
    await endpoint(['order.created']);
    expect(await enqueue('item.updated', 'itm_1')).toBeUndefined();
    await handle.db.updateTable('webhook_endpoints').set({ status: 'DISABLED' }).execute();
    expect(await enqueue('order.created', 'ord_1')).toBeUndefined();
    expect(await deliveries()).toHaveLength(0);
  });

  it('signs with both secrets for 24 hours after a rotation, then with the new one only', async () => {
    const created = await endpoint();
    const rotated = await rotateWebhookEndpointSecret(
      handle.db,
      { organizationId: ORG_ID, actor, at: clock.now() },
      settings,
      created.id,
    );
    expect(rotated.secret).not.toBe(created.secret);
    await enqueue('order.created', 'ord_1');
    await worker().runOnce();
    const during = receiver.received[0]!;
    expect(String(during.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [created.secret, rotated.secret])
      expect(() =>
        new Webhook(secret).verify(during.body, during.headers as Record<string, string>),
      ).not.toThrow();

    // A day later (and the receiver's clock with it: sign at the real time again).
    await handle.db
      .updateTable('webhook_endpoints')
      .set({ previous_secret_expires_at: new Date(clock.now().getTime() - 1) })
      .execute();
    await enqueue('order.created', 'ord_2');
    await worker().runOnce();
    const after = receiver.received[1]!;
    expect(String(after.headers['webhook-signature']).split(' ')).toHaveLength(1);
    expect(() =>
      new Webhook(rotated.secret).verify(after.body, after.headers as Record<string, string>),
    ).not.toThrow();
    expect(() =>
      new Webhook(created.secret).verify(after.body, after.headers as Record<string, string>),
    ).toThrow();
  });

  it('retries with backoff while the receiver is down, and delivers every event once it is back', async () => {
    await endpoint();
    let up = false;
    receiver.answer = () => (up ? { status: 200 } : { status: 503, body: 'down' });
    const ids = [
      await enqueue('order.created', 'ord_1'),
      await enqueue('order.created', 'ord_2'),
      await enqueue('booking.confirmed', 'bkg_1'),
    ];
    const run = worker();

    expect(await run.runOnce()).toMatchObject({ claimed: 3, retried: 3 });
    let rows = await deliveries();
    expect(rows.map((row) => [row.status, row.attempts, row.response_status, row.last_error])).toEqual(
      Array(3).fill(['PENDING', 1, 503, 'answered 503']),
    );
    expect(rows[0]!.next_attempt_at.getTime() - clock.now().getTime()).toBe(1000);
    // Not due yet: nothing is sent.
    expect(await run.runOnce()).toMatchObject({ claimed: 0 });
    clock.advance(1000);
    expect(await run.runOnce()).toMatchObject({ claimed: 3, retried: 3 });
    rows = await deliveries();
    expect(rows[0]!.next_attempt_at.getTime() - clock.now().getTime()).toBe(2000);
    const endpointRow = await handle.db
      .selectFrom('webhook_endpoints')
      .select('failing_since')
      .executeTakeFirstOrThrow();
    expect(endpointRow.failing_since).not.toBeNull();

    up = true;
    clock.advance(2000);
    expect(await run.runOnce()).toMatchObject({ claimed: 3, delivered: 3 });
    const okIds = receiver.received.slice(-3).map((request) => request.headers['webhook-id']);
    expect(okIds.sort()).toEqual([...ids].sort());
    expect((await deliveries()).every((row) => row.status === 'DELIVERED' && row.attempts === 3)).toBe(true);
    // A success clears the endpoint's failure record.
    expect(
      (await handle.db.selectFrom('webhook_endpoints').select('failing_since').executeTakeFirstOrThrow())
        .failing_since,
    ).toBeNull();
  });

  it('marks a delivery FAILED once its retry window since the event has passed', async () => {
    await endpoint();
    receiver.answer = () => ({ status: 500 });
    await enqueue('order.created', 'ord_1');
    const run = worker({ retryWindowMs: 5000 });
    await run.runOnce(); // next in 1 s
    clock.advance(1000);
    await run.runOnce(); // next in 2 s (3 s in)
    clock.advance(2000);
    expect(await run.runOnce()).toMatchObject({ failed: 1 }); // the next would be 7 s in
    expect(await deliveries()).toMatchObject([{ status: 'FAILED', attempts: 3, response_status: 500 }]);
    clock.advance(60_000);
    expect(await run.runOnce()).toMatchObject({ claimed: 0 });
    expect(receiver.received).toHaveLength(3);
  });

  it('disables an endpoint whose every delivery failed for the disable period and emails its Owners', async () => {
    const created = await endpoint();
    await handle.db
      .insertInto('merchant_users')
      .values({ id: 'usr_owner', subject: 'owner', email: 'owner@example.com', email_verified: true })
      .onConflict((oc) => oc.doNothing())
      .execute();
    await handle.db
      .insertInto('memberships')
      .values({
        organization_id: ORG_ID,
        id: 'mem_owner',
        user_id: 'usr_owner',
        email: 'owner@example.com',
        role: 'Owner',
        permissions: '[]',
        status: 'ACTIVE',
      })
      .execute();
    receiver.answer = () => ({ status: 500 });
    await enqueue('order.created', 'ord_1');
    const run = worker({ disableAfterMs: 10_000, retryWindowMs: 1_000_000 });
    await run.runOnce();
    clock.advance(5000);
    await run.runOnce();
    expect(
      (await handle.db.selectFrom('webhook_endpoints').select('status').executeTakeFirstOrThrow()).status,
    ).toBe('ENABLED');
    clock.advance(10_000);
    await run.runOnce();
    const row = await handle.db.selectFrom('webhook_endpoints').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ status: 'DISABLED', disabled_reason: 'FAILING' });
    const mail = await handle.db.selectFrom('outbox').selectAll().execute();
    expect(mail).toHaveLength(1);
    expect(mail[0]!.payload).toMatchObject({
      to: 'owner@example.com',
      subject: 'A webhook endpoint was disabled',
    });
    expect(JSON.stringify(mail[0]!.payload)).toContain(created.id);
    // No more events for it; its open delivery fails without a request.
    expect(await enqueue('order.created', 'ord_2')).toBeUndefined();
    clock.advance(60_000);
    await run.runOnce();
    expect(receiver.received).toHaveLength(3);
    expect(await deliveries()).toMatchObject([{ status: 'FAILED', last_error: 'endpoint disabled' }]);
  });

  it('sends the events of one booking in order: the next waits while the one before is open', async () => {
    await endpoint();
    let failFirst = true;
    receiver.answer = (request) => {
      const { type, data } = JSON.parse(request.body);
      if (type === 'booking.confirmed' && data.id === 'bkg_1' && failFirst) return { status: 500 };
      return { status: 200 };
    };
    await enqueue('booking.confirmed', 'bkg_1');
    await enqueue('booking.cancelled', 'bkg_1');
    await enqueue('booking.confirmed', 'bkg_2');
    const run = worker();

    // bkg_1's cancel waits for its confirmation; bkg_2 is another object and goes.
    expect(await run.runOnce()).toMatchObject({ claimed: 2 });
    expect(receiver.received.map((request) => JSON.parse(request.body).data.id)).toEqual(['bkg_1', 'bkg_2']);
    clock.advance(500);
    expect(await run.runOnce()).toMatchObject({ claimed: 0 });
    failFirst = false;
    clock.advance(500);
    expect(await run.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(await run.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    const bkg1 = receiver.received
      .filter((request) => JSON.parse(request.body).data.id === 'bkg_1')
      .map((request) => JSON.parse(request.body).type);
    expect(bkg1).toEqual(['booking.confirmed', 'booking.confirmed', 'booking.cancelled']);
  });

  it('a worker that dies mid-delivery loses nothing: its lease lapses and another worker delivers', async () => {
    await endpoint();
    await enqueue('order.created', 'ord_1');
    let dead = false;
    const plugin: KyselyPlugin = {
      transformQuery(args) {
        if (dead) throw new Error('the process is dead');
        return args.node;
      },
      async transformResult(args) {
        return args.result;
      },
    };
    // The first worker's process dies while its request is on the wire: the outcome is never recorded.
    receiver.answer = () => {
      dead = true;
      return { status: 200 };
    };
    const doomed = worker({ db: handle.db.withPlugin(plugin), leaseMs: 15_000 });
    expect(await doomed.runOnce()).toMatchObject({ claimed: 1, delivered: 0 });
    expect(await deliveries()).toMatchObject([{ status: 'PROCESSING', attempts: 1 }]);

    const survivor = worker({ leaseMs: 15_000 });
    receiver.answer = () => ({ status: 200 });
    // Still leased: not claimed again.
    expect(await survivor.runOnce()).toMatchObject({ claimed: 0 });
    clock.advance(15_001);
    expect(await survivor.runOnce()).toMatchObject({ claimed: 1, delivered: 1 });
    expect(await deliveries()).toMatchObject([{ status: 'DELIVERED', attempts: 2 }]);
    // At least once: the same event id twice, which receivers deduplicate on.
    expect(receiver.received.map((request) => request.headers['webhook-id'])).toEqual([
      receiver.received[0]!.headers['webhook-id'],
      receiver.received[0]!.headers['webhook-id'],
    ]);
  });

  it('refuses at connection time an address that is not public, unless private hosts are allowed (DNS rebinding)', async () => {
    await handle.db.deleteFrom('webhook_endpoints').execute();
    // Created while the name resolved to a public address; it now resolves to loopback.
    await createWebhookEndpoint(
      handle.db,
      { organizationId: ORG_ID, actor, at: clock.now() },
      {
        ...settings,
        policy: { requireHttps: false, allowPrivateHosts: false },
        resolve: async () => [{ address: '93.184.215.14', family: 4 }],
      },
      { url: receiver.url.replace('127.0.0.1', 'rebind.example'), events: ['order.created'] },
    );
    await enqueue('order.created', 'ord_1');
    const guarded = worker({
      allowPrivateHosts: false,
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    expect(await guarded.runOnce()).toMatchObject({ retried: 1 });
    expect(receiver.received).toHaveLength(0);
    const [row] = await deliveries();
    expect(row!.last_error).toContain('non-public address (127.0.0.1)');

    // A literal loopback URL written directly to the table is refused the same way.
    await handle.db.updateTable('webhook_endpoints').set({ url: receiver.url }).execute();
    clock.advance(1000);
    expect(await worker({ allowPrivateHosts: false }).runOnce()).toMatchObject({ retried: 1 });
    expect(receiver.received).toHaveLength(0);
    expect((await deliveries())[0]!.last_error).toContain('127.0.0.1 is not a public address');
  });

  it('does not follow a redirect and times out a receiver that does not answer', async () => {
    await endpoint();
    // A redirect to the receiver itself: a client that followed it would be received twice.
    receiver.answer = () => ({ status: 302, headers: { location: `${receiver.url}/next` } });
    await enqueue('order.created', 'ord_1');
    expect(await worker().runOnce()).toMatchObject({ retried: 1 });
    expect(receiver.received).toHaveLength(1);
    expect((await deliveries())[0]).toMatchObject({ response_status: 302, status: 'PENDING' });

    receiver.answer = () => 'hang';
    clock.advance(1000);
    expect(await worker({ timeoutMs: 300, leaseMs: 3000 }).runOnce()).toMatchObject({ retried: 1 });
    expect((await deliveries())[0]).toMatchObject({
      response_status: null,
      last_error: 'timed out after 300 ms',
    });
  });
});
