/**
 * `pnpm --filter @commerce/bench bench:hosted-phone` (or `npx tsx hosted-phone.ts` in bench/): the
 * hosted checkout page opened on a throttled phone. Builds the hosted app (`vite build` under the
 * environment it runs in, so `NODE_ENV=development pnpm …` shows what such a build ships) and the
 * gateway, starts the gateway as in production on PGlite (demo organization), adds an item with a
 * shipping rate and opens a checkout session as a storefront would, then opens its page in headless
 * Chromium at 390 × 844 (touch, 3× pixels) with DevTools' network throttling and the CPU slowed 4×:
 *
 *   - bytes: what crossed the network (headers and bodies as sent, `encodedDataLength`) until the
 *     form was usable, and by the time the network went quiet, split into scripts and the rest;
 *   - usable: milliseconds from navigation start until the details form shows an enabled email
 *     field and its submit button (seen by a MutationObserver in the page, so the clock is the
 *     page's own `performance.now()`);
 *   - the same again for a second visit in the same browser (the hashed assets come from its cache).
 *
 * Each run is a new browser context (an empty cache); the median of BENCH_RUNS is reported.
 * Profiles are DevTools' presets: "Fast 4G" (165 ms latency, 9 Mbit/s down, 1.5 Mbit/s up, each
 * × 0.9) and "Slow 4G" (562.5 ms, 1.6 Mbit/s, 750 kbit/s, × 0.9), which Lighthouse's mobile run uses.
 *
 * Knobs (environment): BENCH_RUNS (3), BENCH_PROFILES (fast4g,slow4g), BENCH_CPU_SLOWDOWN (4),
 * BENCH_SKIP_BUILD (1 to serve what is built), BENCH_CHROMIUM (/usr/bin/chromium),
 * BENCH_OUTPUT (results/hosted-phone.json).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium } from 'playwright-core';
import {
  benchJwt,
  callJson,
  demoOwnerToken,
  freshBenchDatabase,
  intEnv,
  productionGatewayEnv,
} from './gateway-env.ts';
import { GATEWAY_DIR, RESULTS_DIR, ROOT } from './paths.ts';
import {
  freePort,
  logTail,
  runBench,
  type ServerProcess,
  startServer,
  waitUntilHealthy,
} from './processes.ts';

const HOSTED_DIR = path.join(ROOT, 'apps/hosted');

interface Profile {
  name: string;
  latency: number;
  /** Bytes per second. */
  downloadThroughput: number;
  uploadThroughput: number;
}

const PROFILES: Record<string, Profile> = {
  fast4g: {
    name: 'Fast 4G',
    latency: 60 * 2.75,
    downloadThroughput: ((9 * 1000 * 1000) / 8) * 0.9,
    uploadThroughput: ((1.5 * 1000 * 1000) / 8) * 0.9,
  },
  slow4g: {
    name: 'Slow 4G',
    latency: 150 * 3.75,
    downloadThroughput: ((1.6 * 1000 * 1000) / 8) * 0.9,
    uploadThroughput: ((750 * 1000) / 8) * 0.9,
  },
};

const settings = {
  runs: Math.max(1, intEnv('BENCH_RUNS', 3)),
  profiles: (process.env.BENCH_PROFILES ?? 'fast4g,slow4g').split(',').map((name) => {
    const profile = PROFILES[name.trim()];
    if (!profile)
      throw new Error(`BENCH_PROFILES: unknown profile "${name}" (${Object.keys(PROFILES).join(', ')})`);
    return profile;
  }),
  cpuSlowdown: Math.max(1, intEnv('BENCH_CPU_SLOWDOWN', 4)),
  skipBuild: process.env.BENCH_SKIP_BUILD === '1',
  chromium: process.env.BENCH_CHROMIUM ?? '/usr/bin/chromium',
  output: process.env.BENCH_OUTPUT ?? path.join(RESULTS_DIR, 'hosted-phone.json'),
};

function log(line: string): void {
  process.stdout.write(`${line}\n`);
}

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
};

/** A store item with a shipping rate, and a checkout session for it: the page's path. */
async function openCheckout(gateway: ServerProcess, jwt: ReturnType<typeof benchJwt>): Promise<string> {
  const merchant = { 'x-organization-slug': 'demo', authorization: `Bearer ${await demoOwnerToken(jwt)}` };
  const api = `${gateway.url}/api/v1`;
  const created = async (what: string, url: string, body: unknown, headers = merchant) => {
    const reply = await callJson(url, body, headers);
    if (reply.status !== 201) throw new Error(`${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
    return reply.body as { id: string; checkoutToken?: string };
  };
  const item = await created('item', `${api}/merchant/items`, {
    slug: `bench-mug-${Date.now()}`,
    name: 'Stoneware mug',
    type: 'SALE',
    status: 'ACTIVE',
    priceInCents: 1800,
  });
  const zone = await created('zone', `${api}/merchant/shipping/zones`, {
    name: 'Americas',
    countries: ['US'],
  });
  await created('rate', `${api}/merchant/shipping/zones/${zone.id}/rates`, {
    name: 'Standard',
    priceInCents: 500,
  });
  const session = await created(
    'session',
    `${api}/public/checkout/sessions`,
    { lines: [{ itemId: item.id, quantity: 2 }] },
    { 'x-organization-slug': 'demo' } as typeof merchant,
  );
  return `/hosted/demo/checkout?token=${session.checkoutToken}`;
}

interface Visit {
  usableMs: number;
  /** Bytes on the wire (headers and bodies as sent) until the form was usable. */
  bytesUntilUsable: number;
  scriptBytesUntilUsable: number;
  /** Bytes on the wire once the network was quiet, and the requests made. */
  bytesTotal: number;
  requests: number;
  /** The Content-Encoding of each script answer (`identity` when none). */
  scriptEncodings: string[];
}

/**
 * Waits in the page for the details form: an enabled email field and its form's submit button
 * (a script for the page, as text: this package is typechecked without the DOM's types).
 */
const WATCH_FOR_USABLE_FORM = `(() => {
  const mark = () => {
    const email = document.querySelector('form input[type="email"]:not([disabled])');
    const submit = email && email.form && email.form.querySelector('button[type="submit"]:not([disabled])');
    if (!email || !submit || email.getClientRects().length === 0) return false;
    window.usableAt = performance.now();
    return true;
  };
  const observer = new MutationObserver(() => { if (mark()) observer.disconnect(); });
  observer.observe(document, { subtree: true, childList: true, attributes: true });
})();`;

async function visit(context: BrowserContext, url: string, profile: Profile): Promise<Visit> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: profile.latency,
    downloadThroughput: profile.downloadThroughput,
    uploadThroughput: profile.uploadThroughput,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: settings.cpuSlowdown });
  const requests = new Map<string, { type: string; encoding: string }>();
  let bytes = 0;
  let scriptBytes = 0;
  cdp.on('Network.responseReceived', (event) => {
    const headers = Object.fromEntries(
      Object.entries(event.response.headers).map(([name, value]) => [name.toLowerCase(), String(value)]),
    );
    requests.set(event.requestId, { type: event.type, encoding: headers['content-encoding'] ?? 'identity' });
  });
  cdp.on('Network.loadingFinished', (event) => {
    bytes += event.encodedDataLength;
    if (requests.get(event.requestId)?.type === 'Script') scriptBytes += event.encodedDataLength;
  });
  await page.addInitScript({ content: WATCH_FOR_USABLE_FORM });
  await page.goto(url, { waitUntil: 'commit' });
  await page.waitForFunction(() => (globalThis as { usableAt?: number }).usableAt !== undefined, null, {
    timeout: 60_000,
    polling: 50,
  });
  const usableAt = { bytes, scriptBytes };
  const usableMs = await page.evaluate(() => (globalThis as unknown as { usableAt: number }).usableAt);
  await page.waitForLoadState('networkidle');
  const result: Visit = {
    usableMs: Math.round(usableMs),
    bytesUntilUsable: usableAt.bytes,
    scriptBytesUntilUsable: usableAt.scriptBytes,
    bytesTotal: bytes,
    requests: requests.size,
    scriptEncodings: [...requests.values()].filter((r) => r.type === 'Script').map((r) => r.encoding),
  };
  await cdp.detach();
  await page.close();
  return result;
}

interface ProfileResult {
  profile: Profile;
  cpuSlowdown: number;
  first: Visit[];
  repeat: Visit[];
  median: {
    firstUsableMs: number;
    firstBytesUntilUsable: number;
    firstScriptBytesUntilUsable: number;
    firstBytesTotal: number;
    repeatUsableMs: number;
    repeatBytesTotal: number;
  };
}

async function main(): Promise<void> {
  mkdirSync(RESULTS_DIR, { recursive: true });
  // The clock is the page's: a busy machine (other processes on its cores) slows it as the CPU throttle does.
  const loadBefore = os.loadavg()[0]!;
  if (!settings.skipBuild) {
    log(`building the hosted app (NODE_ENV=${process.env.NODE_ENV ?? 'unset'}) and the gateway`);
    execFileSync(
      process.execPath,
      [path.join(HOSTED_DIR, 'node_modules/vite/bin/vite.js'), 'build', '--logLevel', 'warn'],
      {
        cwd: HOSTED_DIR,
        stdio: 'inherit',
      },
    );
    execFileSync(process.execPath, ['build.mjs'], { cwd: GATEWAY_DIR, stdio: 'inherit' });
  }
  const jwt = benchJwt();
  const { connection, dispose } = await freshBenchDatabase('pglite', {
    adminUrl: '',
    database: '',
    label: 'hosted-phone',
  });
  const port = await freePort();
  const gateway = startServer({
    name: 'gateway',
    args: [path.join(GATEWAY_DIR, 'dist/main.js')],
    cwd: ROOT,
    port,
    logFile: path.join(RESULTS_DIR, 'hosted-phone-gateway.log.tmp'),
    env: {
      ...productionGatewayEnv({ port, connection, jwt, logLevel: 'warn' }),
      HOSTED_CHECKOUT_URL: `http://127.0.0.1:${port}/hosted/{orgSlug}`,
    },
  });
  const browser = await chromium.launch({
    executablePath: settings.chromium,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
    ],
  });
  try {
    await waitUntilHealthy(gateway);
    const url = `${gateway.url}${await openCheckout(gateway, jwt)}`;
    const results: ProfileResult[] = [];
    for (const profile of settings.profiles) {
      const first: Visit[] = [];
      const repeat: Visit[] = [];
      for (let run = 0; run < settings.runs; run++) {
        const context = await browser.newContext({
          viewport: { width: 390, height: 844 },
          deviceScaleFactor: 3,
          isMobile: true,
          hasTouch: true,
          locale: 'en-US',
        });
        first.push(await visit(context, url, profile));
        repeat.push(await visit(context, url, profile));
        await context.close();
        log(
          `${profile.name} run ${run + 1}: usable ${first.at(-1)!.usableMs} ms, ` +
            `${first.at(-1)!.bytesUntilUsable} B until usable (${first.at(-1)!.scriptBytesUntilUsable} B of scripts, ` +
            `${[...new Set(first.at(-1)!.scriptEncodings)].join('/')}), ${first.at(-1)!.bytesTotal} B in all; ` +
            `again: ${repeat.at(-1)!.usableMs} ms, ${repeat.at(-1)!.bytesTotal} B`,
        );
      }
      if (gateway.exited) throw new Error(`the gateway exited:\n${logTail(gateway)}`);
      results.push({
        profile,
        cpuSlowdown: settings.cpuSlowdown,
        first,
        repeat,
        median: {
          firstUsableMs: median(first.map((v) => v.usableMs)),
          firstBytesUntilUsable: median(first.map((v) => v.bytesUntilUsable)),
          firstScriptBytesUntilUsable: median(first.map((v) => v.scriptBytesUntilUsable)),
          firstBytesTotal: median(first.map((v) => v.bytesTotal)),
          repeatUsableMs: median(repeat.map((v) => v.usableMs)),
          repeatBytesTotal: median(repeat.map((v) => v.bytesTotal)),
        },
      });
    }
    const load = { before: loadBefore, after: os.loadavg()[0]!, cpus: os.availableParallelism() };
    log(
      `\nmachine: ${load.cpus} CPUs, load average ${load.before.toFixed(1)} before, ${load.after.toFixed(1)} after`,
    );
    log('median of each profile (first visit, then a second one in the same browser):');
    for (const { profile, median: m } of results)
      log(
        `  ${profile.name}, CPU ÷${settings.cpuSlowdown}: usable ${m.firstUsableMs} ms, ` +
          `${(m.firstBytesUntilUsable / 1000).toFixed(1)} kB until usable (scripts ${(m.firstScriptBytesUntilUsable / 1000).toFixed(1)} kB), ` +
          `${(m.firstBytesTotal / 1000).toFixed(1)} kB in all; again: ${m.repeatUsableMs} ms, ${(m.repeatBytesTotal / 1000).toFixed(1)} kB`,
      );
    writeFileSync(
      settings.output,
      `${JSON.stringify(
        {
          startedAt: new Date().toISOString(),
          buildNodeEnv: process.env.NODE_ENV ?? null,
          load,
          settings,
          results,
        },
        null,
        2,
      )}\n`,
    );
    log(`wrote ${path.relative(ROOT, settings.output)}`);
  } finally {
    await browser.close();
    await gateway.stop();
    await dispose();
  }
}

runBench(main);
