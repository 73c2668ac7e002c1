import { loadConfig } from '@commerce/core';
import { createWebhookWorker } from '@commerce/notifications/webhooks';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, expectJson, type Harness } from '../support/harness.ts';
import { ACTORS, createRoleFixture, expectedStatus, type RoleFixture } from '../support/roles.ts';
import { startWebhookReceiver } from '../support/webhook-receiver.ts';

let h: Harness;
let shop: RoleFixture;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'webhook-shop', ['webhooks:manage']);
  receiver = await startWebhookReceiver();
});
afterAll(async () => {
  await receiver.close();
  await h.close();
});

interface Endpoint {
  id: string;
  url: string;
  events: string[];
  description: string | null;
  status: string;
  disabledReason: string | null;
  previousSecretExpiresAt: string | null;
  createdAt: string;
  updatedAt: string;
  secret?: string;
}
interface Delivery {
  id: string;
  eventId: string;
  eventType: string;
  status: string;
  attempts: number;
  responseStatus: number | null;
  responseBody: string | null;
  durationMs: number | null;
}

const BASE = '/merchant/webhook-endpoints';
const worker = () =>
  createWebhookWorker({
    db: h.database.db,
    // The harness's configuration: NODE_ENV=test, so the development key.
    signingKey: loadConfig({ NODE_ENV: 'test' }).webhooks.signingKey!,
    allowPrivateHosts: true,
    clock: h.clock,
  });

async function create(body: Record<string, unknown> = {}): Promise<Endpoint> {
  return expectJson<Endpoint>(
    await shop.call('owner', 'POST', BASE, { url: receiver.url, events: ['order.created'], ...body }),
    201,
  );
}

async function clear() {
  await h.database.db
    .deleteFrom('webhook_endpoints')
    .where('organization_id', '=', shop.organizationId)
    .execute();
}

describe('who may manage webhook endpoints', () => {
  for (const actor of ACTORS)
    it(`${actor}: create, list, read, test`, async () => {
      await clear();
      const allowed = ['owner', 'admin', 'staffWith'] as const;
      const created = await shop.call(actor, 'POST', BASE, { url: receiver.url, events: ['order.created'] });
      expect(created.status).toBe(expectedStatus(actor, allowed, 201));
      expect((await shop.call(actor, 'GET', BASE)).status).toBe(expectedStatus(actor, allowed, 200));
      const existing = await create();
      expect((await shop.call(actor, 'GET', `${BASE}/${existing.id}`)).status).toBe(
        expectedStatus(actor, allowed, 200),
      );
      expect((await shop.call(actor, 'GET', `${BASE}/${existing.id}/deliveries`)).status).toBe(
        expectedStatus(actor, allowed, 200),
      );
      expect((await shop.call(actor, 'POST', `${BASE}/${existing.id}/rotate-secret`)).status).toBe(
        expectedStatus(actor, allowed, 201),
      );
      expect((await shop.call(actor, 'DELETE', `${BASE}/${existing.id}`)).status).toBe(
        expectedStatus(actor, allowed, 204),
      );
      if (actor === 'staffWithout') await expectError(await shop.call(actor, 'GET', BASE), 403, 'FORBIDDEN');
    });
});

describe('webhook endpoint CRUD', () => {
  it('creates with a secret shown once, reads, lists, changes and deletes, auditing each change', async () => {
    await clear();
    const created = await create({
      events: ['order.paid', 'order.created', 'order.paid'],
      description: ' ERP ',
    });
    expect(created).toMatchObject({
      url: receiver.url,
      events: ['order.created', 'order.paid'],
      description: 'ERP',
      status: 'ENABLED',
      disabledReason: null,
      previousSecretExpiresAt: null,
    });
    expect(created.id).toMatch(/^whe_/);
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    // Nothing stored reveals the secret.
    const row = await h.database.db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', created.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row)).not.toContain(created.secret!.slice(6));

    const read = await expectJson<Endpoint>(await shop.call('admin', 'GET', `${BASE}/${created.id}`), 200);
    const { secret: _secret, ...withoutSecret } = created;
    expect(read).toEqual(withoutSecret);
    expect(read).not.toHaveProperty('secret');

    const second = await create();
    const firstPage = await expectJson<{ data: Endpoint[]; nextCursor: string | null }>(
      await shop.call('owner', 'GET', `${BASE}?limit=1`),
      200,
    );
    expect(firstPage.data.map((endpoint) => endpoint.id)).toEqual([created.id]);
    expect(firstPage.data[0]).not.toHaveProperty('secret');
    const secondPage = await expectJson<{ data: Endpoint[]; nextCursor: string | null }>(
      await shop.call('owner', 'GET', `${BASE}?limit=1&cursor=${firstPage.nextCursor}`),
      200,
    );
    expect(secondPage).toMatchObject({ data: [{ id: second.id }], nextCursor: null });
    // A cursor naming no endpoint of the organization is refused, not read as the end of the list.
    const unknown = await expectError(
      await shop.call('owner', 'GET', `${BASE}?cursor=whe_ZZZZZZZZZZZZZZZZZZZZZZZZZZ`),
      400,
      'VALIDATION_FAILED',
    );
    expect(unknown.details?.issues?.[0]?.path).toBe('cursor');

    const patched = await expectJson<Endpoint>(
      await shop.call('staffWith', 'PATCH', `${BASE}/${created.id}`, {
        events: ['booking.confirmed'],
        status: 'DISABLED',
        description: null,
      }),
      200,
    );
    expect(patched).toMatchObject({
      events: ['booking.confirmed'],
      status: 'DISABLED',
      disabledReason: 'MERCHANT',
      description: null,
    });

    expect((await shop.call('owner', 'DELETE', `${BASE}/${created.id}`)).status).toBe(204);
    await expectError(await shop.call('owner', 'GET', `${BASE}/${created.id}`), 404, 'RESOURCE_NOT_FOUND');

    const audits = await h.database.db
      .selectFrom('audit_logs')
      .select(['action', 'target_id', 'metadata'])
      .where('organization_id', '=', shop.organizationId)
      .where('target_id', '=', created.id)
      .orderBy('id')
      .execute();
    expect(audits.map((audit) => audit.action)).toEqual([
      'webhook_endpoint.created',
      'webhook_endpoint.updated',
      'webhook_endpoint.deleted',
    ]);
    expect(JSON.stringify(audits)).not.toContain('whsec_');
  });

  it('refuses unknown events, credentials in the URL, unknown fields and an id of another tenant', async () => {
    await clear();
    const bad = [
      { url: receiver.url, events: ['order.exploded'] },
      { url: receiver.url, events: [] },
      { url: receiver.url, events: ['webhook.test'] },
      { url: 'https://user:secret@hooks.example.com/x', events: ['order.created'] },
      { url: 'ftp://hooks.example.com/x', events: ['order.created'] },
      { url: receiver.url, events: ['order.created'], secret: 'mine' },
    ];
    for (const body of bad)
      await expectError(await shop.call('owner', 'POST', BASE, body), 400, 'VALIDATION_FAILED');
    const other = await createRoleFixture(h, 'webhook-other', []);
    const foreign = await expectJson<Endpoint>(
      await other.call('owner', 'POST', BASE, { url: receiver.url, events: ['order.created'] }),
      201,
    );
    await expectError(await shop.call('owner', 'GET', `${BASE}/${foreign.id}`), 404, 'RESOURCE_NOT_FOUND');
    await expectError(await shop.call('owner', 'DELETE', `${BASE}/${foreign.id}`), 404, 'RESOURCE_NOT_FOUND');
  });

  it('replays a create under its idempotency key with the same endpoint and secret', async () => {
    await clear();
    const key = { 'x-idempotency-key': 'webhook-create-0001' };
    const body = { url: receiver.url, events: ['order.created'] };
    const first = await shop.call('owner', 'POST', BASE, body, key);
    const firstBody = await expectJson<Endpoint>(first, 201);
    const again = await shop.call('owner', 'POST', BASE, body, key);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await expectJson<Endpoint>(again, 201)).toEqual(firstBody);
    await expectError(
      await shop.call('owner', 'POST', BASE, { ...body, events: ['order.paid'] }, key),
      409,
      'IDEMPOTENCY_KEY_REUSED',
    );
    const recorded = await h.database.db.selectFrom('idempotency_keys').select('response_body').execute();
    expect(JSON.stringify(recorded)).not.toContain('whsec_');

    // Once the secret is rotated, a replay no longer hands out a secret: not the old, not the new.
    await expectJson(await shop.call('owner', 'POST', `${BASE}/${firstBody.id}/rotate-secret`), 201);
    const stale = await shop.call('owner', 'POST', BASE, body, key);
    await expectError(stale, 409, 'STALE_STATE');
  });

  it('allows at most 20 endpoints per organization, whatever the concurrency', async () => {
    await clear();
    const responses = await Promise.all(
      Array.from({ length: 26 }, () =>
        shop.call('owner', 'POST', BASE, { url: receiver.url, events: ['order.created'] }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses.filter((status) => status === 201)).toHaveLength(20);
    expect(statuses.filter((status) => status === 409)).toHaveLength(6);
    const refused = responses.find((response) => response.status === 409)!;
    expect((await expectError(refused, 409, 'WEBHOOK_ENDPOINT_LIMIT_REACHED')).details).toEqual({
      limit: 20,
    });
    const { count } = await h.database.db
      .selectFrom('webhook_endpoints')
      .select((eb) => eb.fn.countAll().as('count'))
      .where('organization_id', '=', shop.organizationId)
      .executeTakeFirstOrThrow();
    expect(Number(count)).toBe(20);
  });
});

describe('test events, deliveries, redelivery and rotation', () => {
  it('sends a signed webhook.test, lists the delivery, redelivers it, and signs with both secrets after a rotation', async () => {
    await clear();
    receiver.received.length = 0;
    const endpoint = await create();
    const queued = await expectJson<Delivery>(
      await shop.call('owner', 'POST', `${BASE}/${endpoint.id}/test`),
      201,
    );
    expect(queued).toMatchObject({ eventType: 'webhook.test', status: 'PENDING', attempts: 0 });
    await worker().runOnce();
    const [request] = receiver.received;
    const verified = new Webhook(endpoint.secret!).verify(request!.body, request!.headers) as Record<
      string,
      unknown
    >;
    expect(verified).toMatchObject({
      id: queued.eventId,
      type: 'webhook.test',
      organizationSlug: shop.slug,
      data: { endpointId: endpoint.id },
    });

    const list = await expectJson<{ data: Delivery[] }>(
      await shop.call('owner', 'GET', `${BASE}/${endpoint.id}/deliveries`),
      200,
    );
    expect(list.data).toEqual([
      expect.objectContaining({
        id: queued.id,
        status: 'DELIVERED',
        attempts: 1,
        responseStatus: 200,
        responseBody: 'ok',
      }),
    ]);
    expect(list.data[0]!.durationMs).toBeGreaterThanOrEqual(0);

    const again = await expectJson<Delivery>(
      await shop.call('owner', 'POST', `${BASE}/${endpoint.id}/deliveries/${queued.id}/redeliver`),
      201,
    );
    expect(again).toMatchObject({ eventId: queued.eventId, status: 'PENDING' });
    expect(again.id).not.toBe(queued.id);

    const rotated = await expectJson<Endpoint>(
      await shop.call('owner', 'POST', `${BASE}/${endpoint.id}/rotate-secret`),
      201,
    );
    expect(rotated.secret).not.toBe(endpoint.secret);
    expect(Date.parse(rotated.previousSecretExpiresAt!) - h.clock.now().getTime()).toBe(24 * 3600 * 1000);
    await worker().runOnce();
    expect(receiver.received).toHaveLength(2);
    const redelivered = receiver.received[1]!;
    expect(redelivered.headers['webhook-id']).toBe(queued.eventId);
    for (const secret of [endpoint.secret!, rotated.secret!])
      expect(() => new Webhook(secret).verify(redelivered.body, redelivered.headers)).not.toThrow();

    await expectError(
      await shop.call(
        'owner',
        'POST',
        `${BASE}/${endpoint.id}/deliveries/whd_00000000000000000000000000/redeliver`,
      ),
      404,
      'RESOURCE_NOT_FOUND',
    );
    const actions = await h.database.db
      .selectFrom('audit_logs')
      .select('action')
      .where('target_id', '=', endpoint.id)
      .orderBy('id')
      .execute();
    expect(actions.map((audit) => audit.action)).toEqual([
      'webhook_endpoint.created',
      'webhook_endpoint.tested',
      'webhook_delivery.redelivered',
      'webhook_endpoint.secret_rotated',
    ]);
  });
});

describe('URL safety in production', () => {
  let production: Harness;
  let store: RoleFixture;
  beforeAll(async () => {
    production = await createHarness({
      env: {
        NODE_ENV: 'production',
        MERCHANT_JWT_SECRET: 'a-production-secret-that-is-not-the-development-one',
        PAYMENT_WEBHOOK_SECRET: 'whsec_production_0123456789abcdef',
        SMTP_URL: 'smtp://mail.internal:587',
        PAYMENT_PROVIDER: 'sandbox',
        ALLOW_SANDBOX_IN_PRODUCTION: 'true',
        WEBHOOK_SIGNING_KEY: 'a-production-webhook-signing-key-0123456789',
      },
    });
    store = await createRoleFixture(production, 'webhook-prod', []);
  });
  afterAll(async () => {
    await production.close();
  });

  it('refuses loopback, private, link-local and metadata hosts, a name resolving to loopback, and plain http', async () => {
    for (const url of [
      'https://127.0.0.1/hooks',
      'https://[::1]/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://10.0.0.1/hooks',
      'https://localhost/hooks',
      'https://[::ffff:127.0.0.1]/hooks',
      'http://hooks.example.com/x',
    ]) {
      const error = await expectError(
        await store.call('owner', 'POST', BASE, { url, events: ['order.created'] }),
        400,
        'VALIDATION_FAILED',
      );
      expect(error.details?.issues?.[0]?.path, url).toBe('url');
      expect(error.message, url).toMatch(/not allowed/);
    }
    const created = await production.database.db.selectFrom('webhook_endpoints').select('id').execute();
    expect(created).toHaveLength(0);
  });
});
