import { Writable } from 'node:stream';
import { TenantDirectory } from '@commerce/admin';
import type { CachePurger } from '@commerce/api';
import { createMerchantTokenVerifier, mintDevToken } from '@commerce/auth';
import { createDistanceProvider, type DistanceProvider } from '@commerce/bookings';
import { DEVELOPMENT_JWT_SECRET, loadConfig, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { type CarrierProvider, createCarrierProvider } from '@commerce/fulfillment';
import { createDevTransport, type EmailTransport, silentLogger } from '@commerce/notifications';
import { createPaymentProvider, type PaymentProvider } from '@commerce/payments';
import { createRateLimiter } from '@commerce/rate-limit';
import type { AnyRouter } from '@trpc/server';
import type { Hono } from 'hono';
import { createApp } from '../../src/app.ts';
import type { GatewayEnv } from '../../src/env.ts';
import { createLogger } from '../../src/logger.ts';

export const PLATFORM_TOKEN = 'platform-test-token-0123456789abcdef';

export interface Harness {
  app: Hono<GatewayEnv>;
  database: DatabaseHandle;
  clock: ManualClock;
  /** Every JSON line the gateway logged. */
  logs: Record<string, unknown>[];
  token(input: { email: string; sub?: string; name?: string }): Promise<string>;
  /** Creates an organization through the platform route with `owner` as its Owner. */
  provision(slug: string, ownerEmail: string): Promise<{ id: string; slug: string; name: string }>;
  close(): Promise<void>;
}

/** The gateway in-process on an isolated test database, with a clock the test moves. */
export async function createHarness(
  options: {
    env?: Record<string, string>;
    router?: AnyRouter;
    clock?: ManualClock;
    /** The provider send-test talks to; the development transport by default. */
    mailer?: EmailTransport;
    /** The payment processor; the sandbox of the configuration by default. */
    payments?: PaymentProvider;
    /** Delivery distances; the provider of the configuration (the sandbox) by default. */
    distance?: DistanceProvider;
    /** The shipping-label carrier; the provider of the configuration (the sandbox) by default. */
    carrier?: CarrierProvider;
    /** PostgreSQL connections of the test database (concurrency tests); 10 by default. */
    poolSize?: number;
    /** The hosted app's build the gateway serves; apps/hosted/dist by default. */
    hostedAppDir?: string;
    /** Whether the gateway is shutting down (server.ts); never by default. */
    isDraining?: () => boolean;
    /** Told which public answers a merchant write changed; none by default. */
    cachePurger?: CachePurger;
  } = {},
): Promise<Harness> {
  const database = await createTestDatabase(
    options.poolSize === undefined ? {} : { poolSize: options.poolSize },
  );
  const clock = options.clock ?? new ManualClock(new Date());
  const config = loadConfig({ NODE_ENV: 'test', PLATFORM_ADMIN_TOKEN: PLATFORM_TOKEN, ...options.env });
  const logs: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) logs.push(JSON.parse(line));
      done();
    },
  });
  const rateLimiter = createRateLimiter({ kind: 'memory' });
  // As the gateway runs: tenants kept in memory, forgotten on the database's change notices.
  const tenants = new TenantDirectory(database.db);
  await tenants.listen(database);
  const app = createApp({
    db: database.db,
    config,
    clock,
    merchantTokens: createMerchantTokenVerifier(config.merchantJwt, clock),
    rateLimiter,
    tenants,
    mailer: options.mailer ?? createDevTransport(database.db, silentLogger, clock),
    payments: options.payments ?? createPaymentProvider(config),
    distance: options.distance ?? createDistanceProvider(config),
    carrier: options.carrier ?? createCarrierProvider(config, { db: database.db, clock }),
    logger: createLogger('info', sink),
    pingDatabase: database.ping,
    version: 'test',
    ...(options.router ? { router: options.router } : {}),
    ...(options.hostedAppDir ? { hostedAppDir: options.hostedAppDir } : {}),
    ...(options.isDraining ? { isDraining: options.isDraining } : {}),
    ...(options.cachePurger ? { cachePurger: options.cachePurger } : {}),
  });

  const harness: Harness = {
    app,
    database,
    clock,
    logs,
    token: ({ email, sub, name }) =>
      mintDevToken({
        // Production refuses the development secret: a production harness names a secret of its own.
        secret: config.merchantJwt.secret ?? DEVELOPMENT_JWT_SECRET,
        issuer: config.merchantJwt.issuer,
        audience: config.merchantJwt.audience,
        subject: sub ?? `test|${email}`,
        email,
        name,
        now: clock.now(),
      }),
    provision: async (slug, ownerEmail) => {
      const response = await app.request('/api/v1/platform/organizations', {
        method: 'POST',
        headers: { authorization: `Bearer ${PLATFORM_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ slug, name: `Org ${slug}`, owner: { email: ownerEmail } }),
      });
      if (response.status !== 201)
        throw new Error(`provision ${slug}: ${response.status} ${await response.text()}`);
      return (await response.json()) as { id: string; slug: string; name: string };
    },
    close: async () => {
      await tenants.close();
      await rateLimiter.close();
      await database.close();
    },
  };
  return harness;
}

export function json(body: unknown, headers: Record<string, string> = {}): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

export interface ErrorBody {
  error: {
    code: string;
    message: string;
    requestId: string;
    details?: { issues?: { path: string; message: string }[] };
  };
}

export async function errorOf(response: Response): Promise<ErrorBody['error']> {
  const body = (await response.json()) as ErrorBody;
  if (Object.keys(body).join() !== 'error') throw new Error(`not an error envelope: ${JSON.stringify(body)}`);
  if (body.error.requestId !== response.headers.get('x-request-id'))
    throw new Error('requestId differs from header');
  return body.error;
}

/** Asserts the status and code of an error response and returns the error. */
/** The body of a response that has `status`, else a failure naming what came instead. */
export async function expectJson<T>(response: Response, status: number): Promise<T> {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

export async function expectError(
  response: Response,
  status: number,
  code: string,
): Promise<ErrorBody['error']> {
  if (response.status !== status)
    throw new Error(`expected ${status} ${code}, got ${response.status}: ${await response.text()}`);
  const error = await errorOf(response);
  if (error.code !== code) throw new Error(`expected ${code}, got ${error.code}`);
  return error;
}
