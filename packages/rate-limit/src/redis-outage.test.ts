import { randomBytes } from 'node:crypto';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectRateLimited } from '../test/rate-limiter-behaviour.ts';
import { createRateLimiter, type RateLimiter } from './create-rate-limiter.ts';
import { rateLimitKey } from './rate-limit-key.ts';

const redisUrl = process.env.TEST_REDIS_URL;

/**
 * A TCP proxy in front of the shared Redis that the test can cut and restore:
 * Redis "stopped and started" for this limiter only, while the server itself
 * (which others use) keeps running.
 */
class CuttableProxy {
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();
  port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async open(): Promise<void> {
    const server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.pipe(upstream).pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => server.listen(this.port, '127.0.0.1', resolve));
    this.port = (server.address() as { port: number }).port;
    this.server = server;
  }

  /** Drops every connection and refuses new ones, as a stopped server does. */
  async cut(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

describe.skipIf(!redisUrl)('rate limiter when its Redis stops and starts again', () => {
  const target = new URL(redisUrl ?? 'redis://127.0.0.1:6379');
  const proxy = new CuttableProxy({ host: target.hostname, port: Number(target.port || 6379) });
  const storeErrors: unknown[] = [];
  let proxied: RateLimiter;
  let direct: RateLimiter;

  beforeAll(async () => {
    await proxy.open();
    proxied = createRateLimiter(
      { kind: 'redis', url: `redis://127.0.0.1:${proxy.port}` },
      { onStoreError: (error) => storeErrors.push(error) },
    );
    direct = createRateLimiter({ kind: 'redis', url: redisUrl ?? '' });
  });

  afterAll(async () => {
    await proxied?.close();
    await direct?.close();
    await proxy.cut();
  });

  it('keeps answering from memory while Redis is away, and counts in Redis again once it is back', async () => {
    const rule = { name: `outage-${randomBytes(4).toString('hex')}`, points: 4, durationSeconds: 60 };
    const key = rateLimitKey(['org_1', '203.0.113.9']);
    await proxied.consume(rule, key);
    await proxied.consume(rule, key);
    expect(storeErrors).toEqual([]);

    await proxy.cut();
    // Decided from this process's memory: no throw, no crash, and the outage is reported.
    await proxied.consume(rule, key);
    expect(storeErrors.length).toBeGreaterThan(0);

    await proxy.open();
    // The client reconnects by itself; a probe on another key tells when the store answers again.
    const probe = rateLimitKey(['org_1', 'probe']);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const before = storeErrors.length;
      await proxied.consume({ ...rule, name: `${rule.name}-probe`, points: 1000 }, probe);
      if (storeErrors.length === before) break;
      if (Date.now() > deadline) throw new Error('the limiter did not reconnect to Redis');
      await sleep(100);
    }

    // Redis held the two points from before the cut; one more through the proxy, one directly:
    // the shared budget of four is spent, so the next call on either is refused.
    await proxied.consume(rule, key);
    await direct.consume(rule, key);
    await expectRateLimited(direct.consume(rule, key), 60);
  }, 20_000);
});
