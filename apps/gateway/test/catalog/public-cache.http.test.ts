import { appRouter, type CachePurger, listRestRoutes } from '@commerce/api';
import { signInForTest } from '@commerce/customers/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

/**
 * HTTP caching of the public reads (docs/api.md, "HTTP caching of public reads"): a strong ETag and
 * 304, `no-cache` (every cache revalidates) unless the operator let a CDN keyed by the tenant header
 * keep them, surrogate keys naming the tenant and the object, the purge of exactly those keys by the
 * merchant writes, and nothing cacheable anywhere else.
 */

/** The default: any cache must ask the origin, which compares the requesting tenant's own tag. */
const REVALIDATE_CACHE_CONTROL = 'no-cache';

/** A purger that remembers every call. */
function recordingPurger(): CachePurger & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    purge: async (keys) => {
      calls.push(keys);
    },
  };
}

let h: Harness;
let shop: RoleFixture;
let optedOut: RoleFixture;
const purger = recordingPurger();
const ids = { item: '', collection: '', page: '', service: '', resource: '', variant: '' };

async function ok<T>(response: Response, status = 200): Promise<T> {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

beforeAll(async () => {
  h = await createHarness({
    cachePurger: purger,
    env: { PUBLIC_CACHE_DISABLED_TENANTS: 'cache-opted-out' },
  });
  shop = await createRoleFixture(h, 'cache-shop');
  optedOut = await createRoleFixture(h, 'cache-opted-out');
  for (const fx of [shop, optedOut]) {
    const item = await ok<{ id: string }>(
      await fx.call('owner', 'POST', '/merchant/items', {
        slug: 'tent',
        name: 'Tent',
        type: 'SALE',
        status: 'ACTIVE',
        priceInCents: 5000,
      }),
      201,
    );
    const variant = await ok<{ id: string }>(
      await fx.call('owner', 'POST', `/merchant/items/${item.id}/variants`, {
        name: 'Green',
        inventoryQuantity: 3,
      }),
      201,
    );
    const collection = await ok<{ id: string }>(
      await fx.call('owner', 'POST', '/merchant/collections', {
        name: 'Camp',
        slug: 'camp',
        status: 'ACTIVE',
      }),
      201,
    );
    await ok(
      await fx.call('owner', 'POST', `/merchant/collections/${collection.id}/items`, { itemIds: [item.id] }),
    );
    const page = await ok<{ id: string }>(
      await fx.call('owner', 'POST', '/merchant/pages', {
        title: 'About',
        slug: 'about',
        content: '<p>About us</p>',
        status: 'PUBLISHED',
      }),
      201,
    );
    const resource = await ok<{ id: string }>(
      await fx.call('owner', 'POST', '/merchant/booking-resources', {
        name: 'Kayaks',
        kind: 'EQUIPMENT',
        capacity: 12,
      }),
      201,
    );
    const service = await ok<{ id: string }>(
      await fx.call('owner', 'POST', '/merchant/booking-services', {
        slug: 'tour',
        name: 'Tour',
        status: 'ACTIVE',
        periodMode: 'FIXED_SLOT',
        timezone: 'Europe/Lisbon',
        fixedSlots: [{ weekdays: ['MON'], startTime: '09:00', durationMinutes: 180 }],
        requirements: [{ name: 'Kayaks', resourceIds: [resource.id], units: { mode: 'PER_PARTICIPANT' } }],
        pricing: { basis: 'FLAT', amountInCents: 4500 },
      }),
      201,
    );
    if (fx === shop)
      Object.assign(ids, {
        item: item.id,
        variant: variant.id,
        collection: collection.id,
        page: page.id,
        service: service.id,
        resource: resource.id,
      });
  }
  // Two shops' catalogs through the merchant API: longer than the default hook time on a busy machine.
}, 120_000);
afterAll(async () => {
  await h.close();
});

const read = (path: string, headers: Record<string, string> = {}, slug = shop.slug) =>
  h.app.request(`/api/v1${path}`, { headers: { 'x-organization-slug': slug, ...headers } });

/** The surrogate keys of each cacheable read of `shop`. */
function expectedKeys(): Record<string, string[]> {
  const org = shop.organizationId;
  return {
    '/public/items': [org, `${org}:items`, `${org}:item-list`],
    '/public/items/tent': [org, `${org}:items`, ids.item],
    '/public/collections': [org, `${org}:collections`, `${org}:collection-list`, `${org}:item-list`],
    '/public/collections/camp': [org, `${org}:collections`, ids.collection, `${org}:item-list`],
    '/public/collections/camp/items': [
      org,
      `${org}:collections`,
      ids.collection,
      `${org}:item-list`,
      `${org}:items`,
    ],
    '/public/pages': [org, `${org}:pages`, `${org}:page-list`],
    '/public/pages/about': [org, `${org}:pages`, ids.page],
    '/public/booking-services': [org, `${org}:booking-services`, `${org}:booking-service-list`],
    '/public/booking-services/tour': [org, `${org}:booking-services`, ids.service],
  };
}

/** The headers a cache needs, the same on a 200 and its 304. */
function expectCacheable(response: Response, keys: string[], cacheControl = REVALIDATE_CACHE_CONTROL): void {
  expect(response.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{27}"$/);
  expect(response.headers.get('cache-control')).toBe(cacheControl);
  expect(response.headers.get('surrogate-key')).toBe(keys.join(' '));
  expect(response.headers.get('cache-tag')).toBe(keys.join(','));
  const vary = (response.headers.get('vary') ?? '').split(',').map((token) => token.trim().toLowerCase());
  expect(vary).toContain('x-organization-slug');
  expect(vary).toContain('origin');
}

function expectNotCacheable(response: Response): void {
  expect(response.headers.get('cache-control')).toBe('private, no-store');
  expect(response.headers.get('etag')).toBeNull();
  expect(response.headers.get('surrogate-key')).toBeNull();
  expect(response.headers.get('cache-tag')).toBeNull();
}

describe('cacheable public reads', () => {
  it('answer a strong ETag, a CDN Cache-Control and surrogate keys, and 304 with an empty body to a matching If-None-Match', async () => {
    for (const [path, keys] of Object.entries(expectedKeys())) {
      const first = await read(path);
      expect(first.status, path).toBe(200);
      const body = await first.text();
      expect(JSON.parse(body), path).toBeTruthy();
      expectCacheable(first, keys);
      const etag = first.headers.get('etag')!;

      // The same body, the same tag.
      const again = await read(path);
      expect(again.headers.get('etag'), path).toBe(etag);
      expect(await again.text()).toBe(body);

      const notModified = await read(path, { 'if-none-match': etag });
      expect(notModified.status, path).toBe(304);
      expect(await notModified.text()).toBe('');
      expect(notModified.headers.get('content-type')).toBeNull();
      expectCacheable(notModified, keys);
      expect(notModified.headers.get('etag')).toBe(etag);
    }
  });

  it('are not shareable without revalidation by default: a cache keyed by URL alone must ask the origin each time', async () => {
    for (const path of Object.keys(expectedKeys())) {
      const cacheControl = (await read(path)).headers.get('cache-control') ?? '';
      const directives = cacheControl.split(',').map((directive) => directive.trim().split('=')[0]);
      expect(directives, path).toContain('no-cache');
      for (const shareable of ['public', 's-maxage', 'max-age', 'stale-while-revalidate', 'immutable'])
        expect(directives, `${path} ${shareable}`).not.toContain(shareable);
    }
    // Two tenants, one URL: a cache keyed by URL revalidates the one's copy with the other's slug,
    // and the origin answers the other's own body, never a 304.
    const other = await createRoleFixture(h, 'cache-other');
    await ok(
      await other.call('owner', 'POST', '/merchant/items', {
        slug: 'tent',
        name: 'Tent',
        type: 'SALE',
        status: 'ACTIVE',
      }),
      201,
    );
    const mine = await read('/public/items/tent');
    const mineBody = (await mine.json()) as { id: string };
    const theirs = await read(
      '/public/items/tent',
      { 'if-none-match': mine.headers.get('etag')! },
      other.slug,
    );
    expect(theirs.status).toBe(200);
    expect(theirs.headers.get('cache-control')).toBe(REVALIDATE_CACHE_CONTROL);
    expect(theirs.headers.get('etag')).not.toBe(mine.headers.get('etag'));
    expect(((await theirs.json()) as { id: string }).id).not.toBe(mineBody.id);
  });

  it('compares If-None-Match weakly, reads a list of tags and `*`, and answers 200 to any other tag', async () => {
    const etag = (await read('/public/items/tent')).headers.get('etag')!;
    for (const header of [`W/${etag}`, `"other", ${etag}`, `W/"other",W/${etag}`, '*', ` ${etag} `]) {
      expect((await read('/public/items/tent', { 'if-none-match': header })).status, header).toBe(304);
    }
    for (const header of ['"other"', `W/"${etag}"`, `${etag.slice(0, -2)}"`, '""']) {
      const response = await read('/public/items/tent', { 'if-none-match': header });
      expect(response.status, header).toBe(200);
      expect((await response.json()) as { slug: string }).toMatchObject({ slug: 'tent' });
    }
  });

  it('takes a hostile If-None-Match harmlessly: a full answer (or the edge refusing it), never a 5xx', async () => {
    const etag = (await read('/public/items/tent')).headers.get('etag')!;
    const hostile = [
      'W/',
      '"',
      'W/"unterminated',
      ',,,,',
      'not-a-tag',
      `${'"a",'.repeat(5000)}${etag}`, // past the length read: matches nothing
      '*, "a"', // `*` only alone
      `"${'x'.repeat(20_000)}"`,
      'W/W/"x"',
      '"a" "b"',
      `${etag}garbage`,
    ];
    for (const header of hostile) {
      const response = await read('/public/items/tent', { 'if-none-match': header });
      expect(response.status, header.slice(0, 40)).toBe(200);
      expect(((await response.json()) as { slug: string }).slug).toBe('tent');
    }
    // Bytes the edge refuses in any header (input-guard.ts) are a 400, not a match.
    const refused = await read('/public/items/tent', { 'if-none-match': `"\u00e9${etag.slice(1)}` });
    expect(refused.status).toBeLessThan(500);
    expect(refused.status).not.toBe(304);
  });

  it('answers HEAD with the same tag and 304', async () => {
    const etag = (await read('/public/pages/about')).headers.get('etag')!;
    const head = await h.app.request('/api/v1/public/pages/about', {
      method: 'HEAD',
      headers: { 'x-organization-slug': shop.slug },
    });
    expect(head.headers.get('etag')).toBe(etag);
    const conditional = await h.app.request('/api/v1/public/pages/about', {
      method: 'HEAD',
      headers: { 'x-organization-slug': shop.slug, 'if-none-match': etag },
    });
    expect(conditional.status).toBe(304);
  });
});

describe('merchant writes', () => {
  /** Runs `write`, then returns the keys purged meanwhile. */
  async function purgedBy(write: () => Promise<Response>, status = 200): Promise<string[][]> {
    const before = purger.calls.length;
    await ok(await write(), status);
    return purger.calls.slice(before);
  }

  it('change the ETag of what they changed and purge exactly its keys', async () => {
    const org = shop.organizationId;
    const item = await read('/public/items/tent');
    const oldTag = item.headers.get('etag')!;
    const oldList = (await read('/public/items')).headers.get('etag')!;
    const page = (await read('/public/pages/about')).headers.get('etag')!;

    // Stock: the variant runs out, the item's `inStock` changes.
    expect(
      await purgedBy(() =>
        shop.call('owner', 'PATCH', `/merchant/items/${ids.item}/variants/${ids.variant}`, {
          inventoryQuantity: 0,
        }),
      ),
    ).toEqual([[ids.item, `${org}:item-list`]]);
    const after = await read('/public/items/tent', { 'if-none-match': oldTag });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(oldTag);
    expect(((await after.json()) as { variants: { inStock: boolean }[] }).variants[0]!.inStock).toBe(false);
    // What it did not change keeps its tag.
    expect((await read('/public/pages/about', { 'if-none-match': page })).status).toBe(304);

    expect(
      await purgedBy(() => shop.call('owner', 'PATCH', `/merchant/items/${ids.item}`, { name: 'Big tent' })),
    ).toEqual([[ids.item, `${org}:item-list`]]);
    expect((await read('/public/items', { 'if-none-match': oldList })).status).toBe(200);

    expect(
      await purgedBy(() => shop.call('owner', 'PATCH', `/merchant/pages/${ids.page}`, { title: 'About us' })),
    ).toEqual([[ids.page, `${org}:page-list`]]);
    expect((await read('/public/pages/about', { 'if-none-match': page })).status).toBe(200);

    expect(
      await purgedBy(() =>
        shop.call('owner', 'PATCH', `/merchant/collections/${ids.collection}`, { name: 'Camping' }),
      ),
    ).toEqual([[ids.collection, `${org}:collection-list`, `${org}:items`]]);

    expect(
      await purgedBy(() =>
        shop.call('owner', 'PATCH', `/merchant/booking-services/${ids.service}`, { name: 'Sunrise tour' }),
      ),
    ).toEqual([[ids.service, `${org}:booking-service-list`]]);

    expect(
      await purgedBy(() =>
        shop.call('owner', 'PATCH', `/merchant/booking-resources/${ids.resource}`, { name: 'Sea kayaks' }),
      ),
    ).toEqual([[`${org}:booking-services`]]);

    // Settings every public read may show (the store currency): the whole tenant.
    expect(
      await purgedBy(() =>
        shop.call('owner', 'PATCH', '/merchant/settings', { businessProfile: { displayName: 'Cache shop' } }),
      ),
    ).toEqual([[org]]);

    // Taking an item out of a collection is a write of the collection (the path also names the item).
    const removed = await shop.call(
      'owner',
      'DELETE',
      `/merchant/collections/${ids.collection}/items/${ids.item}`,
    );
    expect(removed.status).toBeLessThan(300);
    expect(purger.calls.at(-1)).toEqual([ids.collection, `${org}:collection-list`, `${org}:items`]);

    // A new item: the id from the answer.
    const created = await purgedBy(
      () =>
        shop.call('owner', 'POST', '/merchant/items', {
          slug: 'stove',
          name: 'Stove',
          type: 'SALE',
          status: 'ACTIVE',
        }),
      201,
    );
    expect(created).toHaveLength(1);
    expect(created[0]![0]).toMatch(/^itm_/);
    expect(created[0]![1]).toBe(`${org}:item-list`);
  });

  it('purge nothing when they fail, and nothing for reads', async () => {
    const before = purger.calls.length;
    expect((await shop.call('owner', 'PATCH', `/merchant/items/${ids.item}`, { name: '' })).status).toBe(400);
    expect(
      (await shop.call('staffWithout', 'PATCH', `/merchant/pages/${ids.page}`, { title: 'x' })).status,
    ).toBe(403);
    expect((await shop.call('owner', 'GET', `/merchant/items/${ids.item}`)).status).toBe(200);
    expect(purger.calls.length).toBe(before);
  });

  it('purge the items whose stock a shipment took (a direct fulfillment), and their lists', async () => {
    const org = shop.organizationId;
    await ok(
      await shop.call('owner', 'PATCH', `/merchant/items/${ids.item}/variants/${ids.variant}`, {
        inventoryQuantity: 1,
      }),
    );
    const order = await ok<{ id: string }>(
      await h.app.request('/api/v1/public/orders', {
        method: 'POST',
        headers: { 'x-organization-slug': shop.slug, 'content-type': 'application/json' },
        body: JSON.stringify({
          customerName: 'Ada Lovelace',
          customerEmail: 'ada@example.com',
          items: [
            { itemId: ids.item, variantId: ids.variant, name: 'Tent', quantity: 1, unitPriceInCents: 5000 },
          ],
        }),
      }),
      201,
    );
    const line = (
      await ok<{ items: { id: string }[] }>(await shop.call('owner', 'GET', `/merchant/orders/${order.id}`))
    ).items[0]!.id;
    const before = await read('/public/items/tent');
    const tag = before.headers.get('etag')!;
    expect(((await before.json()) as { variants: { inStock: boolean }[] }).variants[0]!.inStock).toBe(true);

    const purged = await purgedBy(
      () =>
        shop.call(
          'owner',
          'POST',
          `/merchant/commerce/orders/${order.id}/fulfillments`,
          { lines: [{ lineId: line, quantity: 1 }], notifyCustomer: false },
          { 'x-idempotency-key': `cache-ship-${process.pid}-0123456789` },
        ),
      201,
    );
    expect(purged).toEqual([[ids.item, `${org}:item-list`]]);
    const after = await read('/public/items/tent', { 'if-none-match': tag });
    expect(after.status).toBe(200);
    expect(((await after.json()) as { variants: { inStock: boolean }[] }).variants[0]!.inStock).toBe(false);
  });

  it('purge over /trpc too', async () => {
    const before = purger.calls.length;
    const response = await h.app.request('/trpc/merchant.pages.update', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-organization-slug': shop.slug,
        authorization: `Bearer ${shop.users.owner.token}`,
      },
      body: JSON.stringify({ id: ids.page, title: 'About the shop' }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(purger.calls.slice(before)).toEqual([[ids.page, `${shop.organizationId}:page-list`]]);
  });
});

describe('answers that are never cacheable', () => {
  it('a tenant that opted out gets no public cache headers, and no 304', async () => {
    for (const path of Object.keys(expectedKeys())) {
      const response = await read(path, { 'if-none-match': '*' }, optedOut.slug);
      expect(response.status, path).toBe(200);
      expectNotCacheable(response);
    }
  });

  it('merchant, customer, other public answers, /trpc and errors are private, no-store, with no ETag or 304', async () => {
    const customer = (await signInForTest(h.database.db, shop.organizationId, 'c@example.com', h.clock.now()))
      .token;
    const conditional = { 'if-none-match': '*' };
    const responses: [string, Response][] = [
      [
        'merchant item',
        await shop.call('owner', 'GET', `/merchant/items/${ids.item}`, undefined, conditional),
      ],
      ['merchant settings', await shop.call('owner', 'GET', '/merchant/settings', undefined, conditional)],
      [
        'customer profile',
        await read('/customer/account/profile', { authorization: `Bearer ${customer}`, ...conditional }),
      ],
      ['customer without session', await read('/customer/account/profile', conditional)],
      ['public organization', await read('/public/organization', conditional)],
      ['missing item', await read('/public/items/nope', conditional)],
      ['no tenant', await h.app.request('/api/v1/public/items/tent', { headers: conditional })],
      ['bad query', await read('/public/items?limit=-1', conditional)],
      ['unknown route', await read('/public/nothing-here', conditional)],
      [
        'trpc public read',
        await h.app.request(
          `/trpc/public.items.get?input=${encodeURIComponent(JSON.stringify({ slug: 'tent' }))}`,
          {
            headers: { 'x-organization-slug': shop.slug, ...conditional },
          },
        ),
      ],
    ];
    const statuses = Object.fromEntries(responses.map(([name, response]) => [name, response.status]));
    expect(statuses).toMatchObject({
      'merchant item': 200,
      'merchant settings': 200,
      'customer profile': 200,
      'customer without session': 401,
      'public organization': 200,
      'missing item': 404,
      'no tenant': 400,
      'bad query': 400,
      'unknown route': 404,
      'trpc public read': 200,
    });
    for (const [name, response] of responses) {
      expect(response.headers.get('cache-control'), name).toBe('private, no-store');
      expect(response.headers.get('etag'), name).toBeNull();
      expect(response.headers.get('surrogate-key'), name).toBeNull();
    }
  });

  it('no other GET route answers a cacheable response, whoever asks (every route of the contract)', async () => {
    const routes = listRestRoutes(appRouter).filter(
      (route) => route.method === 'GET' && !route.meta.publicCache,
    );
    expect(routes.length).toBeGreaterThan(40);
    for (const route of routes) {
      const path = route.path.replace(/\{[^}]+\}/g, 'nope');
      const name = `GET ${route.path}`;
      const response = await shop.call('owner', 'GET', path, undefined, { 'if-none-match': '*' });
      expect(response.status, name).not.toBe(304);
      expect(response.status, name).toBeLessThan(500);
      // Downloads keep their own `no-store`; everything else is `private, no-store`.
      expect(response.headers.get('cache-control'), name).toMatch(/^(private, )?no-store$/);
      expect(response.headers.get('etag'), name).toBeNull();
      expect(response.headers.get('surrogate-key'), name).toBeNull();
      await response.arrayBuffer();
    }
  }, 120_000);

  it('only public GET reads of a tenant are marked cacheable', () => {
    const cacheable = listRestRoutes(appRouter)
      .filter((route) => route.meta.publicCache)
      .map((route) => `${route.method} ${route.path} ${route.meta.auth}`);
    expect(cacheable.sort()).toEqual(
      Object.keys(expectedKeys())
        .map((path) =>
          `GET ${path} tenant`
            .replace('/tent', '/{slug}')
            .replace('/camp', '/{slug}')
            .replace('/about', '/{slug}')
            .replace('/tour', '/{slug}'),
        )
        .sort(),
    );
  });
});

describe('the OpenAPI document', () => {
  interface Operation {
    parameters?: { name: string; in: string }[];
    responses: Record<string, { headers?: Record<string, unknown>; content?: unknown }>;
  }

  it('documents If-None-Match, the caching headers and 304 on the cacheable reads, and on no other operation', async () => {
    const document = (await (await h.app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, Operation>>;
    };
    for (const route of listRestRoutes(appRouter)) {
      const operation = document.paths[route.path]![route.method.toLowerCase()]!;
      const name = `${route.method} ${route.path}`;
      if (route.meta.publicCache) {
        expect(
          operation.parameters?.some((p) => p.in === 'header' && p.name === 'If-None-Match'),
          name,
        ).toBe(true);
        for (const status of ['200', '304']) {
          expect(Object.keys(operation.responses[status]?.headers ?? {}), `${name} ${status}`).toEqual(
            expect.arrayContaining(['ETag', 'Cache-Control', 'Surrogate-Key', 'Cache-Tag', 'Vary']),
          );
        }
        expect(operation.responses['304']?.content, name).toBeUndefined();
      } else {
        expect(operation.responses['304'], name).toBeUndefined();
        expect(operation.parameters?.some((p) => p.name === 'If-None-Match') ?? false, name).toBe(false);
      }
    }
  });
});

describe('caching shared with a CDN (PUBLIC_CACHE_SHARED)', () => {
  it('answers the shared-cache Cache-Control with its settings, the same on the 304, and a tenant opted out stays private', async () => {
    const shared = await createHarness({
      env: {
        PUBLIC_CACHE_SHARED: 'true',
        PUBLIC_CACHE_S_MAXAGE_SECONDS: '120',
        PUBLIC_CACHE_STALE_WHILE_REVALIDATE_SECONDS: '15',
        PUBLIC_CACHE_DISABLED_TENANTS: 'shared-out',
      },
    });
    try {
      const page = { title: 'About', slug: 'about', content: '<p>x</p>', status: 'PUBLISHED' };
      const fx = await createRoleFixture(shared, 'shared-shop');
      const out = await createRoleFixture(shared, 'shared-out');
      const created = await ok<{ id: string }>(await fx.call('owner', 'POST', '/merchant/pages', page), 201);
      await ok(await out.call('owner', 'POST', '/merchant/pages', page), 201);
      const keys = [fx.organizationId, `${fx.organizationId}:pages`, created.id];
      const sharedControl = 'public, max-age=0, s-maxage=120, stale-while-revalidate=15';
      const request = (slug: string, headers: Record<string, string> = {}) =>
        shared.app.request('/api/v1/public/pages/about', {
          headers: { 'x-organization-slug': slug, ...headers },
        });
      const first = await request(fx.slug);
      expect(first.status).toBe(200);
      expectCacheable(first, keys, sharedControl);
      const notModified = await request(fx.slug, { 'if-none-match': first.headers.get('etag')! });
      expect(notModified.status).toBe(304);
      expectCacheable(notModified, keys, sharedControl);
      const optedOutAnswer = await request(out.slug, { 'if-none-match': '*' });
      expect(optedOutAnswer.status).toBe(200);
      expectNotCacheable(optedOutAnswer);
    } finally {
      await shared.close();
    }
    // A second gateway and database of its own.
  }, 120_000);
});

describe('caching switched off for the process', () => {
  it('leaves every public read private, no-store', async () => {
    // Off wins over shared: no caching headers at all.
    const off = await createHarness({ env: { PUBLIC_CACHE_ENABLED: 'false', PUBLIC_CACHE_SHARED: 'true' } });
    try {
      const fx = await createRoleFixture(off, 'cache-off');
      await ok(
        await fx.call('owner', 'POST', '/merchant/pages', {
          title: 'About',
          slug: 'about',
          content: '<p>x</p>',
          status: 'PUBLISHED',
        }),
        201,
      );
      const response = await off.app.request('/api/v1/public/pages/about', {
        headers: { 'x-organization-slug': fx.slug, 'if-none-match': '*' },
      });
      expect(response.status).toBe(200);
      expectNotCacheable(response);
    } finally {
      await off.close();
    }
    // A second gateway and database of its own.
  }, 120_000);
});
