import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { describe, expect, it } from 'vitest';

const appDirectory = fileURLToPath(new URL('..', import.meta.url));

interface Exit {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Starts the entry point from source, with only the variables given on top of a clean environment. */
function startWorker(env: Record<string, string>): ChildProcessByStdio<null, Readable, Readable> {
  const inherited = { ...process.env };
  for (const name of ['DATABASE_URL', 'SMTP_URL', 'NODE_ENV', 'LOG_LEVEL']) delete inherited[name];
  return spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: appDirectory,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

function runWorker(env: Record<string, string>): Promise<Exit> {
  return new Promise((resolve, reject) => {
    const child = startWorker(env);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('worker entry point', () => {
  it('refuses to start without DATABASE_URL, because the embedded database lives in the gateway', async () => {
    const exit = await runWorker({});
    expect(exit.code).toBe(1);
    expect(exit.stderr).toContain('needs DATABASE_URL');
    expect(exit.stdout).toBe('');
  });

  it('stops with a clear message on a bad configuration value', async () => {
    const exit = await runWorker({ DATABASE_URL: 'postgres://127.0.0.1:1/x', WORKER_POLL_MS: '-5' });
    expect(exit.code).toBe(1);
    expect(exit.stderr).toContain('WORKER_POLL_MS');
  });

  it('logs a JSON error line and exits 1 when the database cannot be reached', async () => {
    const exit = await runWorker({ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/postgres' });
    expect(exit.code).toBe(1);
    const lines = exit.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { level: number; service: string; msg: string });
    expect(lines.at(-1)).toMatchObject({ level: 50, service: 'worker', msg: 'worker failed to start' });
  });
});

const testDatabaseUrl = process.env.TEST_DATABASE_URL;

// A process started from source (tsx) that migrates a fresh database: seconds alone, but several times
// slower while CI runs the gateway's suites beside it, so it has its own, longer timeout.
describe.skipIf(!testDatabaseUrl)('worker process on PostgreSQL', { timeout: 90_000 }, () => {
  it('migrates, delivers a queued email, logs JSON and exits 0 on SIGTERM', async () => {
    // A database of its own: the worker migrates its default schema, which must not be a shared one.
    const name = `worker_test_${randomBytes(5).toString('hex')}`;
    const adminUrl = new URL(testDatabaseUrl ?? '');
    const admin = new pg.Client({ connectionString: adminUrl.toString() });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const databaseUrl = new URL(adminUrl);
    databaseUrl.pathname = `/${name}`;
    try {
      const child = startWorker({ DATABASE_URL: databaseUrl.toString(), WORKER_POLL_MS: '20' });
      const lines: Array<Record<string, unknown>> = [];
      const waiters: Array<{ message: string; resolve: () => void }> = [];
      let buffered = '';
      child.stdout.on('data', (chunk: Buffer) => {
        buffered += chunk.toString();
        const complete = buffered.split('\n');
        buffered = complete.pop() ?? '';
        for (const text of complete) {
          const line = JSON.parse(text) as Record<string, unknown>;
          lines.push(line);
          for (const waiter of waiters) if (line.msg === waiter.message) waiter.resolve();
        }
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
      // Fails at once, with what the worker printed, if it exits before logging the message.
      const logged = (message: string) =>
        new Promise<void>((resolve, reject) => {
          if (lines.some((line) => line.msg === message)) resolve();
          else waiters.push({ message, resolve });
          void exited.then((code) =>
            reject(new Error(`worker exited (${code}) before "${message}": ${stderr.slice(0, 2000)}`)),
          );
        });

      await logged('worker running');
      const db = new pg.Client({ connectionString: databaseUrl.toString() });
      await db.connect();
      try {
        await db.query(`insert into organizations (id, slug, name) values ('org_w', 'w', 'W')`);
        await db.query(
          `insert into outbox (organization_id, id, kind, metadata, payload) values ('org_w', 'obx_w', 'email', $1, $2)`,
          [
            { templateType: 'customer.sign_in_code', recipientDomain: 'example.com' },
            { to: 'wendy@example.com', subject: 'Your code', text: 'Your code is 246810' },
          ],
        );
        await logged('email delivered');
        const row = await db.query(`select status, payload from outbox where id = 'obx_w'`);
        expect(row.rows[0]).toEqual({ status: 'DONE', payload: null });
      } finally {
        await db.end();
      }

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(lines.map((line) => line.msg)).toEqual(
        expect.arrayContaining([
          'outbox worker started',
          'shutting down',
          'outbox worker stopped',
          'worker stopped',
        ]),
      );
      expect(lines.every((line) => line.service === 'worker')).toBe(true);
      expect(JSON.stringify(lines)).not.toContain('246810');
      expect(JSON.stringify(lines)).not.toContain('wendy');
    } finally {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
