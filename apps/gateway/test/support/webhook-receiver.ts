import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedWebhook {
  headers: Record<string, string>;
  body: string;
}

/** A real HTTP receiver on 127.0.0.1 that records every webhook it gets and answers `status()`. */
export async function startWebhookReceiver() {
  const received: ReceivedWebhook[] = [];
  const state = { status: () => 200 };
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: flatten(req.headers), body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(state.status()).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    received,
    state,
    /** The bodies received so far, parsed. */
    events: () =>
      received.map(
        (request) =>
          JSON.parse(request.body) as {
            id: string;
            type: string;
            data: { id?: string; [field: string]: unknown };
          },
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function flatten(headers: IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers))
    if (value !== undefined) flat[name] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}
