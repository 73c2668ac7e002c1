import { mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { mintDevToken } from '@commerce/auth';
import { type Config, DEVELOPMENT_JWT_SECRET, loadConfig } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import axe from 'axe-core';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { createLogger } from '../../gateway/src/logger.ts';
import { type RunningGateway, startGateway } from '../../gateway/src/server.ts';
import { CHROMIUM } from './global-setup.ts';

export const PLATFORM_TOKEN = 'platform-test-token-0123456789abcdef';
/** Screenshots of every page, kept as a test artifact (ignored by git). */
export const ARTIFACTS = join(import.meta.dirname, '..', 'artifacts');

const quietLogger = () =>
  createLogger(
    'warn',
    new Writable({
      write(_chunk, _encoding, done) {
        done();
      },
    }),
  );

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** An email as the development transport recorded it: subject, text part and HTML part. */
export interface Mail {
  subject: string;
  text: string;
  html: string;
}

export interface Hosted {
  /** `http://localhost:<port>`: the origin the pages are served from (a secure context). */
  origin: string;
  config: Config;
  database: DatabaseHandle;
  gateway: RunningGateway;
  browser: Browser;
  /** A store with its owner; `slug` names it in `/hosted/<slug>/…`. */
  provision(slug: string): Promise<{ id: string; slug: string }>;
  /** A new browser context (its own cookies) and page, at phone width when asked. */
  newPage(options?: { width?: number }): Promise<{ context: BrowserContext; page: Page }>;
  /**
   * The newest email to `to` sent after `after` whose text matches `pattern` (a sign-in code by
   * default), waited for: the outbox worker sends it.
   */
  mail(to: string, after: Date, pattern?: RegExp): Promise<Mail>;
  api(path: string, init?: RequestInit & { slug?: string }): Promise<Response>;
  /** A REST call as the store's Owner (a development merchant token); the JSON of a 2xx, else a failure. */
  merchant<T>(
    slug: string,
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<T>;
  close(): Promise<void>;
}

/** A gateway on a free port, on this file's test database, with headless Chromium. */
export async function startHosted(env: Record<string, string> = {}): Promise<Hosted> {
  mkdirSync(ARTIFACTS, { recursive: true });
  const database = await createTestDatabase();
  const port = await freePort();
  const origin = `http://localhost:${port}`;
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: String(port),
    HOST: '127.0.0.1',
    HOSTED_CHECKOUT_URL: `${origin}/hosted/{orgSlug}`,
    PLATFORM_ADMIN_TOKEN: PLATFORM_TOKEN,
    SEED_DEMO: 'false',
    RUN_WORKER: 'true',
    ...env,
  });
  const gateway = await startGateway(config, quietLogger(), { database });
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    // Playwright gives each launch a fresh temporary profile (--user-data-dir).
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  const contexts: BrowserContext[] = [];

  const api: Hosted['api'] = (path, init = {}) => {
    const { slug, ...rest } = init;
    const headers = new Headers(rest.headers);
    if (slug) headers.set('x-organization-slug', slug);
    if (rest.body && !headers.has('content-type')) headers.set('content-type', 'application/json');
    return fetch(`${origin}/api/v1${path}`, { ...rest, headers });
  };

  const merchant: Hosted['merchant'] = async (slug, method, path, body, headers = {}) => {
    const token = await mintDevToken({
      secret: DEVELOPMENT_JWT_SECRET,
      issuer: config.merchantJwt.issuer,
      audience: config.merchantJwt.audience,
      subject: `test|owner@${slug}.test`,
      email: `owner@${slug}.test`,
    });
    const response = await api(path, {
      method,
      slug,
      headers: { authorization: `Bearer ${token}`, ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as never;
  };

  return {
    origin,
    config,
    database,
    merchant,
    gateway,
    browser,
    api,
    async provision(slug) {
      const response = await api('/platform/organizations', {
        method: 'POST',
        headers: { authorization: `Bearer ${PLATFORM_TOKEN}` },
        body: JSON.stringify({ slug, name: `Shop ${slug}`, owner: { email: `owner@${slug}.test` } }),
      });
      if (response.status !== 201)
        throw new Error(`provision ${slug}: ${response.status} ${await response.text()}`);
      return (await response.json()) as { id: string; slug: string };
    },
    async newPage(options = {}) {
      const context = await browser.newContext({
        baseURL: origin,
        viewport: { width: options.width ?? 1024, height: 800 },
        locale: 'en-US',
      });
      contexts.push(context);
      const page = await context.newPage();
      return { context, page };
    },
    async mail(to, after, pattern = /\b\d{6}\b/) {
      // The outbox worker sends it within a second or two; a loaded CI machine may take far longer.
      const deadline = Date.now() + 30_000;
      for (;;) {
        const rows = await database.db
          .selectFrom('dev_emails')
          .select(['subject', 'text_body', 'html_body'])
          .where('to_address', '=', to)
          .where('created_at', '>=', after)
          .orderBy('created_at', 'desc')
          .execute();
        const row = rows.find((candidate) => pattern.test(candidate.text_body));
        if (row) return { subject: row.subject, text: row.text_body, html: row.html_body ?? '' };
        if (Date.now() > deadline) throw new Error(`no email to ${to}`);
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    },
    async close() {
      for (const context of contexts) await context.close().catch(() => undefined);
      await browser.close();
      await gateway.close();
    },
  };
}

/** Signs `email` in to `slug` through the pages (email, code from the mail log); ends on the account page. */
export async function signIn(hosted: Hosted, page: Page, slug: string, email: string): Promise<void> {
  await page.goto(`/hosted/${slug}/account/sign-in`);
  const sent = new Date();
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a code' }).click();
  await page.getByRole('heading', { name: 'Check your email' }).waitFor();
  const mail = await hosted.mail(email.toLowerCase(), sent);
  await page.getByLabel('6-digit code').fill(codeOf(mail.text));
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('heading', { name: 'Your account' }).waitFor();
}

/**
 * A store that sells a tee ($15.00, a variant with stock) and an order of `email`'s for 2 tees,
 * placed through the legacy public route and shipped by the Owner (a direct fulfillment, emailing
 * the customer only with `notifyCustomer`), so it is returnable. Returns the order as the create route answered it.
 */
export async function shippedOrder(
  hosted: Hosted,
  slug: string,
  email: string,
  options: { notifyCustomer?: boolean } = {},
) {
  const item = await hosted.merchant<{ id: string }>(slug, 'POST', '/merchant/items', {
    slug: `tee-${Date.now()}`,
    name: 'Tee',
    type: 'SALE',
    status: 'ACTIVE',
    priceInCents: 1500,
  });
  const order = await hosted.merchant<{
    id: string;
    orderReference: string;
    orderNumber: number;
    orderStatusToken: string;
    items: { id: string }[];
  }>(slug, 'POST', '/public/orders', {
    customerName: 'Ada Lovelace',
    customerEmail: email,
    items: [{ itemId: item.id, name: 'Tee', quantity: 2, unitPriceInCents: 1500 }],
  });
  for (const status of ['CONFIRMED', 'PROCESSING'])
    await hosted.merchant(slug, 'PATCH', `/merchant/orders/${order.id}/status`, { status });
  await hosted.merchant(
    slug,
    'POST',
    `/merchant/commerce/orders/${order.id}/fulfillments`,
    {
      lines: [{ lineId: order.items[0]!.id, quantity: 2 }],
      notifyCustomer: options.notifyCustomer ?? false,
      tracking: { carrier: 'DHL', trackingNumber: 'TRACK123' },
    },
    { 'x-idempotency-key': `hosted-e2e-${order.id}` },
  );
  return { ...order, itemId: item.id };
}

/** The 6-digit code of a sign-in email. */
export function codeOf(text: string): string {
  const match = /\b(\d{6})\b/.exec(text);
  if (!match) throw new Error(`no code in: ${text}`);
  return match[1]!;
}

/** The link of a sign-in email. */
export function linkOf(text: string, path: string): string {
  const match = new RegExp(`(https?://\\S*${path.replaceAll('?', '\\?')}\\S*)`).exec(text);
  if (!match) throw new Error(`no ${path} link in: ${text}`);
  return match[1]!;
}

/**
 * Every link of an email, by part: the http(s) URLs of the text part, and the `href`s of the HTML
 * part (entities decoded), each in the order it appears.
 */
export function linksOf(mail: Mail): { text: string[]; html: string[] } {
  return {
    text: [...mail.text.matchAll(/https?:\/\/[^\s<>"]+/g)].map(([url]) => url),
    html: [...mail.html.matchAll(/href="([^"]+)"/g)]
      .map(([, href]) => href!.replaceAll('&amp;', '&'))
      .filter((href) => /^https?:\/\//.test(href)),
  };
}

/**
 * axe-core on the page as it is: every `serious` or `critical` violation, as readable lines (an
 * empty list passes). The page's policy allows only its own scripts, so axe is evaluated through
 * the DevTools protocol, which the policy does not govern.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  const result = (await page.evaluate(() =>
    (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }),
  )) as axe.AxeResults;
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    );
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: true });
}
