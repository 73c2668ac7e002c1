import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import net from 'node:net';
import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
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
          'webhook worker started',
          'shutting down',
          'outbox worker stopped',
          'webhook worker stopped',
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

/**
 * A minimal SMTP server: it accepts every message, counting it per recipient
 * when it answers 250, except while `holding`, when it reads the message and
 * never answers (a provider hanging, so a killed worker dies mid-send).
 */
interface SmtpSink {
  url: string;
  holding: boolean;
  /** Messages read and left unanswered. */
  held: number;
  /** Messages accepted (answered 250), per recipient. */
  accepted: Map<string, number>;
  /** When the last message was accepted (Date.now()). */
  lastAcceptedAt: number | undefined;
  close(): Promise<void>;
}

async function startSmtpSink(): Promise<SmtpSink> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    socket.setEncoding('utf8');
    let buffered = '';
    let inData = false;
    let recipients: string[] = [];
    socket.write('220 sink ESMTP\r\n');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      for (let end = buffered.indexOf('\r\n'); end !== -1; end = buffered.indexOf('\r\n')) {
        const line = buffered.slice(0, end);
        buffered = buffered.slice(end + 2);
        if (inData) {
          if (line !== '.') continue;
          inData = false;
          if (sink.holding) {
            sink.held += 1;
            continue;
          }
          for (const recipient of recipients)
            sink.accepted.set(recipient, (sink.accepted.get(recipient) ?? 0) + 1);
          sink.lastAcceptedAt = Date.now();
          socket.write('250 accepted\r\n');
          continue;
        }
        const command = line.slice(0, 4).toUpperCase();
        if (command === 'EHLO' || command === 'HELO') socket.write('250 sink\r\n');
        else if (command === 'MAIL') {
          recipients = [];
          socket.write('250 ok\r\n');
        } else if (command === 'RCPT') {
          recipients.push(/<([^>]*)>/.exec(line)?.[1] ?? '');
          socket.write('250 ok\r\n');
        } else if (command === 'DATA') {
          inData = true;
          socket.write('354 go ahead\r\n');
        } else if (command === 'QUIT') socket.end('221 bye\r\n');
        else socket.write('250 ok\r\n');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the SMTP sink has no port');
  const sink: SmtpSink = {
    url: `smtp://127.0.0.1:${address.port}`,
    holding: true,
    held: 0,
    accepted: new Map(),
    lastAcceptedAt: undefined,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
  return sink;
}

/** Follows a worker's JSON log; `logged` fails at once if the process exits before the line. */
function followLog(child: ChildProcessByStdio<null, Readable, Readable>) {
  const lines: Array<Record<string, unknown>> = [];
  const waiters: Array<{ message: string; resolve: () => void }> = [];
  let buffered = '';
  let stderr = '';
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
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const logged = (message: string) =>
    new Promise<void>((resolve, reject) => {
      if (lines.some((line) => line.msg === message)) resolve();
      else waiters.push({ message, resolve });
      void exited.then((code) =>
        reject(new Error(`worker exited (${code}) before "${message}": ${stderr.slice(0, 2000)}`)),
      );
    });
  return { lines, exited, logged };
}

const EMAILS = 20;
/** The worker's default OUTBOX_CONCURRENCY: the sends in flight when it is killed. */
const IN_FLIGHT = 10;

describe.skipIf(!testDatabaseUrl)('worker killed mid-send', { timeout: 120_000 }, () => {
  it("a restarted worker sends the killed worker's emails within about 15 s of the kill, each once", async () => {
    const name = `worker_test_${randomBytes(5).toString('hex')}`;
    const adminUrl = new URL(testDatabaseUrl ?? '');
    const admin = new pg.Client({ connectionString: adminUrl.toString() });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const databaseUrl = new URL(adminUrl);
    databaseUrl.pathname = `/${name}`;
    const sink = await startSmtpSink();
    const children: Array<ChildProcessByStdio<null, Readable, Readable>> = [];
    const env = { DATABASE_URL: databaseUrl.toString(), SMTP_URL: sink.url, WORKER_POLL_MS: '50' };
    try {
      const first = startWorker(env);
      children.push(first);
      const firstLog = followLog(first);
      await firstLog.logged('worker running');
      const db = new pg.Client({ connectionString: databaseUrl.toString() });
      await db.connect();
      try {
        await db.query(`insert into organizations (id, slug, name) values ('org_k', 'k', 'K')`);
        const recipients = Array.from({ length: EMAILS }, (_, index) => `buyer${index}@example.com`);
        // One statement, so the worker's first claim finds all of them and takes a full batch.
        await db.query(
          `insert into outbox (organization_id, id, kind, metadata, payload)
           select 'org_k', 'obx_k' || lpad(i::text, 2, '0'), 'email',
                  jsonb_build_object('templateType', 'ORDER_CONFIRMATION', 'recipientDomain', 'example.com'),
                  jsonb_build_object('to', 'buyer' || i || '@example.com', 'subject', 'Order confirmed',
                                     'text', 'Thank you for your order')
           from generate_series(0, $1::int - 1) as i`,
          [EMAILS],
        );
        // Every send of the first worker hangs at the provider; then the process is killed.
        for (let turn = 0; turn < 600 && sink.held < IN_FLIGHT; turn++) await sleep(50);
        expect(sink.held).toBe(IN_FLIGHT);
        first.kill('SIGKILL');
        await firstLog.exited;
        sink.holding = false;

        const restartedAt = Date.now();
        const second = startWorker(env);
        children.push(second);
        const secondLog = followLog(second);
        const deadline = restartedAt + 90_000;
        while (recipients.some((to) => !sink.accepted.has(to)) && Date.now() < deadline) await sleep(50);
        const lastEmailAfterMs = (sink.lastAcceptedAt ?? Number.NaN) - restartedAt;
        process.stdout.write(`killed worker's emails: last one ${lastEmailAfterMs} ms after the restart\n`);

        // At least once, and here exactly once: the killed worker's messages were never accepted.
        expect(recipients.map((to) => sink.accepted.get(to))).toEqual(recipients.map(() => 1));
        // The lease (15 s) ran from the claim, before the kill; then one poll (50 ms here) and the send.
        expect(lastEmailAfterMs).toBeLessThanOrEqual(16_000);
        // The sink answered before the worker recorded the outcome: wait for the last rows to be DONE.
        const readRows = () =>
          db.query<{ status: string; attempts: number }>(`select status, attempts from outbox order by id`);
        let rows = await readRows();
        while (rows.rows.some((row) => row.status !== 'DONE') && Date.now() < deadline) {
          await sleep(50);
          rows = await readRows();
        }
        expect(rows.rows.every((row) => row.status === 'DONE')).toBe(true);
        // The killed worker's claims were taken again after their lease: a second attempt each.
        expect(rows.rows.filter((row) => row.attempts === 2)).toHaveLength(IN_FLIGHT);

        second.kill('SIGTERM');
        expect(await secondLog.exited).toBe(0);
      } finally {
        await db.end();
      }
    } finally {
      for (const child of children)
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await sink.close();
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    }
  });
});
