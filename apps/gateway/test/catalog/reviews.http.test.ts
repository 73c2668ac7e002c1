import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { ACTORS, createRoleFixture, expectedStatus, type RoleFixture } from '../support/roles.ts';

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;
let sequence = 0;
const WRITERS = ['owner', 'admin', 'staffWith'] as const;

beforeAll(async () => {
  // Each test's public calls name their client with x-forwarded-for.
  h = await createHarness({ env: { TRUST_PROXY: 'true' } });
  shop = await createRoleFixture(h, 'reviews-shop', ['catalog:write']);
  other = await createRoleFixture(h, 'reviews-other');
});
afterAll(async () => {
  await h.close();
});

async function insertItem(fixture: RoleFixture, status: 'ACTIVE' | 'DRAFT' = 'ACTIVE'): Promise<string> {
  sequence += 1;
  const id = `itm_http_review_${sequence}`;
  await h.database.db
    .insertInto('items')
    .values({
      organization_id: fixture.organizationId,
      id,
      slug: `reviewed-${sequence}`,
      name: 'Reviewed',
      type: 'SALE',
      status,
      description: null,
      price_in_cents: 1000,
      archived_at: null,
    })
    .execute();
  return id;
}

let clients = 0;

/**
 * A public request, from a client address of its own unless `client` names
 * one, so that rate limits count only the calls a test means them to.
 */
function publicCall(fixture: RoleFixture, method: string, path: string, body?: unknown, client?: string) {
  clients += 1;
  const headers: Record<string, string> = {
    'x-organization-slug': fixture.slug,
    'x-forwarded-for': client ?? `10.0.${Math.floor(clients / 250)}.${(clients % 250) + 1}`,
  };
  if (body !== undefined) headers['content-type'] = 'application/json';
  return h.app.request(`/api/v1${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

const validReview = (email: string) => ({ rating: 4, authorName: 'Ada', authorEmail: email, title: 'Nice' });

describe('POST /public/items/{itemId}/reviews', () => {
  it('answers 201 { ok: true } and keeps the review out of public reads until it is published', async () => {
    const itemId = await insertItem(shop);
    const response = await publicCall(
      shop,
      'POST',
      `/public/items/${itemId}/reviews`,
      validReview('ada@x.test'),
    );
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ ok: true });
    const list = await publicCall(shop, 'GET', `/public/items/${itemId}/reviews`);
    expect(await list.json()).toEqual({ reviews: [], nextCursor: null, ratingAverage: null, ratingCount: 0 });
  });

  it('answers 409 DUPLICATE_REVIEW for the same email and item', async () => {
    const itemId = await insertItem(shop);
    await publicCall(shop, 'POST', `/public/items/${itemId}/reviews`, validReview('dup@x.test'));
    await expectError(
      await publicCall(shop, 'POST', `/public/items/${itemId}/reviews`, validReview('DUP@x.test')),
      409,
      'DUPLICATE_REVIEW',
    );
  });

  const invalid: [string, Record<string, unknown>, string][] = [
    ['a rating of 0', { rating: 0 }, 'rating'],
    ['a rating of 6', { rating: 6 }, 'rating'],
    ['a fractional rating', { rating: 4.5 }, 'rating'],
    ['an 81-character name', { authorName: 'x'.repeat(81) }, 'authorName'],
    ['an empty name', { authorName: ' ' }, 'authorName'],
    ['a malformed email', { authorEmail: 'not-an-email' }, 'authorEmail'],
    ['a 321-character email', { authorEmail: `${'a'.repeat(310)}@example.com` }, 'authorEmail'],
    ['a 121-character title', { title: 'x'.repeat(121) }, 'title'],
    ['a 4001-character body', { body: 'x'.repeat(4001) }, 'body'],
    ['an unknown key', { stars: 5 }, ''],
  ];
  for (const [name, change, path] of invalid) {
    it(`answers 400 VALIDATION_FAILED for ${name}`, async () => {
      const itemId = await insertItem(shop);
      const error = await expectError(
        await publicCall(shop, 'POST', `/public/items/${itemId}/reviews`, {
          ...validReview('v@x.test'),
          ...change,
        }),
        400,
        'VALIDATION_FAILED',
      );
      expect(error.details?.issues?.map((issue) => issue.path)).toContain(path);
    });
  }

  it("answers 404 for a draft item and for another organization's item", async () => {
    for (const itemId of [await insertItem(shop, 'DRAFT'), await insertItem(other)]) {
      await expectError(
        await publicCall(shop, 'POST', `/public/items/${itemId}/reviews`, validReview('n@x.test')),
        404,
        'RESOURCE_NOT_FOUND',
      );
    }
  });

  it('allows 10 submissions an hour per organization and client, then 429 with Retry-After', async () => {
    const itemId = await insertItem(other);
    for (let n = 0; n < 10; n++) {
      const response = await publicCall(
        other,
        'POST',
        `/public/items/${itemId}/reviews`,
        validReview(`r${n}@x.test`),
        '198.51.100.7',
      );
      expect(response.status).toBe(201);
    }
    const refused = await publicCall(
      other,
      'POST',
      `/public/items/${itemId}/reviews`,
      validReview('r10@x.test'),
      '198.51.100.7',
    );
    await expectError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
  });
});

describe('verified purchase', () => {
  const legacyOrder = async (itemId: string, email: string) => {
    const response = await publicCall(shop, 'POST', '/public/orders', {
      customerName: 'Anyone',
      customerEmail: email,
      items: [{ itemId, name: 'Reviewed', quantity: 1, unitPriceInCents: 0 }],
    });
    expect(response.status).toBe(201);
    return ((await response.json()) as { id: string }).id;
  };
  const verifiedOf = async (itemId: string, email: string) => {
    const page = (await (await shop.call('owner', 'GET', `/merchant/reviews?itemId=${itemId}`)).json()) as {
      data: { authorEmail: string; verifiedPurchase: boolean }[];
    };
    return page.data.find((row) => row.authorEmail === email)?.verifiedPurchase;
  };

  it('is not manufactured by an anonymous legacy order; it counts once the merchant completed the order', async () => {
    const itemId = await insertItem(shop);
    await legacyOrder(itemId, 'victim@x.test');
    expect(
      (await publicCall(shop, 'POST', `/public/items/${itemId}/reviews`, validReview('victim@x.test')))
        .status,
    ).toBe(201);
    expect(await verifiedOf(itemId, 'victim@x.test')).toBe(false);

    const orderId = await legacyOrder(itemId, 'buyer@x.test');
    for (const status of ['CONFIRMED', 'PROCESSING', 'COMPLETED']) {
      expect(
        (await shop.call('owner', 'PATCH', `/merchant/orders/${orderId}/status`, { status })).status,
      ).toBe(200);
    }
    expect(
      (await publicCall(shop, 'POST', `/public/items/${itemId}/reviews`, validReview('buyer@x.test'))).status,
    ).toBe(201);
    expect(await verifiedOf(itemId, 'buyer@x.test')).toBe(true);
  });
});

describe('merchant moderation', () => {
  let queued: string;
  beforeAll(async () => {
    const itemId = await insertItem(shop);
    await publicCall(shop, 'POST', `/public/items/${itemId}/reviews`, validReview('queue@x.test'));
    const response = await shop.call('owner', 'GET', `/merchant/reviews?itemId=${itemId}`);
    queued = ((await response.json()) as { data: { id: string }[] }).data[0]!.id;
  });

  for (const actor of ACTORS) {
    it(`GET /merchant/reviews answers ${expectedStatus(actor, WRITERS, 200)} to ${actor}`, async () => {
      const response = await shop.call(actor, 'GET', '/merchant/reviews');
      expect(response.status).toBe(expectedStatus(actor, WRITERS, 200));
    });

    it(`POST /merchant/reviews/{id}/reject answers ${expectedStatus(actor, WRITERS, 200)} to ${actor}`, async () => {
      const response = await shop.call(actor, 'POST', `/merchant/reviews/${queued}/reject`);
      expect(response.status).toBe(expectedStatus(actor, WRITERS, 200));
    });
  }

  it('publishes a review into the public list with its aggregates, without the email', async () => {
    const itemId = await insertItem(shop);
    await publicCall(shop, 'POST', `/public/items/${itemId}/reviews`, {
      ...validReview('pub@x.test'),
      rating: 3,
    });
    const page = (await (await shop.call('admin', 'GET', `/merchant/reviews?itemId=${itemId}`)).json()) as {
      data: { id: string; authorEmail: string }[];
    };
    expect(page.data[0]!.authorEmail).toBe('pub@x.test');
    const published = await shop.call('staffWith', 'POST', `/merchant/reviews/${page.data[0]!.id}/publish`);
    expect(published.status).toBe(200);

    const list = await publicCall(shop, 'GET', `/public/items/${itemId}/reviews`);
    const body = (await list.json()) as {
      reviews: { authorName: string }[];
      ratingAverage: number;
      ratingCount: number;
    };
    expect(body.ratingAverage).toBe(3);
    expect(body.ratingCount).toBe(1);
    expect(body.reviews.map((row) => row.authorName)).toEqual(['Ada']);
    expect(JSON.stringify(body)).not.toContain('pub@x.test');
  });

  it("answers 404 for another organization's review", async () => {
    const itemId = await insertItem(other);
    await publicCall(other, 'POST', `/public/items/${itemId}/reviews`, validReview('foreign@x.test'));
    const foreign = (
      (await (await other.call('owner', 'GET', '/merchant/reviews')).json()) as { data: { id: string }[] }
    ).data[0]!.id;
    await expectError(
      await shop.call('owner', 'POST', `/merchant/reviews/${foreign}/publish`),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });
});
