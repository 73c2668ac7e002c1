import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { type IncomingHttpHeaders, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Hosted, startHosted } from './harness.ts';

/**
 * What the gateway serves of the hosted app: React's production build (never its development one,
 * whatever NODE_ENV the build ran under), sent precompressed to a client that accepts brotli or
 * gzip and as it is to one that accepts neither.
 */
const ROOT = join(import.meta.dirname, '..');
const ASSETS = join(ROOT, 'dist', 'assets');
/** Text only React's development build carries (its owner-stack frames, its key warning). */
const DEVELOPMENT_MARKERS = ['react-stack-top-frame', 'unique "key" prop'];
/** Text only React's production build carries (its errors are codes looked up on react.dev). */
const PRODUCTION_MARKER = 'Minified React error';

let hosted: Hosted;
beforeAll(async () => {
  hosted = await startHosted();
  await hosted.provision('acme');
});
afterAll(async () => hosted?.close());

/** The scripts and stylesheets of a built app's assets folder, by name. */
function builtFiles(dir: string): Map<string, string> {
  return new Map(
    readdirSync(dir)
      .filter((name) => /\.(js|css)$/.test(name))
      .map((name) => [name, readFileSync(join(dir, name), 'utf8')]),
  );
}

function expectProduction(scripts: string[]): void {
  const all = scripts.join('\n');
  expect(DEVELOPMENT_MARKERS.filter((marker) => all.includes(marker))).toEqual([]);
  expect(all.includes(PRODUCTION_MARKER)).toBe(true);
}

describe('the served bundle', () => {
  it('is the production build, brotli or gzip when accepted, as it is otherwise', async () => {
    const page = await (await fetch(`${hosted.origin}/hosted/acme/account/sign-in`)).text();
    const entry = /<script type="module" crossorigin src="(\/hosted\/_app\/assets\/[^"]+\.js)"/.exec(
      page,
    )?.[1];
    expect(entry).toBeDefined();
    const files = builtFiles(ASSETS);
    expect(files.has(entry!.split('/').pop()!)).toBe(true);
    const served: string[] = [];
    for (const [name, plain] of files) {
      const url = `${hosted.origin}/hosted/_app/assets/${name}`;
      // The raw bytes (node's fetch would decode them), with the headers every answer carries.
      const raw = async (acceptEncoding: string) => {
        const response = await new Promise<{ headers: IncomingHttpHeaders; status?: number; body: Buffer }>(
          (resolve, reject) => {
            request(url, { headers: { 'accept-encoding': acceptEncoding } }, (answer) => {
              const chunks: Buffer[] = [];
              answer.on('data', (chunk: Buffer) => chunks.push(chunk));
              answer.on('end', () =>
                resolve({ headers: answer.headers, status: answer.statusCode, body: Buffer.concat(chunks) }),
              );
              answer.on('error', reject);
            })
              .on('error', reject)
              .end();
          },
        );
        expect(response.status, name).toBe(200);
        expect(response.headers.vary, name).toMatch(/accept-encoding/i);
        expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
        expect(response.headers['content-type']).toMatch(
          name.endsWith('.js') ? /^text\/javascript/ : /^text\/css/,
        );
        return { encoding: response.headers['content-encoding'], body: response.body };
      };
      const big = plain.length > 1024;
      const br = await raw('gzip, deflate, br');
      const gz = await raw('gzip, deflate');
      const identity = await raw('identity');
      if (big) {
        expect([name, br.encoding, gz.encoding]).toEqual([name, 'br', 'gzip']);
        expect(brotliDecompressSync(br.body).toString()).toBe(plain);
        expect(gunzipSync(gz.body).toString()).toBe(plain);
        expect(br.body.byteLength).toBeLessThan(plain.length / 2);
      }
      expect(identity.encoding, name).toBeUndefined();
      expect(identity.body.toString()).toBe(plain);
      if (name.endsWith('.js')) served.push(plain);
    }
    expectProduction(served);
  });

  it('Chromium is sent the scripts compressed', async () => {
    const { page } = await hosted.newPage({ width: 390 });
    const encodings = new Map<string, string>();
    page.on('response', async (response) => {
      if (response.url().endsWith('.js'))
        encodings.set(response.url(), (await response.allHeaders())['content-encoding'] ?? 'identity');
    });
    await page.goto('/hosted/acme/account/sign-in');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(encodings.size).toBeGreaterThan(0);
    for (const [url, encoding] of encodings) expect(['br', 'gzip'], url).toContain(encoding);
  });

  it.each(['development', 'test'])(
    'stays the production build when built under NODE_ENV=%s',
    (nodeEnv) => {
      const outDir = mkdtempSync(join(tmpdir(), `hosted-build-${nodeEnv}-`));
      try {
        execFileSync(
          process.execPath,
          [
            join(ROOT, 'node_modules/vite/bin/vite.js'),
            'build',
            '--outDir',
            outDir,
            '--emptyOutDir',
            '--logLevel',
            'warn',
          ],
          { cwd: ROOT, stdio: 'pipe', env: { ...process.env, NODE_ENV: nodeEnv } },
        );
        const files = builtFiles(join(outDir, 'assets'));
        const scripts = [...files].filter(([name]) => name.endsWith('.js'));
        expectProduction(scripts.map(([, code]) => code));
        // React Aria's press style is in (a `test` build leaves it out).
        expect(scripts.some(([, code]) => code.includes('react-aria-pressable-style'))).toBe(true);
        // Each script is precompressed beside itself.
        for (const [name] of scripts.filter(([, code]) => code.length > 1024)) {
          expect(existsSync(join(outDir, 'assets', `${name}.br`)), name).toBe(true);
          expect(existsSync(join(outDir, 'assets', `${name}.gz`)), name).toBe(true);
        }
      } finally {
        rmSync(outDir, { recursive: true, force: true });
      }
    },
    180_000,
  );
});
