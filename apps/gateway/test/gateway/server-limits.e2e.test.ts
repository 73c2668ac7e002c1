import { connect, type Socket } from 'node:net';
import { Writable } from 'node:stream';
import { loadConfig } from '@commerce/core';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/logger.ts';
import { type RunningGateway, startGateway } from '../../src/server.ts';

const HEADERS_TIMEOUT_MS = 300;
const REQUEST_TIMEOUT_MS = 600;
const MAX_CONNECTIONS = 3;

let gateway: RunningGateway;
let port: number;
beforeAll(async () => {
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    SEED_DEMO: 'false',
    HTTP_HEADERS_TIMEOUT_MS: String(HEADERS_TIMEOUT_MS),
    HTTP_REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    HTTP_MAX_CONNECTIONS: String(MAX_CONNECTIONS),
  });
  const sink = new Writable({ write: (_chunk, _encoding, done) => done() });
  gateway = await startGateway(config, createLogger('warn', sink), { database: await createTestDatabase() });
  port = Number(new URL(gateway.url).port);
}, 60_000);
afterAll(async () => {
  await gateway.close();
});

interface Connection {
  socket: Socket;
  /** Everything the server sent so far. */
  received(): Buffer;
  /** Resolves with the milliseconds from connecting until the server closed the connection. */
  closed: Promise<number>;
}

async function open(): Promise<Connection> {
  const started = performance.now();
  const socket = connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const closed = new Promise<number>((resolve) => {
    socket.on('close', () => resolve(performance.now() - started));
  });
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  return { socket, received: () => Buffer.concat(chunks), closed };
}

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error(`not within ${ms} ms`)), ms)),
  ]);

// Real sockets on a shared machine: generous limits, while the assertions still time the server.
describe('HTTP server limits', { timeout: 45_000 }, () => {
  it('answers 408 and closes a connection whose headers do not arrive within the header timeout', async () => {
    const connection = await open();
    connection.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    const elapsed = await within(connection.closed, 15_000);
    expect(elapsed).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_MS - 50);
    expect(connection.received().toString()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('answers 408 and closes a connection whose body does not arrive within the request timeout', async () => {
    const connection = await open();
    connection.socket.write(
      'POST /api/v1/public/checkout/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
    );
    const elapsed = await within(connection.closed, 15_000);
    expect(elapsed).toBeGreaterThanOrEqual(REQUEST_TIMEOUT_MS - 50);
    expect(connection.received().toString()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('does not time a slowly read response: a client reading a large answer slowly gets all of it', async () => {
    const connection = await open();
    connection.socket.pause();
    connection.socket.write(
      'GET /api/v1/docs/scalar.js HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
    );
    // Longer than both timeouts, with the server unable to finish writing the response.
    await new Promise((resolve) => setTimeout(resolve, REQUEST_TIMEOUT_MS * 2));
    connection.socket.resume();
    await within(connection.closed, 30_000);
    const response = connection.received();
    const headerEnd = response.indexOf('\r\n\r\n');
    const head = response.subarray(0, headerEnd).toString();
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    const length = /content-length: (\d+)/i.exec(head)?.[1];
    if (length) expect(response.length - headerEnd - 4).toBe(Number(length));
    else expect(head.toLowerCase()).toContain('transfer-encoding: chunked');
    expect(response.length).toBeGreaterThan(1_000_000);
  });

  it('closes connections beyond the cap as they arrive, and serves those within it', async () => {
    const held = await Promise.all(Array.from({ length: MAX_CONNECTIONS }, () => open()));
    // The server counts a connection once it has accepted it: let it see the held ones.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const refused = await open();
    await within(refused.closed, 10_000);
    expect(refused.received().length).toBe(0);

    const first = held[0]!;
    first.socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    await within(first.closed, 10_000);
    expect(first.received().toString()).toMatch(/^HTTP\/1\.1 200 /);
    for (const connection of held) connection.socket.destroy();
    await Promise.all(held.map((connection) => connection.closed));

    // Once connections are gone, new ones are served again.
    await new Promise((resolve) => setTimeout(resolve, 50));
    const health = await fetch(`${gateway.url}/healthz`);
    expect(health.status).toBe(200);
  });
});
