/**
 * Several gateways and one worker on one PostgreSQL, as production runs them:
 * real processes started from source, on ephemeral ports, against a database
 * of their own. Needs PostgreSQL and Redis (TEST_DATABASE_URL, TEST_REDIS_URL).
 */
import { randomBytes } from 'node:crypto';
import { mintDevToken } from '@commerce/auth';
import { DEVELOPMENT_JWT_SECRET, loadConfig } from '@commerce/core';
import { type DatabaseHandle, openDatabase } from '@commerce/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PLATFORM_TOKEN } from '../support/harness.ts';
import {
  GATEWAY_DIR,
  type SmtpSink,
  type Started,
  startProcess,
  startSmtpSink,
  WORKER_DIR,
} from '../support/processes.ts';

const databaseUrl = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
/** The per-client public read limit every gateway enforces. */
const READS_PER_MINUTE = 8;
const STARTUP_TIMEOUT_MS = 45_000;

let sink: SmtpSink;
let admin: DatabaseHandle;
let database: DatabaseHandle;
let databaseName: string;
const processes: Started[] = [];
/** Two gateways sharing the rate-limit store on Redis, two on PostgreSQL. */
const gateways: Record<'redisA' | 'redisB' | 'postgresA' | 'postgresB', string> = {
  redisA: '',
  redisB: '',
  postgresA: '',
  postgresB: '',
};

async function startGateway(name: keyof typeof gateways, url: string, rateLimitStore: string): Promise<void> {
  const started = startProcess(`gateway ${name}`, GATEWAY_DIR, {
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: url,
    DATABASE_POOL_SIZE: '4',
    RATE_LIMIT_STORE: rateLimitStore,
    RATE_LIMIT_PUBLIC_READS_PER_MINUTE: String(READS_PER_MINUTE),
    PLATFORM_ADMIN_TOKEN: PLATFORM_TOKEN,
    LOG_LEVEL: 'info',
  });
  processes.push(started);
  const listening = await started.logged('gateway listening');
  gateways[name] = String(listening.url);
}

const needs = !databaseUrl || !redisUrl ? ' (skipped: needs TEST_DATABASE_URL and TEST_REDIS_URL)' : '';

describe.skipIf(needs !== '')(`two gateways and a worker on one PostgreSQL${needs}`, () => {
  beforeAll(async () => {
    sink = await startSmtpSink();

    // A database of its own: the processes migrate its default schema.
    databaseName = `scale_out_test_${randomBytes(5).toString('hex')}`;
    admin = await openDatabase({ databaseUrl, poolSize: 1 });
    await admin.pool?.query(`create database ${databaseName}`);
    const url = new URL(databaseUrl ?? '');
    url.pathname = `/${databaseName}`;

    // All five start at once, so they also race to migrate the new database.
    await Promise.all([
      startGateway('redisA', url.toString(), redisUrl ?? ''),
      startGateway('redisB', url.toString(), redisUrl ?? ''),
      startGateway('postgresA', url.toString(), 'postgres'),
      startGateway('postgresB', url.toString(), 'postgres'),
      (async () => {
        const worker = startProcess('worker', WORKER_DIR, {
          NODE_ENV: 'test',
          DATABASE_URL: url.toString(),
          DATABASE_POOL_SIZE: '4',
          SMTP_URL: `smtp://127.0.0.1:${sink.port}`,
          WORKER_POLL_MS: '50',
          LOG_LEVEL: 'info',
        });
        processes.push(worker);
        await worker.logged('worker running');
      })(),
    ]);
    database = await openDatabase({ databaseUrl: url.toString(), poolSize: 2 });
  }, STARTUP_TIMEOUT_MS + 15_000);

  afterAll(async () => {
    await Promise.allSettled(processes.map((started) => started.stop()));
    await database?.close();
    if (admin) {
      await admin.pool?.query(`drop database if exists ${databaseName} with (force)`);
      await admin.close();
    }
    await sink?.close();
  });

  // The fields this test reads from answers (ids, tokens, addresses) are strings.
  const call = async (
    gateway: string,
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ) => {
    const response = await fetch(`${gateway}/api/v1${path}`, {
      method,
      headers: { ...headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return {
      status: response.status,
      headers: response.headers,
      body: (await response.json()) as Record<string, string>,
    };
  };

  /** A new organization, and merchant headers for its owner. */
  async function newStore(gateway: string, slug: string): Promise<Record<string, string>> {
    const ownerEmail = `owner@${slug}.test`;
    const created = await call(
      gateway,
      'POST',
      '/platform/organizations',
      { authorization: `Bearer ${PLATFORM_TOKEN}` },
      { slug, name: slug, owner: { email: ownerEmail } },
    );
    expect(created.status).toBe(201);
    const defaults = loadConfig({}).merchantJwt;
    const token = await mintDevToken({
      secret: DEVELOPMENT_JWT_SECRET,
      issuer: defaults.issuer,
      audience: defaults.audience,
      subject: `test|${ownerEmail}`,
      email: ownerEmail,
    });
    return { 'x-organization-slug': slug, authorization: `Bearer ${token}` };
  }

  it.each([
    ['Redis', 'redisA', 'redisB'],
    ['PostgreSQL', 'postgresA', 'postgresB'],
  ] as const)('holds a per-client limit across both gateways with the store on %s', async (_store, a, b) => {
    const slug = `limits-${a.toLowerCase()}-${randomBytes(3).toString('hex')}`;
    await newStore(gateways[a], slug);
    // Three times the budget, half through each gateway, all at once.
    const answers = await Promise.all(
      Array.from({ length: READS_PER_MINUTE * 3 }, (_, index) =>
        call(gateways[index % 2 === 0 ? a : b], 'GET', '/public/organization', {
          'x-organization-slug': slug,
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(READS_PER_MINUTE);
    expect(statuses.filter((status) => status === 429)).toHaveLength(READS_PER_MINUTE * 2);
    // Both gateways refused: neither kept a budget of its own.
    const refusedBy = new Set(answers.flatMap((answer, index) => (answer.status === 429 ? [index % 2] : [])));
    expect(refusedBy).toEqual(new Set([0, 1]));
  });

  it('has every gateway see a settings change made through another at once (the database notifies it)', async () => {
    const a = gateways.postgresA;
    const b = gateways.postgresB;
    const slug = `settings-${randomBytes(3).toString('hex')}`;
    const merchant = await newStore(a, slug);
    const storefront = 'https://storefront.example';
    // A customer read from the storefront's origin: CORS names the origin only when the tenant's
    // settings allow it, and the answer itself is a 401 (no session) that no rate limit counts.
    const allowedBy = async (gateway: string) =>
      (
        await fetch(`${gateway}/api/v1/customer/account/addresses`, {
          headers: { 'x-organization-slug': slug, origin: storefront },
        })
      ).headers.get('access-control-allow-origin');
    // Both gateways now keep the tenant, without the origin.
    expect(await allowedBy(a)).toBeNull();
    expect(await allowedBy(b)).toBeNull();

    const changed = await call(a, 'PATCH', '/merchant/settings', merchant, {
      apiSettings: { allowedOrigins: [storefront] },
    });
    expect(changed.status).toBe(200);
    const since = Date.now();
    expect(await allowedBy(a)).toBe(storefront);
    await expect.poll(() => allowedBy(b), { timeout: 5_000, interval: 10 }).toBe(storefront);
    // Typically tens of milliseconds; the bound leaves room for a loaded CI machine and stays far
    // under the 15 s time-to-live, so only the database's notice can have told gateway B.
    expect(Date.now() - since).toBeLessThan(2_000);
  });

  it('reads through one gateway the orders placed through the other, and the worker emails each once', async () => {
    const a = gateways.redisA;
    const b = gateways.redisB;
    const slug = `orders-${randomBytes(3).toString('hex')}`;
    const merchant = await newStore(a, slug);
    const item = await call(b, 'POST', '/merchant/items', merchant, {
      slug: 'tee',
      name: 'Tee',
      type: 'SALE',
      status: 'ACTIVE',
    });
    expect(item.status).toBe(201);

    const recipients = Array.from({ length: 6 }, (_, index) => `buyer${index}@${slug}.test`);
    const placed = await Promise.all(
      recipients.map((email, index) =>
        call(
          index % 2 === 0 ? a : b,
          'POST',
          '/public/orders',
          { 'x-organization-slug': slug },
          {
            customerName: 'Ada Lovelace',
            customerEmail: email,
            items: [
              { itemId: item.body.id, variantId: null, name: 'Tee', quantity: 1, unitPriceInCents: 1250 },
            ],
          },
        ),
      ),
    );
    expect(placed.map((answer) => answer.status)).toEqual(recipients.map(() => 201));
    for (const [index, order] of placed.entries()) {
      const read = await call(index % 2 === 0 ? b : a, 'GET', `/merchant/orders/${order.body.id}`, merchant);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({ id: order.body.id, customerEmail: recipients[index] });
    }

    // The worker sends each confirmation; a few polls later, none has gone twice.
    const deadline = Date.now() + 20_000;
    while (recipients.some((email) => !sink.delivered.has(email)) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(recipients.map((email) => sink.delivered.get(email))).toEqual(recipients.map(() => 1));
    const rows = await database.db
      .selectFrom('outbox')
      .innerJoin('organizations', 'organizations.id', 'outbox.organization_id')
      .select(['outbox.status', 'outbox.attempts'])
      .where('organizations.slug', '=', slug)
      .execute();
    expect(rows).toEqual(recipients.map(() => ({ status: 'DONE', attempts: 1 })));
  });

  it('replays an idempotency key through the other gateway', async () => {
    const a = gateways.postgresA;
    const b = gateways.postgresB;
    const slug = `replay-${randomBytes(3).toString('hex')}`;
    const merchant = await newStore(a, slug);
    const item = await call(a, 'POST', '/merchant/items', merchant, {
      slug: 'lamp',
      name: 'Lamp',
      type: 'SALE',
      status: 'ACTIVE',
      priceInCents: 4900,
    });
    const variant = await call(a, 'POST', `/merchant/items/${item.body.id}/variants`, merchant, {
      name: 'Brass',
      priceInCents: 2500,
      inventoryQuantity: 10,
    });
    const zone = await call(a, 'POST', '/merchant/shipping/zones', merchant, {
      name: 'Europe',
      countries: ['DE'],
    });
    await call(a, 'POST', `/merchant/shipping/zones/${zone.body.id}/rates`, merchant, {
      name: 'Standard',
      priceInCents: 500,
    });
    const tenant = { 'x-organization-slug': slug };
    const session = await call(a, 'POST', '/public/checkout/sessions', tenant, {
      lines: [{ itemId: item.body.id, variantId: variant.body.id, quantity: 1 }],
      email: 'shopper@example.com',
      customerName: 'Shopper',
    });
    expect(session.status).toBe(201);
    const steps = `/public/checkout/sessions/${session.body.checkoutToken}`;
    expect((await call(b, 'POST', `${steps}/reprice`, tenant, { shippingCountry: 'DE' })).status).toBe(200);
    expect((await call(a, 'POST', `${steps}/bind`, tenant, {})).status).toBe(200);

    const key = { 'x-idempotency-key': `scale-out-${randomBytes(8).toString('hex')}` };
    const first = await call(a, 'POST', `${steps}/payment-session`, key, {});
    expect(first.status).toBe(200);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const replayed = await call(b, 'POST', `${steps}/payment-session`, key, {});
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(first.body);
    // One order behind both answers.
    const orders = await database.db
      .selectFrom('orders')
      .innerJoin('organizations', 'organizations.id', 'orders.organization_id')
      .select('orders.id')
      .where('organizations.slug', '=', slug)
      .execute();
    expect(orders.map((order) => order.id)).toEqual([first.body.orderId]);
  });
});
