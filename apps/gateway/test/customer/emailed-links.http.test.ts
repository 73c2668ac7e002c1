import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bookingManagePath } from '@commerce/bookings';
import { loadConfig } from '@commerce/core';
import { customerEmailConfigOf, customerLink, enqueueTemplatedEmail } from '@commerce/notifications';
import { returnsPagePath } from '@commerce/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.ts';

/**
 * Every link of a customer email, in its text and its HTML part, followed: the gateway answers the
 * hosted app's page for it, and the path (under `/hosted/<slug>`) is a route of the hosted app, so
 * the page shows what the email promises rather than "Page not found".
 */

const HOSTED_SRC = fileURLToPath(new URL('../../../hosted/src/', import.meta.url));
const SLUG = 'emailed-links';
let h: Harness;
let dir: string;
let organizationId: string;
let routes: RegExp[];
let fragments: Set<string>;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'hosted-dist-'));
  await writeFile(join(dir, 'index.html'), '<!doctype html><html><body><div id="root"></div></body></html>');
  h = await createHarness({ hostedAppDir: dir });
  organizationId = (await h.provision(SLUG, `owner@${SLUG}.test`)).id;
  // The hosted app's routes (`path: '/account/orders/$orderReference'`) and the element ids its pages
  // carry, read from its source.
  const sources = await Promise.all(
    ['router.tsx', 'routes-checkout.tsx'].map((file) => readFile(join(HOSTED_SRC, file), 'utf8')),
  );
  routes = [...sources.join('\n').matchAll(/path: '([^']+)'/g)].map(
    ([, path]) => new RegExp(`^${path!.replace(/\$[A-Za-z]+/g, '[^/]+')}$`),
  );
  const pages = await readdir(join(HOSTED_SRC, 'pages'));
  const pageSources = await Promise.all(
    pages.map((file) => readFile(join(HOSTED_SRC, 'pages', file), 'utf8')),
  );
  fragments = new Set([...pageSources.join('\n').matchAll(/\bid="([^"$]+)"/g)].map(([, id]) => id!));
});
afterAll(async () => {
  await h.close();
  await rm(dir, { recursive: true, force: true });
});

async function latestEmail(type: string): Promise<{ text: string; html: string }> {
  const rows = await h.database.db
    .selectFrom('outbox')
    .select(['payload', 'metadata'])
    .where('organization_id', '=', organizationId)
    .orderBy('id', 'desc')
    .execute();
  const row = rows.find(
    (candidate) => (candidate.metadata as { templateType?: string }).templateType === type,
  );
  return row!.payload as { text: string; html: string };
}

/** The links of each part: the URLs of the text part, the `href`s of the HTML part. */
function linksOf(email: { text: string; html: string }): { text: string[]; html: string[] } {
  return {
    text: [...email.text.matchAll(/https?:\/\/\S+/g)].map(([url]) => url),
    html: [...email.html.matchAll(/href="([^"]+)"/g)].map(([, url]) => url!.replaceAll('&amp;', '&')),
  };
}

/** Follows one emailed link to the gateway and the hosted app's router. */
async function follow(link: string): Promise<void> {
  expect(link).not.toContain('{orgSlug}');
  const url = new URL(link);
  const response = await h.app.request(`${url.pathname}${url.search}`);
  expect(response.status, link).toBe(200);
  expect(response.headers.get('content-type'), link).toBe('text/html; charset=utf-8');
  const prefix = `/hosted/${SLUG}`;
  expect(url.pathname.startsWith(prefix), link).toBe(true);
  const route = url.pathname.slice(prefix.length) || '/';
  expect(
    routes.some((pattern) => pattern.test(route)),
    `${link} is no route of the hosted app`,
  ).toBe(true);
  if (url.hash !== '') expect(fragments.has(url.hash.slice(1)), `${link}: no element has its id`).toBe(true);
}

async function followAll(email: { text: string; html: string }): Promise<string[]> {
  const links = linksOf(email);
  expect(links.text.length).toBeGreaterThan(0);
  for (const link of [...links.text, ...links.html]) await follow(link);
  return [...links.text, ...links.html];
}

// A job without a tenant builds its links on the configured base, `{orgSlug}` still in it.
const email = customerEmailConfigOf(loadConfig({ NODE_ENV: 'test' }));

describe('the links customer emails carry', () => {
  it('a booking email: the management link of both parts names the store', async () => {
    const manageUrl = customerLink(email, bookingManagePath(`m1_${'a'.repeat(43)}`));
    await enqueueTemplatedEmail(h.database.db, {
      organizationId,
      type: 'BOOKING_NOTIFICATION',
      to: 'ada@example.com',
      values: {
        'booking.eventTitle': 'Booking confirmed',
        'booking.eventMessage': 'Your booking is confirmed.',
        'booking.manageUrl': manageUrl,
        'booking.actionLabel': 'View booking',
      },
      links: { action: manageUrl },
      emailFrom: email.emailFrom,
      at: h.clock.now(),
    });
    const sent = await latestEmail('BOOKING_NOTIFICATION');
    const links = await followAll(sent);
    // The text part's body line and call to action, and the HTML part's body link and button.
    expect(links.filter((link) => link.includes('/bookings/manage/m1_')).length).toBe(4);
    // The HTML part's body link names the store too.
    expect(sent.html).toContain(
      `Manage this booking: <a href="http://localhost:3000/hosted/${SLUG}/bookings/manage/m1_`,
    );
    expect(`${sent.text}${sent.html}`).not.toContain('{orgSlug}');
  });

  it('a return email: the returns section of the order page', async () => {
    const action = customerLink(
      email,
      returnsPagePath({ order_reference: `or1_${'b'.repeat(32)}`, order_number: 7 }),
    );
    await enqueueTemplatedEmail(h.database.db, {
      organizationId,
      type: 'RETURN_REQUESTED',
      to: 'ada@example.com',
      values: { 'order.number': '7', 'return.id': 'ret_1' },
      links: { action },
      emailFrom: email.emailFrom,
      at: h.clock.now(),
    });
    const links = await followAll(await latestEmail('RETURN_REQUESTED'));
    expect(links).toContain(
      `http://localhost:3000/hosted/${SLUG}/account/orders/or1_${'b'.repeat(32)}#returns`,
    );
  });

  it('a sign-in code email: the code and no sign-in button', async () => {
    const requested = await h.app.request('/api/v1/public/customer/auth/request-otp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-organization-slug': SLUG },
      body: JSON.stringify({ email: 'code@example.com' }),
    });
    expect(requested.status).toBeLessThan(300);
    const sent = await latestEmail('CUSTOMER_AUTH');
    expect(sent.text).toMatch(/Use this code to sign in: \d{6}/);
    for (const part of [sent.text, sent.html]) {
      expect(part).not.toContain('/account/verify');
      expect(part).not.toContain('Sign in:');
    }
    const links = linksOf(sent);
    for (const link of [...links.text, ...links.html]) await follow(link);
  });

  it('a sign-in link email: the verify page with its token', async () => {
    const requested = await h.app.request('/api/v1/public/customer/auth/request-link', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-organization-slug': SLUG },
      body: JSON.stringify({ email: 'link@example.com' }),
    });
    expect(requested.status).toBeLessThan(300);
    const links = await followAll(await latestEmail('CUSTOMER_AUTH'));
    expect(links.some((link) => /\/account\/verify\?token=l1_/.test(link))).toBe(true);
  });
});
