import { gunzipSync, inflateSync } from 'node:zlib';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { compressLargeJson, preferredEncoding } from '../../src/compression.ts';

describe('preferredEncoding', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['gzip', 'gzip'],
    ['deflate', 'deflate'],
    ['gzip, deflate, br', 'gzip'],
    ['deflate;q=1, gzip;q=0.5', 'deflate'],
    ['gzip;q=0, deflate', 'deflate'],
    ['gzip;q=0', null],
    ['*', 'gzip'],
    ['*;q=0', null],
    ['identity', null],
    ['br', null],
    ['GZIP;Q=0.8', 'gzip'],
    ['gzip;q=abc, deflate;q=0.1', 'deflate'],
  ] as const)('%s → %s', (header, expected) => {
    expect(preferredEncoding(header)).toBe(expected);
  });
});

describe('compressLargeJson', () => {
  const large = { items: Array.from({ length: 2000 }, (_, index) => ({ index, name: `item ${index}` })) };
  const app = new Hono();
  app.use('*', compressLargeJson({ threshold: 1024, level: 1 }));
  app.get('/large', (c) => c.json(large));
  app.get('/small', (c) => c.json({ ok: true }));
  app.get('/no-transform', (c) => {
    c.header('cache-control', 'no-transform');
    return c.json(large);
  });
  app.get('/text', (c) => c.text('x'.repeat(5000)));

  const get = (path: string, acceptEncoding?: string) =>
    app.request(path, { headers: acceptEncoding ? { 'accept-encoding': acceptEncoding } : {} });

  it('compresses a large answer with the preferred encoding; the same JSON comes back', async () => {
    const gzipped = await get('/large', 'gzip');
    expect(gzipped.headers.get('content-encoding')).toBe('gzip');
    expect(gzipped.headers.get('content-length')).toBeNull();
    expect(JSON.parse(gunzipSync(Buffer.from(await gzipped.arrayBuffer())).toString())).toEqual(large);
    const deflated = await get('/large', 'gzip;q=0, deflate');
    expect(deflated.headers.get('content-encoding')).toBe('deflate');
    expect(JSON.parse(inflateSync(Buffer.from(await deflated.arrayBuffer())).toString())).toEqual(large);
  });

  it('says Vary: Accept-Encoding on every answer it could compress, compressed or not', async () => {
    for (const [path, encoding] of [
      ['/large', 'gzip'],
      ['/large', undefined],
      ['/small', 'gzip'],
    ] as const) {
      const response = await get(path, encoding);
      expect(response.headers.get('vary'), `${path} ${encoding}`).toBe('Accept-Encoding');
    }
    expect((await get('/large')).headers.get('content-encoding')).toBeNull();
    expect((await get('/small', 'gzip')).headers.get('content-encoding')).toBeNull();
  });

  it('leaves alone what asks not to be transformed and what is not JSON', async () => {
    const untouched = await get('/no-transform', 'gzip');
    expect(untouched.headers.get('content-encoding')).toBeNull();
    expect(await untouched.json()).toEqual(large);
    expect((await get('/text', 'gzip')).headers.get('content-encoding')).toBeNull();
  });
});
