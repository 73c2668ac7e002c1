import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { loadConfig } from '@commerce/core';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { type RunningGateway, startGateway } from '../../src/server.ts';

/**
 * One client cannot take every connection (HTTP_MAX_CONNECTIONS_PER_CLIENT), on real sockets: the
 * loopback range gives two client addresses (127.0.0.2, the hostile one, and 127.0.0.1).
 */
const MAX_CONNECTIONS = 20;
const PER_CLIENT = 5;
const HOSTILE = '127.0.0.2';
const ORDINARY = '127.0.0.1';

let gateway: RunningGateway;
let port: number;
const warnings: Record<string, unknown>[] = [];
beforeAll(async () => {
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    SEED_DEMO: 'false',
    RUN_WORKER: 'false',
    // Long enough that the slow sockets are still open while the ordinary client asks.
    HTTP_HEADERS_TIMEOUT_MS: '20000',
    HTTP_REQUEST_TIMEOUT_MS: '30000',
    HTTP_MAX_CONNECTIONS: String(MAX_CONNECTIONS),
    HTTP_MAX_CONNECTIONS_PER_CLIENT: String(PER_CLIENT),
  });
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split('\n')) if (line.trim()) warnings.push(JSON.parse(line));
      done();
    },
  });
  gateway = await startGateway(config, createLogger('warn', sink), { database: await createTestDatabase() });
  port = Number(new URL(gateway.url).port);
}, 60_000);
afterAll(async () => {
  await gateway.close();
});

interface Slow {
  socket: Socket;
  closed: boolean;
}

/** A socket from `from` that sends a request line and then a header line every 200 ms, never ending. */
async function slowClient(from: string): Promise<Slow> {
  const socket = connect({ port, host: '127.0.0.1', localAddress: from });
  const slow: Slow = { socket, closed: false };
  socket.on('error', () => {});
  socket.on('close', () => {
    slow.closed = true;
    clearInterval(timer);
  });
  const timer = setInterval(() => {
    if (!slow.closed) socket.write('X-Slow: 1\r\n');
  }, 200);
  await new Promise<void>((resolve) => {
    socket.once('connect', () => {
      socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n');
      resolve();
    });
    socket.once('close', () => resolve());
  });
  return slow;
}

/** A whole request from `from`: the status line of the answer, or why there was none. */
function request(from: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from });
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
      if (received.includes('\r\n')) {
        resolve(received.slice(0, received.indexOf('\r\n')));
        socket.destroy();
      }
    });
    socket.on('error', (error) => resolve(`error: ${error.message}`));
    socket.on('close', () => resolve(received || 'closed without an answer'));
    socket.once('connect', () =>
      socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'),
    );
  });
}

const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('connections per client', { timeout: 45_000 }, () => {
  it('keeps one address to its cap of slow sockets, and another address is still served promptly', async () => {
    const slow: Slow[] = [];
    for (let index = 0; index < MAX_CONNECTIONS * 2; index++) slow.push(await slowClient(HOSTILE));
    await settle(500);
    const started = performance.now();
    for (let index = 0; index < 5; index++) expect(await request(ORDINARY)).toBe('HTTP/1.1 200 OK');
    expect(performance.now() - started).toBeLessThan(5_000);

    // The newest beyond the cap were closed; the first ones stay open (their headers still coming).
    expect(slow.filter((socket) => !socket.closed)).toHaveLength(PER_CLIENT);
    expect(slow.slice(0, PER_CLIENT).every((socket) => !socket.closed)).toBe(true);

    // The hostile address still has its own slow sockets, and gets no more.
    expect(await request(HOSTILE)).toBe('closed without an answer');
    expect(warnings.some((line) => String(line.msg).includes('HTTP_MAX_CONNECTIONS_PER_CLIENT'))).toBe(true);

    // Closing them gives the address its connections back.
    for (const socket of slow) socket.socket.destroy();
    await settle(200);
    expect(await request(HOSTILE)).toBe('HTTP/1.1 200 OK');
  });
});
