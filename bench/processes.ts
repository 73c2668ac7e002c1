import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { closeSync, openSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** A server process the bench started; its output goes to a log file, never through the runner. */
export interface ServerProcess {
  name: string;
  pid: number;
  url: string;
  logFile: string;
  /** performance.now() at spawn. */
  spawnedAt: number;
  /** Date.now() at spawn, to compare with the timestamps of the server's log. */
  spawnedAtEpochMs: number;
  exited: boolean;
  /** How it exited ("code 1", "signal SIGTERM"), once it has. */
  exitReason: string | undefined;
  stop(): Promise<void>;
}

const running = new Set<ServerProcess>();

/** A port nobody listens on right now (the OS picks it). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface StartOptions {
  name: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  port: number;
  logFile: string;
}

/** Spawns `node <args>` with stdout and stderr appended to `logFile`. */
export function startServer(options: StartOptions): ServerProcess {
  const fd = openSync(options.logFile, 'w');
  const spawnedAt = performance.now();
  const spawnedAtEpochMs = Date.now();
  let child: ChildProcess;
  try {
    child = spawn(process.execPath, options.args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', fd, fd],
    });
  } finally {
    closeSync(fd);
  }
  if (child.pid === undefined) throw new Error(`${options.name} did not start`);
  const exit = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const server: ServerProcess = {
    name: options.name,
    pid: child.pid,
    url: `http://127.0.0.1:${options.port}`,
    logFile: options.logFile,
    spawnedAt,
    spawnedAtEpochMs,
    exited: false,
    exitReason: undefined,
    async stop() {
      running.delete(server);
      if (server.exited) return;
      child.kill('SIGTERM');
      const stopped = await Promise.race([exit.then(() => true), sleep(10_000).then(() => false)]);
      if (!stopped) {
        child.kill('SIGKILL');
        await exit;
      }
    },
  };
  child.once('exit', (code, signal) => {
    server.exited = true;
    server.exitReason = signal ? `signal ${signal}` : `code ${code}`;
  });
  running.add(server);
  return server;
}

/** Stops every server still running (the runner's `finally` and signal handlers). */
export async function stopAll(): Promise<void> {
  await Promise.allSettled([...running].map((server) => server.stop()));
}

export function logTail(server: ServerProcess, lines = 20): string {
  try {
    return readFileSync(server.logFile, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

/** Milliseconds from spawn to the first 200 on /healthz. */
export async function waitUntilHealthy(server: ServerProcess, timeoutMs = 60_000): Promise<number> {
  const deadline = performance.now() + timeoutMs;
  while (performance.now() < deadline) {
    if (server.exited) {
      throw new Error(
        `${server.name} exited (${server.exitReason}) before it answered /healthz:\n${logTail(server)}`,
      );
    }
    try {
      const response = await fetch(`${server.url}/healthz`, { signal: AbortSignal.timeout(1_000) });
      await response.arrayBuffer();
      if (response.status === 200) return performance.now() - server.spawnedAt;
    } catch {
      // Not listening yet.
    }
    await sleep(5);
  }
  throw new Error(`${server.name} did not answer /healthz within ${timeoutMs} ms:\n${logTail(server)}`);
}

export interface Memory {
  /** Resident set size now, in KiB. */
  rssKb: number;
  /** Peak resident set size since start, in KiB. */
  hwmKb: number;
}

/** VmRSS and VmHWM from /proc/<pid>/status (Linux). */
export function readMemory(pid: number): Memory {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string) => {
    const match = new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status);
    if (!match?.[1]) throw new Error(`/proc/${pid}/status has no ${name}`);
    return Number(match[1]);
  };
  return { rssKb: field('VmRSS'), hwmKb: field('VmHWM') };
}

/** Samples RSS every `intervalMs` until stopped; returns the largest sample. */
export function sampleRss(pid: number, intervalMs = 500): { stop(): number } {
  let maxKb = readMemory(pid).rssKb;
  const timer = setInterval(() => {
    try {
      maxKb = Math.max(maxKb, readMemory(pid).rssKb);
    } catch {
      // The process is gone; the run will fail on its own.
    }
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      return maxKb;
    },
  };
}

let ticksPerSecond: number | undefined;

/** CPU time (user + system) the process has used so far, in milliseconds, from /proc/<pid>/stat. */
export function readCpuMs(pid: number): number {
  ticksPerSecond ??= Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the parenthesised command name, which may hold spaces: state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
}

/** Milliseconds from spawn to the first log line with this `msg` (pino's ISO `time`), if any. */
export function loggedAfterMs(server: ServerProcess, msg: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(server.logFile, 'utf8');
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    if (!line.includes(`"msg":"${msg}"`)) continue;
    try {
      const { time } = JSON.parse(line) as { time?: string };
      if (time) return Date.parse(time) - server.spawnedAtEpochMs;
    } catch {
      // Not JSON.
    }
  }
  return undefined;
}

/**
 * Starts the bare server (bare-server.ts, the ceiling) through tsx, with the
 * given environment (its database, JWT and rate-limit settings), and waits
 * for its first 200.
 */
export async function startBareServer(options: {
  name: string;
  logFile: string;
  env: NodeJS.ProcessEnv;
}): Promise<{ server: ServerProcess; coldStartMs: number }> {
  const port = await freePort();
  const server = startServer({
    name: options.name,
    args: ['--import', 'tsx', path.join(import.meta.dirname, 'bare-server.ts')],
    cwd: import.meta.dirname,
    port,
    logFile: options.logFile,
    env: { ...options.env, NODE_ENV: 'production', PORT: String(port), HOST: '127.0.0.1' },
  });
  const coldStartMs = await waitUntilHealthy(server);
  return { server, coldStartMs: Math.round(coldStartMs * 100) / 100 };
}

/**
 * Runs a bench's `main`: on SIGINT or SIGTERM, or when it fails (the error printed), every server it
 * started is stopped and the process exits 1.
 */
export function runBench(main: () => Promise<void>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      void stopAll().then(() => process.exit(1));
    });
  }
  main().catch(async (error: unknown) => {
    process.stdout.write(`${String(error instanceof Error ? (error.stack ?? error.message) : error)}\n`);
    await stopAll();
    process.exit(1);
  });
}
