import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { MiddlewareHandler } from 'hono';
import { mergeVary } from './response-headers.ts';

const gzip = promisify(zlib.gzip);
const deflate = promisify(zlib.deflate);

export interface CompressionOptions {
  /** Answers below this many bytes go as they are. */
  threshold: number;
  /** zlib's level, 1 (fastest) to 9 (smallest). */
  level: number;
}

/**
 * How much `Accept-Encoding` accepts `encoding`: its quality (0 refuses it; `*` stands for any
 * encoding not named; an encoding not named and no `*` is 0).
 */
export function acceptedQuality(header: string | undefined, encoding: string): number {
  if (!header) return 0;
  const quality = new Map<string, number>();
  for (const part of header.split(',')) {
    const [name, ...parameters] = part.split(';').map((piece) => piece.trim().toLowerCase());
    if (!name) continue;
    let q = 1;
    for (const parameter of parameters) {
      const [key, value] = parameter.split('=').map((piece) => piece.trim());
      if (key === 'q') q = Number(value);
    }
    quality.set(name, Number.isFinite(q) && q >= 0 && q <= 1 ? q : 0);
  }
  return quality.get(encoding) ?? quality.get('*') ?? 0;
}

/**
 * The encoding `Accept-Encoding` prefers among gzip and deflate, by quality (`q=0` refuses one;
 * `*` stands for any not named); gzip on a tie; null for neither.
 */
export function preferredEncoding(header: string | undefined): 'gzip' | 'deflate' | null {
  const gzipQuality = acceptedQuality(header, 'gzip');
  const deflateQuality = acceptedQuality(header, 'deflate');
  if (gzipQuality > 0 && gzipQuality >= deflateQuality) return 'gzip';
  return deflateQuality > 0 ? 'deflate' : null;
}

/**
 * Compresses a JSON answer of `threshold` bytes or more for a client that accepts gzip (else
 * deflate). zlib runs on libuv's thread pool, not on the thread that serves requests, and at
 * the level given: level 1 makes a large search answer about a tenth of its size for a fraction
 * of the CPU of the default level 6 (which Hono's `compress` uses, through web streams). Every
 * answer it could compress says `Vary: Accept-Encoding`, compressed or not, so a cache keeps the
 * two apart; `Cache-Control: no-transform` and partial answers are left alone.
 */
export function compressLargeJson({ threshold, level }: CompressionOptions): MiddlewareHandler {
  return async (c, next) => {
    await next();
    const response = c.res;
    if (
      c.req.method === 'HEAD' ||
      response.status === 206 ||
      response.body === null ||
      response.headers.has('content-encoding') ||
      !(response.headers.get('content-type') ?? '').startsWith('application/json') ||
      /\bno-transform\b/i.test(response.headers.get('cache-control') ?? '')
    )
      return;
    response.headers.set('vary', mergeVary(response.headers.get('vary'), 'Accept-Encoding'));
    const encoding = preferredEncoding(c.req.header('accept-encoding'));
    if (encoding === null) return;
    const plain = new Uint8Array(await response.arrayBuffer());
    if (plain.byteLength < threshold) {
      c.res = new Response(plain, response);
      return;
    }
    const body = await (encoding === 'gzip' ? gzip : deflate)(plain, { level });
    c.res = new Response(body, response);
    c.res.headers.set('content-encoding', encoding);
    c.res.headers.delete('content-length');
  };
}
