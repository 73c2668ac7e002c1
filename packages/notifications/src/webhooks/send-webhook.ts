import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { isIP } from 'node:net';
import { type HostResolver, isForbiddenAddress, systemResolver } from './url-safety.ts';

/** The most of a receiver's answer kept on its delivery (the rest is read and dropped). */
export const RESPONSE_BODY_LIMIT = 2048;

export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
  timeoutMs: number;
  /** Refuse, at connection time, any address `isForbiddenAddress` names. */
  allowPrivateHosts: boolean;
  resolve?: HostResolver;
}

export interface WebhookResponse {
  status: number;
  /** At most RESPONSE_BODY_LIMIT characters of the answer. */
  body: string;
  durationMs: number;
}

/** The delivery could not be made (refused address, timeout, connection failure): no response. */
export class WebhookSendError extends Error {
  override name = 'WebhookSendError';
  constructor(
    message: string,
    readonly durationMs: number,
  ) {
    super(message);
  }
}

/**
 * The lookup the connection uses: resolves the host, refuses it when any of its addresses is not
 * public, and hands the socket the addresses it checked, so the connection goes to exactly what was
 * checked (no second resolution a rebinding DNS could answer differently).
 */
function guardedLookup(resolve: HostResolver): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname).then(
      (addresses) => {
        const forbidden = addresses.find((entry) => isForbiddenAddress(entry.address));
        if (forbidden || addresses.length === 0) {
          const error = Object.assign(
            new Error(
              forbidden
                ? `${hostname} resolves to a non-public address (${forbidden.address}): refused`
                : `${hostname} does not resolve`,
            ),
            { code: 'EWEBHOOKADDRESS' },
          );
          callback(error, '', 4);
          return;
        }
        const wanted = options.family === 4 || options.family === 6 ? options.family : undefined;
        const usable = wanted ? addresses.filter((entry) => entry.family === wanted) : addresses;
        if (options.all) {
          (callback as unknown as (error: null, addresses: { address: string; family: number }[]) => void)(
            null,
            usable,
          );
          return;
        }
        const first = usable[0] ?? addresses[0]!;
        callback(null, first.address, first.family);
      },
      (error: unknown) => callback(error as NodeJS.ErrnoException, '', 4),
    );
  };
}

/**
 * POSTs one webhook: no redirect is followed (a 3xx is an answer like any other, and fails the
 * attempt), the whole exchange is bounded by `timeoutMs`, and only the start of the answer is kept.
 */
export function sendWebhookRequest(request: WebhookRequest): Promise<WebhookResponse> {
  const startedAt = performance.now();
  const elapsed = () => Math.round(performance.now() - startedAt);
  const url = new URL(request.url);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return new Promise((resolve, reject) => {
    if (!request.allowPrivateHosts && isIP(host) !== 0 && isForbiddenAddress(host)) {
      reject(new WebhookSendError(`${host} is not a public address: refused`, 0));
      return;
    }
    const transport = url.protocol === 'https:' ? https : http;
    const req = transport.request(url, {
      method: 'POST',
      headers: {
        ...request.headers,
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(request.body).toString(),
        'user-agent': 'Commerce-Webhooks/1',
      },
      // A name is resolved and checked by the guard; a literal address was checked above.
      ...(request.allowPrivateHosts ? {} : { lookup: guardedLookup(request.resolve ?? systemResolver) }),
      agent: false,
    });
    let settled = false;
    const fail = (error: Error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      reject(error instanceof WebhookSendError ? error : new WebhookSendError(error.message, elapsed()));
    };
    const timer = setTimeout(() => {
      const error = new WebhookSendError(`timed out after ${request.timeoutMs} ms`, elapsed());
      fail(error);
      req.destroy(error);
    }, request.timeoutMs);
    timer.unref();
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      res.on('data', (chunk: Buffer) => {
        if (kept < RESPONSE_BODY_LIMIT) {
          chunks.push(chunk);
          kept += chunk.length;
        }
      });
      res.on('end', () => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        // Kept for the merchant to read, as text: PostgreSQL text holds no NUL, and a receiver's
        // NUL would make the outcome unrecordable (the delivery sent again and again).
        const body = Buffer.concat(chunks)
          .toString('utf8')
          .slice(0, RESPONSE_BODY_LIMIT)
          .replaceAll('\u0000', '');
        resolve({ status: res.statusCode ?? 0, body, durationMs: elapsed() });
      });
      res.on('error', fail);
      res.on('close', () => fail(new Error('the connection closed before the answer ended')));
    });
    req.on('error', fail);
    req.end(request.body);
  });
}
