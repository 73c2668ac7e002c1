import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { appRouter, publicProcedure, router } from '@commerce/api';
import { loadConfig, ManualClock } from '@commerce/core';
import { createTestDatabase } from '@commerce/db/testing';
import { enqueueEmail } from '@commerce/notifications';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger } from '../../src/logger.ts';
import { startGateway } from '../../src/server.ts';
import { PLATFORM_TOKEN } from '../support/harness.ts';

const quietLogger = () =>
  createLogger(
    'warn',
    new Writable({
      write(_chunk, _encoding, done) {
        done();
      },
    }),
  );

describe('the started server', () => {
  it('serves real HTTP end to end and lets in-flight requests finish on shutdown', async () => {
    let releaseSlow!: () => void;
    const slowGate = new Promise<void>((resolve) => {
      releaseSlow = resolve;
    });
    let markStarted!: () => void;
    const slowStarted = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    const testRouter = router({
      ...appRouter._def.record,
      slow: publicProcedure
        .meta({ openapi: { method: 'GET', path: '/test/slow' } })
        .input(z.object({}))
        .output(z.object({ finished: z.boolean() }))
        .query(async () => {
          markStarted();
          await slowGate;
          return { finished: true };
        }),
    });
    const database = await createTestDatabase();
    const config = loadConfig({
      NODE_ENV: 'test',
      PORT: '0',
      HOST: '127.0.0.1',
      PLATFORM_ADMIN_TOKEN: PLATFORM_TOKEN,
      SEED_DEMO: 'false',
    });
    const clock = new ManualClock(new Date());
    const gateway = await startGateway(config, quietLogger(), { database, router: testRouter, clock });

    const health = await fetch(`${gateway.url}/healthz`);
    expect(health.status).toBe(200);
    expect(health.headers.get('x-request-id')).toMatch(/^req_/);
    const created = await fetch(`${gateway.url}/api/v1/platform/organizations`, {
      method: 'POST',
      headers: { authorization: `Bearer ${PLATFORM_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ slug: 'live', name: 'Live', owner: { email: 'owner@live.test' } }),
    });
    expect(created.status).toBe(201);
    const read = await fetch(`${gateway.url}/api/v1/public/organization`, {
      headers: { 'x-organization-slug': 'live' },
    });
    const organization = (await read.json()) as { id: string; slug: string; name: string };
    expect(organization).toMatchObject({ slug: 'live', name: 'Live' });

    // The in-process worker delivers what a transaction put in the outbox.
    const organizationId = organization.id;
    await enqueueEmail(database.db, {
      organizationId,
      templateType: 'ORDER_CONFIRMATION',
      to: 'buyer@example.com',
      subject: 'Your order',
      text: 'Thanks',
      at: clock.now(),
    });
    const deadline = Date.now() + 10_000;
    let delivered: { subject: string }[] = [];
    while (delivered.length === 0 && Date.now() < deadline) {
      delivered = await database.db
        .selectFrom('dev_emails')
        .select('subject')
        .where('organization_id', '=', organizationId)
        .execute();
      if (delivered.length === 0) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(delivered).toEqual([{ subject: 'Your order' }]);

    const inFlight = fetch(`${gateway.url}/api/v1/test/slow`);
    await slowStarted;
    const closed = gateway.close();
    // Closing refuses new requests at once, while the slow request is still running: 503 with
    // `Connection: close` while the listener stays open for a moment (docs/operations.md, "Shutdown").
    const refused = await fetch(`${gateway.url}/healthz`, { headers: { connection: 'close' } });
    expect(refused.status).toBe(503);
    expect(refused.headers.get('connection')).toBe('close');
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('SERVICE_UNAVAILABLE');
    releaseSlow();
    const finished = await inFlight;
    expect(finished.status).toBe(200);
    expect(await finished.json()).toEqual({ finished: true });
    await closed;
    await expect(database.ping()).rejects.toThrow();
  }, 60_000);

  // A real process on a fresh embedded database (initdb or its snapshot, every migration, the demo
  // seed), which a CI machine running every package's tests at once takes its time over.
  it('starts from main.ts on the embedded database with the demo organization and exits cleanly on SIGTERM', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-e2e-'));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: join(import.meta.dirname, '..', '..'),
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: '',
        LOG_LEVEL: 'info',
        NODE_ENV: 'development',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const lines: Record<string, unknown>[] = [];
      let buffered = '';
      const listening = new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (chunk: Buffer) => {
          buffered += chunk.toString();
          const parts = buffered.split('\n');
          buffered = parts.pop() ?? '';
          for (const part of parts) {
            if (!part.trim()) continue;
            const line = JSON.parse(part) as Record<string, unknown>;
            lines.push(line);
            if (line.msg === 'gateway listening') resolve(String(line.url));
          }
        });
        child.once('exit', (code) => reject(new Error(`exited early with ${code}`)));
      });
      const url = await listening;
      const demo = await fetch(`${url}/api/v1/public/organization`, {
        headers: { 'x-organization-slug': 'demo' },
      });
      expect(demo.status).toBe(200);
      expect(await demo.json()).toMatchObject({ slug: 'demo', name: 'Demo Store' });

      const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(lines.map((line) => line.msg)).toContain('gateway stopped');
    } finally {
      // A failed assertion must not leave the server running.
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('refuses to start from main.ts off loopback with the development webhook secret', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'gateway-e2e-'));
    // A merchant secret of the operator's own, and PAYMENT_WEBHOOK_SECRET left at its development default.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PORT: '0',
      HOST: '0.0.0.0',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      NODE_ENV: 'development',
      MERCHANT_JWT_SECRET: 'an-operator-secret-that-is-not-the-development-one',
    };
    delete env.PAYMENT_WEBHOOK_SECRET;
    delete env.MERCHANT_JWKS_URL;
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
      cwd: join(import.meta.dirname, '..', '..'),
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const code = await new Promise<number | null>((resolve) =>
        child.once('exit', (exitCode) => resolve(exitCode)),
      );
      expect(code).toBe(1);
      expect(stderr).toContain('PAYMENT_WEBHOOK_SECRET: the development webhook secret is accepted only');
      expect(stderr).toContain('HOST is 0.0.0.0');
      expect(stdout).not.toContain('gateway listening');
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
