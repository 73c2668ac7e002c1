import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { MiddlewareHandler } from 'hono';

const gzip = promisify(zlib.gzip);
const deflate = promisify(zlib.deflate);

export interface CompressionOptions {
  /** Answers below this many bytes go as they are. */
  threshold: number;
  /** zlib's level, 1 (fastest) to 9 (smallest). */
  level: number;
}

/**
 * Compresses a JSON answer of `threshold` bytes or more for a client that accepts gzip (else
 * deflate). zlib runs on libuv's thread pool, not on the thread that serves requests, and at
 * the level given: level 1 makes a large search answer about a tenth of its size for a fraction
 * of the CPU of the default level 6 (which Hono's `compress` uses, through web streams).
 */
export function compressLargeJson({ threshold, level }: CompressionOptions): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const response = c.res;
    const accepted = c.req.header('accept-encoding') ?? '';
    const encoding = accepted.includes('gzip') ? 'gzip' : accepted.includes('deflate') ? 'deflate' : null;
    if (
      encoding === null ||
      c.req.method === 'HEAD' ||
      response.body === null ||
      response.headers.has('content-encoding') ||
      !(response.headers.get('content-type') ?? '').startsWith('application/json')
    )
      return;
    const plain = new Uint8Array(await response.arrayBuffer());
    const body =
      plain.byteLength < threshold ? plain : await (encoding === 'gzip' ? gzip : deflate)(plain, { level });
    c.res = new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
    if (body !== plain) {
      c.res.headers.set('content-encoding', encoding);
      c.res.headers.delete('content-length');
    }
    c.res.headers.append('vary', 'Accept-Encoding');
  };
}
