import { type AddressInfo, connect, createServer, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { capConnectionsPerClient } from '../../src/connection-cap.ts';

let server: Server | undefined;
const sockets: Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  server = undefined;
});

/** A plain TCP server under the cap; answers the number of connections from each address still open. */
async function listen(trustProxy: number | string[]) {
  server = createServer(() => {});
  capConnectionsPerClient(server, { maxPerClient: 2, ipv6Prefix: 64, trustProxy });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return async (from: string, count: number) => {
    const opened = await Promise.all(
      Array.from(
        { length: count },
        () =>
          new Promise<{ socket: Socket; open: () => boolean }>((resolve) => {
            const socket = connect({ port, host: '127.0.0.1', localAddress: from });
            let closed = false;
            socket.on('error', () => {});
            socket.on('close', () => {
              closed = true;
            });
            sockets.push(socket);
            socket.once('connect', () => resolve({ socket, open: () => !closed }));
          }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    return opened.filter((entry) => entry.open()).length;
  };
}

describe('capConnectionsPerClient', () => {
  it('closes the connections of one address beyond the cap and leaves another address alone', async () => {
    const open = await listen(0);
    expect(await open('127.0.0.2', 5)).toBe(2);
    expect(await open('127.0.0.1', 2)).toBe(2);
  });

  it('does not cap the sockets of trusted proxies (many clients each)', async () => {
    const open = await listen(['127.0.0.2']);
    expect(await open('127.0.0.2', 5)).toBe(5);
    expect(await open('127.0.0.3', 5)).toBe(2);
  });

  it('leaves the cap to the proxy when TRUST_PROXY is a number of hops (every peer is a proxy)', async () => {
    const open = await listen(1);
    expect(await open('127.0.0.2', 5)).toBe(5);
  });
});
