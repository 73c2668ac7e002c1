import { mintDevToken } from '@commerce/auth';
import { DEVELOPMENT_JWT_SECRET, loadConfig } from '@commerce/core';
import type { Page } from 'playwright-core';
import { expect } from 'vitest';
import { type Hosted, screenshot, seriousViolations } from './harness.ts';

/** Fixtures of the checkout and booking browser tests: the store's owner through the merchant API. */

export interface Merchant {
  slug: string;
  /** A merchant API call as the store's Owner (JSON body, tenant header, extra headers). */
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Response>;
  /** The body of a 201 (or 200 when asked), else an error naming what failed. */
  created<T>(response: Response | Promise<Response>, what: string, status?: number): Promise<T>;
}

export async function bodyOf<T>(response: Response, what: string, status: number): Promise<T> {
  if (response.status !== status)
    throw new Error(`${what}: expected ${status}, got ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

/** Signs the Owner of `slug` (provisioned by the harness as `owner@<slug>.test`) in to the merchant API. */
export async function ownerOf(hosted: Hosted, slug: string): Promise<Merchant> {
  const jwt = loadConfig({ NODE_ENV: 'test' }).merchantJwt;
  const token = await mintDevToken({
    secret: DEVELOPMENT_JWT_SECRET,
    issuer: jwt.issuer,
    audience: jwt.audience,
    subject: `test|owner@${slug}.test`,
    email: `owner@${slug}.test`,
    name: 'Owner',
  });
  const call: Merchant['call'] = (method, path, body, headers = {}) =>
    hosted.api(path, {
      method,
      slug,
      headers: { authorization: `Bearer ${token}`, ...headers },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
  // The first request binds the membership to the signed-in user.
  await bodyOf(await call('GET', '/merchant/auth/session'), 'owner sign-in', 200);
  return {
    slug,
    call,
    created: async (response, what, status = 201) => bodyOf(await response, what, status),
  };
}

/** axe-core finds no serious or critical violation, and the page is saved as `name`.png. */
export async function checkPage(page: Page, name: string): Promise<void> {
  expect(await seriousViolations(page)).toEqual([]);
  await screenshot(page, name);
}

/** A heading with this exact name is shown (waited for). */
export async function heading(page: Page, name: string | RegExp): Promise<void> {
  await page
    .getByRole('heading', { name, exact: typeof name === 'string' })
    .first()
    .waitFor();
}

/** Tomorrow (UTC) at `hour`:00 and an hour later, as a hold or booking interval. */
export function tomorrowAt(hour: number, days = 1): { startsAt: string; endsAt: string } {
  const day = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  const at = (h: number) => `${day}T${String(h).padStart(2, '0')}:00:00+00:00`;
  return { startsAt: at(hour), endsAt: at(hour + 1) };
}

/** A checkout session as a storefront's server makes it, with its `c1_` token. */
export async function openCheckoutSession<T>(
  hosted: Hosted,
  slug: string,
  lines: { itemId: string; variantId?: string; quantity: number }[],
): Promise<T> {
  return bodyOf<T>(
    await hosted.api('/public/checkout/sessions', { method: 'POST', slug, body: JSON.stringify({ lines }) }),
    'session',
    201,
  );
}

/** The checkout session of `token` as the server has it now. */
export async function readCheckoutSession<T>(hosted: Hosted, slug: string, token: string): Promise<T> {
  return bodyOf<T>(await hosted.api(`/public/checkout/sessions/${token}`, { slug }), 'read', 200);
}

/**
 * A bookable studio service: 60-minute bookings any hour of any day (UTC), each taking one unit of
 * `resourceId`, 30.00 flat unless `extra` says otherwise. Returns its id.
 */
export async function createStudioService(
  owner: Merchant,
  {
    slug,
    name,
    resourceId,
    extra = {},
  }: { slug: string; name: string; resourceId: string; extra?: Record<string, unknown> },
): Promise<string> {
  const day = [{ start: '00:00', end: '24:00' }];
  const created = await owner.created<{ id: string }>(
    owner.call('POST', '/merchant/booking-services', {
      slug,
      name,
      status: 'ACTIVE',
      periodMode: 'FIXED_DURATION',
      timezone: 'UTC',
      durations: { choicesMinutes: [60] },
      availability: { weeklyHours: { MON: day, TUE: day, WED: day, THU: day, FRI: day, SAT: day, SUN: day } },
      requirements: [{ name: 'Studio', resourceIds: [resourceId], units: { mode: 'PER_BOOKING', count: 1 } }],
      pricing: { basis: 'FLAT', amountInCents: 3000 },
      ...extra,
    }),
    `service ${slug}`,
  );
  return created.id;
}
