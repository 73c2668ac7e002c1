import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acceptedPrecompressed, hostedContentSecurityPolicy } from '../../src/hosted-app.ts';
import { createHarness, type Harness } from '../support/harness.ts';

let built: Harness;
let missing: Harness;
let dir: string;
const INDEX =
  '<!doctype html><html lang="en"><head><title>Store</title></head><body><div id="root"></div></body></html>';

const SCRIPT = `export const greetings = [${Array.from({ length: 200 }, (_, i) => `"hello ${i}"`).join(',')}];`;
const STYLES = `body { margin: 0 }\n${'.row { display: flex }\n'.repeat(50)}`;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hosted-dist-'));
  await mkdir(join(dir, 'assets'));
  await writeFile(join(dir, 'index.html'), INDEX);
  await writeFile(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  await writeFile(join(dir, 'secret.txt'), 'not an asset');
  // A script the build compressed both ways, a stylesheet it compressed with gzip only.
  await writeFile(join(dir, 'assets', 'main-def456.js'), SCRIPT);
  await writeFile(join(dir, 'assets', 'main-def456.js.br'), brotliCompressSync(SCRIPT));
  await writeFile(join(dir, 'assets', 'main-def456.js.gz'), gzipSync(SCRIPT));
  await writeFile(join(dir, 'assets', 'main-def456.css'), STYLES);
  await writeFile(join(dir, 'assets', 'main-def456.css.gz'), gzipSync(STYLES));
  built = await createHarness({ hostedAppDir: dir });
  missing = await createHarness({ hostedAppDir: join(dir, 'nowhere') });
});
afterAll(async () => {
  await built.close();
  await missing.close();
  await rm(dir, { recursive: true, force: true });
});

describe('the hosted app', () => {
  it('answers its page at /hosted/:orgSlug/* and at the root link paths, never cached, under its policy', async () => {
    for (const path of [
      '/hosted/acme',
      '/hosted/acme/account/orders/or1_0123',
      '/hosted/acme/order-status?token=o1_x',
      '/account/verify?token=l1_x',
      '/account',
      '/order-status?token=o1_x',
      '/cart/reminders/unsubscribe?token=u1_x',
      '/email/unsubscribe?token=u1_x',
      '/bookings/manage/m1_x',
      '/checkout/c1_x',
    ]) {
      const response = await built.app.request(path);
      expect(response.status, path).toBe(200);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-store');
      const policy = response.headers.get('content-security-policy') ?? '';
      const nonce = /'nonce-([A-Za-z0-9+/=]+)'/.exec(policy)?.[1] ?? '';
      expect(policy).toBe(hostedContentSecurityPolicy(nonce));
      expect(response.headers.get('x-frame-options')).toBe('DENY');
      expect(response.headers.get('x-request-id')).toMatch(/^req_/);
      // The page is the build's, with this answer's style nonce where React Aria reads it.
      expect(await response.text()).toBe(
        INDEX.replace('<head>', `<head><meta property="csp-nonce" nonce="${nonce}">`),
      );
    }
    const policy = hostedContentSecurityPolicy('n');
    expect(policy).toContain("script-src 'self' https://js.stripe.com");
    expect(policy).toContain("connect-src 'self' https://api.stripe.com");
  });

  it('allows the style element React Aria inserts by a nonce new with every answer, never unsafe-inline', async () => {
    const nonces = new Set<string>();
    for (let index = 0; index < 3; index++) {
      const response = await built.app.request('/hosted/acme/checkout/c1_x');
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(policy).not.toContain('unsafe-inline');
      const nonce = /style-src 'self' 'nonce-([A-Za-z0-9+/]{22}==)'/.exec(policy)?.[1];
      expect(nonce).toBeDefined();
      expect(await response.text()).toContain(`<meta property="csp-nonce" nonce="${nonce}">`);
      nonces.add(nonce!);
    }
    expect(nonces.size).toBe(3);
  });

  it('serves hashed assets with a year of cache and nothing outside the assets folder', async () => {
    const asset = await built.app.request('/hosted/_app/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(await asset.text()).toBe('console.log(1)');
    for (const path of [
      '/hosted/_app/assets/missing.js',
      '/hosted/_app/assets/..%2Fsecret.txt',
      '/hosted/_app/assets/..%2Findex.html',
      '/hosted/_app/assets/%2E%2E/secret.txt',
      '/hosted/_app/secret.txt',
      '/hosted/Not_A_Slug/account',
      // A malformed escape names no asset (decodeURIComponent would throw).
      '/hosted/_app/assets/%E0%A4%A.js',
      '/hosted/_app/assets/%',
    ]) {
      const response = await built.app.request(path);
      expect(response.status, path).toBe(404);
      expect(response.headers.get('content-type')).toContain('application/json');
    }
  });

  it('serves scripts and styles as the build precompressed them: brotli, else gzip, else as they are', async () => {
    const fetchAsset = async (path: string, acceptEncoding?: string) => {
      const response = await built.app.request(
        path,
        acceptEncoding === undefined ? {} : { headers: { 'accept-encoding': acceptEncoding } },
      );
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('vary')).toMatch(/accept-encoding/i);
      return {
        type: response.headers.get('content-type'),
        encoding: response.headers.get('content-encoding'),
        body: Buffer.from(await response.arrayBuffer()),
      };
    };
    const script = '/hosted/_app/assets/main-def456.js';
    for (const header of ['gzip, deflate, br, zstd', 'br', 'br;q=1, gzip;q=0.9', '*']) {
      const answer = await fetchAsset(script, header);
      expect(answer.encoding, header).toBe('br');
      expect(answer.type).toBe('text/javascript; charset=utf-8');
      expect(brotliDecompressSync(answer.body).toString()).toBe(SCRIPT);
    }
    for (const header of ['gzip, deflate', 'br;q=0.5, gzip', 'gzip, br;q=0', '*, br;q=0']) {
      const answer = await fetchAsset(script, header);
      expect(answer.encoding, header).toBe('gzip');
      expect(gunzipSync(answer.body).toString()).toBe(SCRIPT);
    }
    for (const header of [undefined, '', 'identity', 'deflate', 'br;q=0, gzip;q=0']) {
      const answer = await fetchAsset(script, header);
      expect(answer.encoding, header).toBeNull();
      expect(answer.body.toString()).toBe(SCRIPT);
    }
    // Only the encodings the build wrote: no brotli file, so gzip; gzip refused, so as it is.
    const styles = '/hosted/_app/assets/main-def456.css';
    const gzipped = await fetchAsset(styles, 'br, gzip');
    expect([gzipped.encoding, gzipped.type]).toEqual(['gzip', 'text/css; charset=utf-8']);
    expect(gunzipSync(gzipped.body).toString()).toBe(STYLES);
    expect((await fetchAsset(styles, 'br')).encoding).toBeNull();
    // The compressed files are not assets of their own.
    for (const path of [`${script}.br`, `${script}.gz`])
      expect((await built.app.request(path)).status, path).toBe(404);
    expect(acceptedPrecompressed('gzip;q=0.8, br;q=0.9')).toEqual(['br', 'gzip']);
    expect(acceptedPrecompressed('gzip;q=0.9, br;q=0.8')).toEqual(['gzip', 'br']);
  });

  it('leaves the API as it was', async () => {
    const response = await built.app.request('/api/v1/nothing-here');
    expect(response.status).toBe(404);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe('RESOURCE_NOT_FOUND');
    const health = await built.app.request('/healthz');
    expect(health.status).toBe(200);
  });

  it('answers a clear 503 page while the app is not built', async () => {
    const response = await missing.app.request('/hosted/acme/account');
    expect(response.status).toBe(503);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.text()).toContain('The hosted app is not built');
  });
});
