import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;

beforeAll(async () => {
  // Each test's public calls name their client with x-forwarded-for.
  h = await createHarness({ env: { TRUST_PROXY: 'true', HOSTED_CHECKOUT_URL: 'https://shop.example' } });
  shop = await createRoleFixture(h, 'stock-shop', ['catalog:write']);
  other = await createRoleFixture(h, 'stock-other');
});
afterAll(async () => {
  await h.close();
});

let clients = 0;

/** A public request from a client address of its own unless `client` names one, so rate limits stay out of the way. */
function publicCall(slug: string | null, method: string, path: string, body?: unknown, client?: string) {
  clients += 1;
  const headers: Record<string, string> = {
    'x-forwarded-for': client ?? `10.1.${Math.floor(clients / 250)}.${(clients % 250) + 1}`,
  };
  if (slug) headers['x-organization-slug'] = slug;
  if (body !== undefined) headers['content-type'] = 'application/json';
  return h.app.request(`/api/v1${path}`, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
}

let sequence = 0;

/** An ACTIVE item with one out-of-stock variant, created through the merchant API. */
async function itemWithVariant(fixture: RoleFixture = shop): Promise<{ itemId: string; variantId: string }> {
  sequence += 1;
  const item = await fixture.call('owner', 'POST', '/merchant/items', {
    slug: `lamp-${sequence}`,
    name: 'Lamp',
    type: 'SALE',
    status: 'ACTIVE',
  });
  expect(item.status).toBe(201);
  const itemId = ((await item.json()) as { id: string }).id;
  const variant = await fixture.call('owner', 'POST', `/merchant/items/${itemId}/variants`, {
    name: 'Brass',
    inventoryQuantity: 0,
  });
  expect(variant.status).toBe(201);
  return { itemId, variantId: ((await variant.json()) as { id: string }).id };
}

async function outboxFor(organizationId: string, email: string) {
  const rows = await h.database.db
    .selectFrom('outbox')
    .select(['payload', 'metadata'])
    .where('organization_id', '=', organizationId)
    .orderBy('id')
    .execute();
  return rows
    .map((row) => ({
      ...(row.payload as { to: string; text: string; subject: string }),
      templateType: (row.metadata as { templateType: string }).templateType,
    }))
    .filter((row) => row.to === email);
}

function tokenIn(text: string): string {
  const match = /\/email\/unsubscribe\?token=(u1_[A-Za-z0-9_-]{43})/.exec(text);
  if (!match) throw new Error('no unsubscribe link');
  return match[1]!;
}

describe('POST /public/items/{itemId}/stock-notifications', () => {
  it('answers 201 with the signup, the same one on a repeat, and emails a confirmation each time', async () => {
    const { itemId, variantId } = await itemWithVariant();
    const path = `/public/items/${itemId}/stock-notifications`;
    const first = await publicCall(shop.slug, 'POST', path, { email: 'ada@x.test', variantId });
    expect(first.status).toBe(201);
    const signup = (await first.json()) as Record<string, unknown>;
    expect(signup).toEqual({
      id: expect.stringMatching(/^stk_/),
      itemId,
      variantId,
      status: 'ACTIVE',
      createdAt: expect.any(String),
    });

    const repeat = await publicCall(shop.slug, 'POST', path, { email: 'Ada@X.test', variantId });
    expect(repeat.status).toBe(201);
    expect(await repeat.json()).toEqual(signup);

    const emails = await outboxFor(shop.organizationId, 'ada@x.test');
    expect(emails.map((email) => email.templateType)).toEqual(['STOCK_NOTIFICATION_CONFIRMATION']);
    expect(await outboxFor(shop.organizationId, 'Ada@X.test')).toHaveLength(1);
    expect(emails[0]!.text).toContain('https://shop.example/products/');
  });

  it('is 404 for an unknown, draft or foreign item and 400 for bad bodies', async () => {
    const { itemId, variantId } = await itemWithVariant();
    const foreign = await itemWithVariant(other);
    await expectError(
      await publicCall(shop.slug, 'POST', '/public/items/itm_nope/stock-notifications', {
        email: 'a@x.test',
      }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await publicCall(shop.slug, 'POST', `/public/items/${foreign.itemId}/stock-notifications`, {
        email: 'a@x.test',
      }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    const draft = await shop.call('owner', 'PATCH', `/merchant/items/${itemId}`, { status: 'DRAFT' });
    expect(draft.status).toBe(200);
    await expectError(
      await publicCall(shop.slug, 'POST', `/public/items/${itemId}/stock-notifications`, {
        email: 'a@x.test',
      }),
      404,
      'RESOURCE_NOT_FOUND',
    );

    const live = await itemWithVariant();
    const path = `/public/items/${live.itemId}/stock-notifications`;
    for (const body of [
      {},
      { email: 'not-an-email' },
      { email: `${'a'.repeat(320)}@x.test` },
      { email: 'a@x.test', extra: true },
      { email: 'a@x.test', variantId: variantId },
    ]) {
      await expectError(await publicCall(shop.slug, 'POST', path, body), 400, 'VALIDATION_FAILED');
    }
  });

  it('allows 10 signups per ten minutes per organization and client, then 429 with Retry-After', async () => {
    const { itemId } = await itemWithVariant();
    const path = `/public/items/${itemId}/stock-notifications`;
    for (let index = 0; index < 10; index += 1) {
      const response = await publicCall(shop.slug, 'POST', path, { email: `rl${index}@x.test` }, '10.9.9.9');
      expect(response.status).toBe(201);
    }
    const refused = await publicCall(shop.slug, 'POST', path, { email: 'rl-last@x.test' }, '10.9.9.9');
    await expectError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    expect(refused.headers.get('retry-after')).toMatch(/^[1-9][0-9]*$/);
  });
});

describe('back in stock through the merchant API, and POST /public/email-unsubscribe', () => {
  it('emails BACK_IN_STOCK when the variant is restocked; every link unsubscribes without a tenant header', async () => {
    const { itemId, variantId } = await itemWithVariant();
    const signup = await publicCall(shop.slug, 'POST', `/public/items/${itemId}/stock-notifications`, {
      email: 'grace@x.test',
      variantId,
    });
    expect(signup.status).toBe(201);

    const restock = await shop.call('staffWith', 'PATCH', `/merchant/items/${itemId}/variants/${variantId}`, {
      inventoryQuantity: 3,
    });
    expect(restock.status).toBe(200);
    const [confirmation, backInStock, ...rest] = await outboxFor(shop.organizationId, 'grace@x.test');
    expect(rest).toEqual([]);
    expect(backInStock).toMatchObject({ templateType: 'BACK_IN_STOCK', subject: 'Lamp is back in stock' });

    for (const email of [backInStock!, confirmation!, backInStock!]) {
      const response = await publicCall(null, 'POST', '/public/email-unsubscribe', {
        token: tokenIn(email.text),
      });
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({
        status: 'UNSUBSCRIBED',
        subscriptionType: 'STOCK_NOTIFICATION',
        itemName: 'Lamp',
      });
    }
    // Opted out: a new signup stays so and sends nothing.
    const again = await publicCall(shop.slug, 'POST', `/public/items/${itemId}/stock-notifications`, {
      email: 'grace@x.test',
      variantId,
    });
    expect(((await again.json()) as { status: string }).status).toBe('UNSUBSCRIBED');
    expect(await outboxFor(shop.organizationId, 'grace@x.test')).toHaveLength(2);
  });

  it('answers one neutral 404 for unknown or malformed tokens, and 400 without one', async () => {
    const unknown = await publicCall(null, 'POST', '/public/email-unsubscribe', {
      token: `u1_${'B'.repeat(43)}`,
    });
    const malformed = await publicCall(null, 'POST', '/public/email-unsubscribe', { token: 'hello' });
    const first = await expectError(unknown, 404, 'RESOURCE_NOT_FOUND');
    const second = await expectError(malformed, 404, 'RESOURCE_NOT_FOUND');
    expect(first.message).toBe(second.message);
    await expectError(
      await publicCall(null, 'POST', '/public/email-unsubscribe', {}),
      400,
      'VALIDATION_FAILED',
    );
  });
});
