import { Writable } from 'node:stream';
import { TenantDirectory } from '@commerce/admin';
import { createMerchantTokenVerifier } from '@commerce/auth';
import { createDistanceProvider } from '@commerce/bookings';
import { type Config, loadConfig, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import { createCarrierProvider } from '@commerce/fulfillment';
import { createDevTransport, silentLogger } from '@commerce/notifications';
import {
  createPaymentEventBody,
  createPaymentProvider,
  type PaymentWebhookEvent,
  signWebhookPayload,
} from '@commerce/payments';
import { createRateLimiter, type RateLimiter } from '@commerce/rate-limit';
import type { Hono } from 'hono';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.ts';
import type { GatewayEnv } from '../../src/env.ts';
import { createLogger } from '../../src/logger.ts';
import type { GatewayPaymentEventHandler } from '../../src/webhooks.ts';
import { expectError } from '../support/harness.ts';

const WEBHOOK = '/api/v1/webhooks/payments';
const SECRET = 'whsec_gateway_test_secret';
const MAX_BODY_BYTES = 4096;

let database: DatabaseHandle;
let rateLimiter: RateLimiter;
let app: Hono<GatewayEnv>;
let config: Config;
const clock = new ManualClock('2026-11-23T18:00:00.000Z');
const logs: Record<string, unknown>[] = [];
/** What the handler saw, and what it should do next. */
const handled: PaymentWebhookEvent[] = [];
let handlerBehaviour: 'record' | 'fail' | 'deadlock' = 'record';
/** How many more runs of the handler lose a deadlock (PostgreSQL's 40P01) while `deadlock`. */
let deadlocksLeft = 0;

const handler: GatewayPaymentEventHandler = async (trx, event) => {
  handled.push(event);
  // A write of its own (any table will do), to show it commits or rolls back with the event id.
  await trx
    .insertInto('rate_limits')
    .values({ key: `effect:${event.id}` })
    .execute();
  if (handlerBehaviour === 'fail') throw new Error('settlement failed');
  if (handlerBehaviour === 'deadlock' && deadlocksLeft > 0) {
    deadlocksLeft -= 1;
    // As pg and PGlite report a transaction PostgreSQL ended to break a deadlock.
    throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
  }
  return undefined;
};

beforeAll(async () => {
  database = await createTestDatabase();
  config = loadConfig({
    NODE_ENV: 'test',
    PAYMENT_WEBHOOK_SECRET: SECRET,
    MAX_BODY_BYTES: String(MAX_BODY_BYTES),
  });
  rateLimiter = createRateLimiter({ kind: 'memory' });
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line));
      done();
    },
  });
  app = createApp({
    db: database.db,
    config,
    clock,
    merchantTokens: createMerchantTokenVerifier(config.merchantJwt, clock),
    rateLimiter,
    // Not listening: this file's tenant is looked up on every request.
    tenants: new TenantDirectory(database.db),
    mailer: createDevTransport(database.db, silentLogger, clock),
    payments: createPaymentProvider(config),
    distance: createDistanceProvider(config),
    carrier: createCarrierProvider(config, { db: database.db, clock }),
    onPaymentEvent: handler,
    logger: createLogger('info', sink),
    pingDatabase: database.ping,
    version: 'test',
  });
});

afterAll(async () => {
  await rateLimiter.close();
  await database.close();
});

beforeEach(() => {
  handled.length = 0;
  handlerBehaviour = 'record';
  deadlocksLeft = 0;
});

let eventSequence = 0;
function eventBody(type = 'payment_intent.succeeded', id = `evt_test_${++eventSequence}`): string {
  return createPaymentEventBody({
    id,
    type,
    intentId: 'pi_sandbox_0123456789abcdef01234567',
    amountInCents: 4200,
    currency: 'USD',
    metadata: { organizationId: 'org_1' },
    createdAt: clock.now(),
  });
}

function deliver(body: string, signature: string | undefined): Promise<Response> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (signature !== undefined) headers['stripe-signature'] = signature;
  return Promise.resolve(app.request(WEBHOOK, { method: 'POST', headers, body }));
}

const signNow = (body: string, secret = SECRET) => signWebhookPayload(secret, body, clock.now());
const idOf = (body: string) => (JSON.parse(body) as { id: string }).id;

async function recordedEvents(id: string) {
  return database.db.selectFrom('payment_webhook_events').selectAll().where('event_id', '=', id).execute();
}

async function effectsOf(id: string): Promise<number> {
  const rows = await database.db
    .selectFrom('rate_limits')
    .select('key')
    .where('key', '=', `effect:${id}`)
    .execute();
  return rows.length;
}

describe('POST /api/v1/webhooks/payments: happy paths', () => {
  it('applies a correctly signed event once, in one transaction with its recorded id', async () => {
    const body = eventBody();
    const response = await deliver(body, signNow(body));
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toMatch(/^req_/);
    expect(await response.json()).toEqual({ received: true, outcome: 'processed' });
    expect(handled).toHaveLength(1);
    expect(handled[0]).toMatchObject({
      id: idOf(body),
      type: 'payment_intent.succeeded',
      intentId: 'pi_sandbox_0123456789abcdef01234567',
      amountInCents: 4200,
      currency: 'USD',
      metadata: { organizationId: 'org_1' },
    });
    expect(await recordedEvents(idOf(body))).toEqual([
      {
        event_id: idOf(body),
        type: 'payment_intent.succeeded',
        intent_id: 'pi_sandbox_0123456789abcdef01234567',
        received_at: clock.now(),
      },
    ]);
    expect(await effectsOf(idOf(body))).toBe(1);
  });

  it('answers a replayed event id 200 without calling the handler again, even re-signed later', async () => {
    const body = eventBody('payment_intent.payment_failed');
    expect((await deliver(body, signNow(body))).status).toBe(200);
    const replay = await deliver(body, signNow(body));
    expect(replay.status).toBe(200);
    expect(await replay.json()).toEqual({ received: true, outcome: 'duplicate' });
    clock.advance(60 * 60 * 1000);
    const retried = await deliver(body, signNow(body));
    expect(await retried.json()).toEqual({ received: true, outcome: 'duplicate' });
    expect(handled).toHaveLength(1);
    expect(await effectsOf(idOf(body))).toBe(1);
  });

  it('acknowledges other event types and ignores them: no handler, nothing recorded', async () => {
    const body = eventBody('payment_intent.created');
    const response = await deliver(body, signNow(body));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ received: true, outcome: 'ignored' });
    const charge = JSON.stringify({
      id: 'evt_charge_1',
      type: 'charge.refunded',
      data: { object: { id: 'ch_1' } },
    });
    expect(await (await deliver(charge, signNow(charge))).json()).toEqual({
      received: true,
      outcome: 'ignored',
    });
    expect(handled).toHaveLength(0);
    expect(await recordedEvents(idOf(body))).toEqual([]);
    expect(await recordedEvents('evt_charge_1')).toEqual([]);
  });

  it('needs no tenant header or credential', async () => {
    const body = eventBody();
    const response = await app.request(WEBHOOK, {
      method: 'POST',
      headers: { 'stripe-signature': signNow(body), 'x-organization-slug': 'nobody' },
      body,
    });
    expect(response.status).toBe(200);
  });
});

describe('POST /api/v1/webhooks/payments: refused deliveries change nothing', () => {
  async function expectRefused(body: string, signature: string | undefined) {
    const error = await expectError(await deliver(body, signature), 400, 'WEBHOOK_SIGNATURE_INVALID');
    expect(error.details).toBeUndefined();
    expect(handled).toHaveLength(0);
    expect(await recordedEvents(idOf(body))).toEqual([]);
    expect(await effectsOf(idOf(body))).toBe(0);
  }

  it('refuses a missing Stripe-Signature header', async () => {
    await expectRefused(eventBody(), undefined);
  });

  it('refuses a signature by another secret', async () => {
    const body = eventBody();
    await expectRefused(body, signNow(body, 'whsec_someone_else'));
  });

  it('refuses a wrong or malformed signature', async () => {
    const body = eventBody();
    const t = Math.floor(clock.now().getTime() / 1000);
    await expectRefused(body, `t=${t},v1=${'0'.repeat(64)}`);
    await expectRefused(body, 'v1=abc');
    await expectRefused(body, 'nonsense');
  });

  it('refuses a body changed after signing', async () => {
    const body = eventBody();
    const signature = signNow(body);
    await expectRefused(body.replace('4200', '1'), signature);
  });

  it('refuses a signature more than five minutes old, and one more than five minutes ahead', async () => {
    const body = eventBody();
    const stale = signNow(body);
    clock.advance(301_000);
    await expectRefused(body, stale);
    const ahead = signWebhookPayload(SECRET, body, new Date(clock.now().getTime() + 301_000));
    await expectRefused(body, ahead);
    // Within the window both ways it is accepted.
    const justInside = signWebhookPayload(SECRET, body, new Date(clock.now().getTime() - 300_000));
    expect((await deliver(body, justInside)).status).toBe(200);
  });

  it('logs why a signature was refused, without the secret', async () => {
    const body = eventBody();
    await deliver(body, signNow(body, 'whsec_someone_else'));
    const line = logs.findLast((entry) => entry.msg === 'payment webhook signature refused');
    expect(line?.reason).toMatch(/signature/);
    expect(JSON.stringify(logs)).not.toContain(SECRET);
  });

  it('answers a correctly signed body that is not an event 400 VALIDATION_FAILED', async () => {
    for (const body of ['not json', '{"type":"payment_intent.succeeded"}']) {
      const error = await expectError(await deliver(body, signNow(body)), 400, 'VALIDATION_FAILED');
      expect(error.details?.issues?.[0]?.path).toBe('body');
    }
    expect(handled).toHaveLength(0);
  });

  it('refuses a body over MAX_BODY_BYTES with 413 before verifying it', async () => {
    const body = JSON.stringify({
      id: 'evt_big',
      type: 'payment_intent.succeeded',
      pad: 'x'.repeat(MAX_BODY_BYTES),
    });
    await expectError(await deliver(body, signNow(body)), 413, 'PAYLOAD_TOO_LARGE');
    expect(await recordedEvents('evt_big')).toEqual([]);
  });

  it('records nothing when the handler fails (500), so the processor’s retry applies the event', async () => {
    const body = eventBody();
    handlerBehaviour = 'fail';
    await expectError(await deliver(body, signNow(body)), 500, 'INTERNAL_ERROR');
    expect(await recordedEvents(idOf(body))).toEqual([]);
    expect(await effectsOf(idOf(body))).toBe(0);

    handlerBehaviour = 'record';
    const retry = await deliver(body, signNow(body));
    expect(await retry.json()).toEqual({ received: true, outcome: 'processed' });
    expect(await effectsOf(idOf(body))).toBe(1);
  });
});

describe('POST /api/v1/webhooks/payments: an event whose transaction loses deadlocks', () => {
  it('is applied again before the answer when a rerun succeeds', async () => {
    const body = eventBody();
    handlerBehaviour = 'deadlock';
    deadlocksLeft = 2;
    const response = await deliver(body, signNow(body));
    expect(await response.json()).toEqual({ received: true, outcome: 'processed' });
    expect(handled).toHaveLength(3);
    expect(await effectsOf(idOf(body))).toBe(1);
  });

  it('answers 503 SERVICE_UNAVAILABLE with Retry-After when every rerun loses, records nothing, and the redelivery applies it', async () => {
    const body = eventBody();
    handlerBehaviour = 'deadlock';
    deadlocksLeft = 100;
    const response = await deliver(body, signNow(body));
    const error = await expectError(response, 503, 'SERVICE_UNAVAILABLE');
    expect(Number(response.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(error.details).toEqual({ retryAfterSeconds: Number(response.headers.get('retry-after')) });
    // The first run and three reruns.
    expect(handled).toHaveLength(4);
    expect(await recordedEvents(idOf(body))).toEqual([]);
    expect(await effectsOf(idOf(body))).toBe(0);

    deadlocksLeft = 0;
    const redelivery = await deliver(body, signNow(body));
    expect(await redelivery.json()).toEqual({ received: true, outcome: 'processed' });
    expect(await effectsOf(idOf(body))).toBe(1);
  });
});

describe.skipIf(testDatabaseKind !== 'postgres')('POST /api/v1/webhooks/payments on PostgreSQL', () => {
  it('applies simultaneous deliveries of one event once', async () => {
    const body = eventBody();
    const signature = signNow(body);
    const responses = await Promise.all(Array.from({ length: 6 }, () => deliver(body, signature)));
    const outcomes = await Promise.all(
      responses.map(async (response) => ((await response.json()) as { outcome: string }).outcome),
    );
    expect(outcomes.sort()).toEqual([
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
      'processed',
    ]);
    expect(handled).toHaveLength(1);
    expect(await effectsOf(idOf(body))).toBe(1);
  });
});

describe('the OpenAPI document', () => {
  it('documents the webhook: no security, the signature header, its body, 200 and its error codes', async () => {
    const document = (await (await app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const operation = document.paths['/webhooks/payments']?.post as {
      security: unknown[];
      description: string;
      parameters: { name: string; in: string; required: boolean }[];
      requestBody: { content: Record<string, unknown> };
      responses: Record<string, unknown>;
    };
    expect(operation.security).toEqual([]);
    expect(operation.description).toContain('HMAC-SHA256');
    // An event that loses to concurrent changes on every rerun answers 503 (the processor redelivers), never 409.
    expect(operation.description).toContain('503 SERVICE_UNAVAILABLE');
    expect(operation.parameters).toEqual([
      expect.objectContaining({ name: 'Stripe-Signature', in: 'header', required: true }),
    ]);
    expect(operation.requestBody.content['application/json']).toBeDefined();
    expect(Object.keys(operation.responses).sort()).toEqual(['200', '400', '413', '500', '503']);
    expect(JSON.stringify(operation.responses['503'])).toContain('SERVICE_UNAVAILABLE');
    expect(JSON.stringify(operation.responses['400'])).toContain('WEBHOOK_SIGNATURE_INVALID');
    expect(JSON.stringify(operation.responses['413'])).toContain('PAYLOAD_TOO_LARGE');
  });
});
