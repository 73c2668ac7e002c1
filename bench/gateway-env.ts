/**
 * What every bench shares when it starts the built gateway: its settings
 * from the environment, the merchant token settings of the run, and the
 * environment of a gateway started as in production.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mintDevToken } from '@commerce/auth';
import { loadConfig } from '@commerce/core';
import { SMTPServer } from 'smtp-server';
import { dropBenchDatabase, recreateBenchDatabase } from './postgres.ts';

export type Engine = 'postgres' | 'pglite';
export type Connection = { databaseUrl?: string; dataDir?: string };

/** A whole-number setting from the environment, or `fallback` when unset or empty. */
export function intEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number`);
  return value;
}

/** BENCH_ENGINES (`postgres,pglite` by default); an unknown engine stops the bench. */
export function enginesFromEnv(): Engine[] {
  const engines = (process.env.BENCH_ENGINES ?? 'postgres,pglite')
    .split(',')
    .map((engine) => engine.trim())
    .filter(Boolean);
  for (const engine of engines) {
    if (engine !== 'postgres' && engine !== 'pglite')
      throw new Error(`BENCH_ENGINES: unknown engine "${engine}"`);
  }
  return engines as Engine[];
}

export interface BenchJwt {
  secret: string;
  issuer: string;
  audience: string;
}

/** The gateway's token settings: its defaults for issuer and audience, a secret of this run. */
export function benchJwt(): BenchJwt {
  const defaults = loadConfig({}).merchantJwt;
  return {
    secret: `bench-${randomBytes(24).toString('hex')}`,
    issuer: defaults.issuer,
    audience: defaults.audience,
  };
}

/** A bearer token of the demo organization's owner (seeded with SEED_DEMO), valid for an hour. */
export function demoOwnerToken(jwt: BenchJwt): Promise<string> {
  return mintDevToken({
    secret: jwt.secret,
    issuer: jwt.issuer,
    audience: jwt.audience,
    subject: 'bench|demo-owner',
    email: 'owner@demo.test',
    expiresInSeconds: 3600,
  });
}

/** A JSON answer of the gateway: its status and parsed body (`{}` when empty). */
export interface Reply {
  status: number;
  body: Record<string, unknown>;
}

/** Sends `body` as JSON (a string as it is) with `method` (POST by default). */
export async function callJson(
  url: string,
  body: unknown,
  headers: Record<string, string>,
  method = 'POST',
): Promise<Reply> {
  const response = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
}

/**
 * A mail server that takes every message and keeps none: production refuses to start without
 * SMTP_URL, and the benches' gateways deliver their emails (order confirmations …) as production
 * would. Shared by the process; it does not keep it alive.
 */
const smtpSink = await new Promise<string>((resolve, reject) => {
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, _session, callback) {
      stream.on('end', () => callback());
      stream.resume();
    },
  });
  server.on('error', reject);
  server.listen(0, '127.0.0.1', () => {
    const address = server.server.address();
    server.server.unref();
    if (address === null || typeof address === 'string') reject(new Error('the SMTP sink has no port'));
    else resolve(`smtp://127.0.0.1:${address.port}`);
  });
});

/**
 * The environment of a gateway started as in production on `connection`,
 * with the demo organization seeded and the run's token secret. Production
 * refuses the development webhook secret, so one is derived from the run's
 * secret unless the bench signs webhooks with one of its own.
 */
export function productionGatewayEnv(options: {
  port: number;
  connection: Connection;
  jwt: BenchJwt;
  logLevel: string;
  poolSize?: number;
  webhookSecret?: string;
}): NodeJS.ProcessEnv {
  const { connection, jwt } = options;
  return {
    NODE_ENV: 'production',
    PORT: String(options.port),
    HOST: '127.0.0.1',
    ...(connection.databaseUrl ? { DATABASE_URL: connection.databaseUrl } : {}),
    ...(connection.dataDir ? { DATA_DIR: connection.dataDir } : {}),
    ...(options.poolSize === undefined ? {} : { DATABASE_POOL_SIZE: String(options.poolSize) }),
    LOG_LEVEL: options.logLevel,
    SEED_DEMO: 'true',
    MERCHANT_JWT_SECRET: jwt.secret,
    MERCHANT_JWT_ISSUER: jwt.issuer,
    MERCHANT_JWT_AUDIENCE: jwt.audience,
    PAYMENT_WEBHOOK_SECRET: options.webhookSecret ?? `whsec_${jwt.secret}`,
    SMTP_URL: smtpSink,
    // The bench pays with the sandbox's test card: a staging store, as production allows one.
    PAYMENT_PROVIDER: 'sandbox',
    ALLOW_SANDBOX_IN_PRODUCTION: 'true',
    // The load generator is one loopback client: its connections are capped by the process total only.
    HTTP_MAX_CONNECTIONS_PER_CLIENT: '1024',
  };
}

/**
 * A fresh database for one engine's run: the PostgreSQL database `database`
 * dropped and recreated through `adminUrl`, or a new PGlite data directory.
 * `dispose` removes it again (unless `keep`, for PostgreSQL).
 */
export async function freshBenchDatabase(
  engine: Engine,
  options: { adminUrl: string; database: string; label: string; keep?: boolean },
): Promise<{ connection: Connection; dispose(): Promise<void> }> {
  if (engine === 'postgres') {
    const { url } = await recreateBenchDatabase(options.adminUrl, options.database);
    return {
      connection: { databaseUrl: url },
      dispose: async () => {
        if (!options.keep) await dropBenchDatabase(options.adminUrl, options.database);
      },
    };
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `commerce-bench-${options.label}-`));
  return {
    connection: { dataDir },
    dispose: async () => rmSync(dataDir, { recursive: true, force: true }),
  };
}
