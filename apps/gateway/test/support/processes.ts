/**
 * Real processes for the end-to-end tests: the gateway's and the worker's entry points started
 * from source with tsx (as production starts their builds), and an SMTP sink that counts what
 * the worker delivers.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { SMTPServer } from 'smtp-server';

export const GATEWAY_DIR = fileURLToPath(new URL('../..', import.meta.url));
export const WORKER_DIR = fileURLToPath(new URL('../../../worker', import.meta.url));

export interface Started {
  name: string;
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** The pino lines logged so far, parsed. */
  lines: Array<Record<string, unknown>>;
  /** Every line of stdout and every chunk of stderr, for failure messages. */
  output: string[];
  /** The first log line with this message; rejects if the process exits first. */
  logged(message: string): Promise<Record<string, unknown>>;
  alive(): boolean;
  /** SIGTERM, then SIGKILL after 10 s; resolves once the process has exited. */
  stop(): Promise<void>;
}

/**
 * Variables of the test run's own environment a child must not inherit: its database, mail,
 * limits, mode and address come from `env` alone.
 */
const NOT_INHERITED = /^(DATABASE_|SMTP_|RATE_LIMIT_|NODE_ENV$|LOG_LEVEL$|PORT$|HOST$|TEST_|PGAPPNAME$)/;

/** Starts `src/main.ts` of the package in `cwd` with `env`; its pino lines are parsed as they come. */
export function startProcess(name: string, cwd: string, env: Record<string, string>): Started {
  const inherited = { ...process.env };
  for (const variable of Object.keys(inherited)) {
    if (NOT_INHERITED.test(variable)) delete inherited[variable];
  }
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: Array<Record<string, unknown>> = [];
  const output: string[] = [];
  const waiters: Array<{ message: string; resolve: (line: Record<string, unknown>) => void }> = [];
  let buffered = '';
  child.stdout.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const complete = buffered.split('\n');
    buffered = complete.pop() ?? '';
    for (const text of complete) {
      output.push(text);
      let line: Record<string, unknown>;
      try {
        line = JSON.parse(text) as Record<string, unknown>;
      } catch {
        continue;
      }
      lines.push(line);
      for (const waiter of waiters) if (line.msg === waiter.message) waiter.resolve(line);
    }
  });
  child.stderr.on('data', (chunk: Buffer) => output.push(chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  return {
    name,
    child,
    lines,
    output,
    alive,
    logged(message) {
      const found = lines.find((line) => line.msg === message);
      if (found) return Promise.resolve(found);
      return new Promise((resolve, reject) => {
        waiters.push({ message, resolve });
        void exited.then(() =>
          reject(new Error(`${name} exited before logging "${message}":\n${output.slice(-20).join('\n')}`)),
        );
      });
    },
    async stop() {
      if (!alive()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

export interface SmtpSink {
  port: number;
  /** Messages accepted so far, by recipient. */
  delivered: Map<string, number>;
  close(): Promise<void>;
}

/** An SMTP server on an ephemeral port of 127.0.0.1 that accepts every message and counts it. */
export async function startSmtpSink(): Promise<SmtpSink> {
  const delivered = new Map<string, number>();
  const server = new SMTPServer({
    logger: false,
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      stream.on('data', () => {});
      stream.on('end', () => {
        for (const { address } of session.envelope.rcptTo) {
          delivered.set(address, (delivered.get(address) ?? 0) + 1);
        }
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('the SMTP sink has no port');
  return {
    port: address.port,
    delivered,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
