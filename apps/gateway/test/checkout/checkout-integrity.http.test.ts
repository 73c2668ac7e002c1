import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { created, createItem, createShippingRate, createVariant } from '../support/catalog-fixture.ts';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

// Issue 12, part B over HTTP: line types, stock holds per client, tax-included prices.

interface SessionBody {
  status: string;
  checkoutToken: string;
  lines: { type: string; itemId: string }[];
  shippingRequired: boolean;
  shippingOptions: unknown[];
  shippingInCents: number;
  taxInCents: number;
  taxIncluded: boolean;
  totalInCents: number;
  expiresAt: string;
}

const HOLD_CAP = 3;
let h: Harness;
let shop: RoleFixture;
let taxShop: RoleFixture;
let lamp: { itemId: string; variantId: string };
let serviceItemId: string;
let rentalItemId: string;

beforeAll(async () => {
  h = await createHarness({
    env: {
      TAX_PROVIDER: 'sandbox',
      TRUST_PROXY: 'true',
      CHECKOUT_MAX_HELD_UNITS_PER_CLIENT: String(HOLD_CAP),
    },
  });
  shop = await createRoleFixture(h, 'integrity-shop');
  taxShop = await createRoleFixture(h, 'integrity-tax-shop');
  const itemId = await createItem(shop, { slug: 'lamp', name: 'Lamp', type: 'SALE', status: 'ACTIVE' });
  lamp = {
    itemId,
    variantId: await createVariant(shop, itemId, {
      name: 'Brass',
      priceInCents: 2500,
      inventoryQuantity: 10,
    }),
  };
  serviceItemId = await createItem(shop, {
    slug: 'fitting',
    name: 'Fitting',
    type: 'SERVICE',
    status: 'ACTIVE',
    priceInCents: 3000,
  });
  rentalItemId = await createItem(shop, {
    slug: 'kayak',
    name: 'Kayak',
    type: 'RENTAL',
    status: 'ACTIVE',
    priceInCents: 5000,
  });
  await createShippingRate(shop, { countries: ['DE'], priceInCents: 500 });
});

afterAll(async () => {
  await h.close();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  h.app.request(`/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-organization-slug': 'integrity-shop', ...headers },
    body: JSON.stringify(body),
  });
const contact = { email: 'grace@example.com', customerName: 'Grace Hopper', shippingCountry: 'DE' };
const lampLine = (quantity: number) => ({ itemId: lamp.itemId, variantId: lamp.variantId, quantity });
const openSession = async (lines: unknown[], headers: Record<string, string> = {}) =>
  created<SessionBody>(await post('/public/checkout/sessions', { lines, ...contact }, headers), 'session');
const bind = (token: string, client: string, headers: Record<string, string> = {}) =>
  post(`/public/checkout/sessions/${token}/bind`, {}, { 'x-forwarded-for': client, ...headers });

describe('line types over HTTP', () => {
  it('answers a SERVICE line without shipping, and orders it as SERVICE through POST /public/orders', async () => {
    const session = await openSession([{ itemId: serviceItemId, quantity: 1 }]);
    expect(session.lines).toEqual([expect.objectContaining({ type: 'SERVICE', itemId: serviceItemId })]);
    expect(session).toMatchObject({ shippingRequired: false, shippingOptions: [], shippingInCents: 0 });

    const response = await post('/public/orders', {
      customerName: 'Grace Hopper',
      customerEmail: 'grace@example.com',
      items: [
        { itemId: lamp.itemId, variantId: lamp.variantId, name: 'Lamp', quantity: 1, unitPriceInCents: 2500 },
        { itemId: serviceItemId, name: 'Fitting', quantity: 1, unitPriceInCents: 3000 },
      ],
    });
    const order = await created<{ items: { type: string }[]; taxIncluded: boolean }>(response, 'order');
    expect(order.items.map((line) => line.type)).toEqual(['PRODUCT', 'SERVICE']);
    expect(order.taxIncluded).toBe(false);
  });

  it('refuses a RENTAL line with 400 naming it, on checkout and on POST /public/orders', async () => {
    const checkout = await expectError(
      await post('/public/checkout/sessions', {
        lines: [lampLine(1), { itemId: rentalItemId, quantity: 1 }],
      }),
      400,
      'VALIDATION_FAILED',
    );
    expect(checkout.details).toEqual({
      issues: [{ path: 'lines.1.itemId', message: expect.stringContaining('rental') }],
    });
    const legacy = await expectError(
      await post('/public/orders', {
        customerName: 'Grace Hopper',
        customerEmail: 'grace@example.com',
        items: [{ itemId: rentalItemId, name: 'Kayak', quantity: 1, unitPriceInCents: 5000 }],
      }),
      400,
      'VALIDATION_FAILED',
    );
    expect(legacy.details).toEqual({
      issues: [{ path: 'items.0.itemId', message: expect.stringContaining('rental') }],
    });
  });
});

describe('stock holds over HTTP', () => {
  it('holds CHECKOUT_HOLD_MINUTES (15) from the first bind; a rebind does not move it', async () => {
    const session = await openSession([lampLine(1)]);
    const firstBind = h.clock.now().getTime();
    const bound = (await (await bind(session.checkoutToken, '198.51.100.1')).json()) as SessionBody;
    expect(bound.status).toBe('BOUND');
    expect(new Date(bound.expiresAt).getTime()).toBe(firstBind + 15 * 60_000);
    h.clock.advance(10 * 60_000);
    const again = (await (await bind(session.checkoutToken, '198.51.100.1')).json()) as SessionBody;
    expect(again.expiresAt).toBe(bound.expiresAt);
    await post(`/public/checkout/sessions/${session.checkoutToken}/reprice`, {});
  });

  it('answers 429 with Retry-After once one client would hold more than the cap; another client still binds', async () => {
    const first = await openSession([lampLine(2)]);
    expect((await bind(first.checkoutToken, '203.0.113.7')).status).toBe(200);
    const second = await openSession([lampLine(2)]);
    const refused = await bind(second.checkoutToken, '203.0.113.7');
    const error = await expectError(refused, 429, 'RATE_LIMIT_EXCEEDED');
    expect(error.message).toContain(String(HOLD_CAP));
    // The envelope tells the cap from a request-rate limit (the hosted checkout says which).
    expect(error.details).toEqual({ reason: 'HELD_UNITS_CAP', maxUnits: HOLD_CAP, requestedUnits: 2 });
    expect(Number(refused.headers.get('retry-after'))).toBe(15 * 60);
    expect((await bind(second.checkoutToken, '203.0.113.8')).status).toBe(200);
    for (const token of [first.checkoutToken, second.checkoutToken])
      await post(`/public/checkout/sessions/${token}/reprice`, {});
  });

  it('names the short line in 409 INSUFFICIENT_STOCK and never the quantity available', async () => {
    const lastOne = await createVariant(shop, lamp.itemId, {
      name: 'Copper',
      priceInCents: 2500,
      inventoryQuantity: 1,
    });
    const session = await openSession([
      { itemId: serviceItemId, quantity: 1 },
      { itemId: lamp.itemId, variantId: lastOne, quantity: 2 },
    ]);
    const response = await bind(session.checkoutToken, '192.0.2.10');
    const error = await expectError(response, 409, 'INSUFFICIENT_STOCK');
    expect(error.details).toEqual({
      shortages: [{ path: 'lines.1', itemId: lamp.itemId, variantId: lastOne, requestedQuantity: 2 }],
    });
    expect(JSON.stringify(error)).not.toContain('available');
    // Item reads tell only whether a variant is in stock.
    const item = await h.app.request('/api/v1/public/items/lamp', {
      headers: { 'x-organization-slug': 'integrity-shop' },
    });
    expect(item.status).toBe(200);
    const body = await item.text();
    expect(body).toContain('inStock');
    expect(body).not.toContain('inventoryQuantity');
  });
});

describe('tax-included prices over HTTP', () => {
  it('records the tax the prices hold at bind and keeps the total', async () => {
    const itemId = await createItem(taxShop, {
      slug: 'vase',
      name: 'Vase',
      type: 'SALE',
      status: 'ACTIVE',
      priceInCents: 11_400,
    });
    await createShippingRate(taxShop, { countries: ['GB'], priceInCents: 600 });
    const settings = await taxShop.call('owner', 'PATCH', '/merchant/settings', {
      checkoutSettings: { taxIncludedInPrices: true },
    });
    expect(settings.status).toBe(200);
    const headers = { 'x-organization-slug': 'integrity-tax-shop' };
    const session = await created<SessionBody>(
      await post(
        '/public/checkout/sessions',
        { lines: [{ itemId, quantity: 1 }], ...contact, shippingCountry: 'GB' },
        headers,
      ),
      'session',
    );
    const bound = (await (await bind(session.checkoutToken, '192.0.2.20', headers)).json()) as SessionBody;
    // 114.00 + 6.00 shipping at 20 % included: 20.00 of the 120.00 is tax.
    expect(bound).toMatchObject({
      status: 'BOUND',
      taxInCents: 2000,
      taxIncluded: true,
      totalInCents: 12_000,
    });
  });
});

describe('OpenAPI', () => {
  it('documents the 429 of bind, line types and taxIncluded', async () => {
    const document = (await (await h.app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, { post?: { description?: string; responses: Record<string, unknown> } }>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    const bindOperation = document.paths['/public/checkout/sessions/{token}/bind']!.post!;
    expect(bindOperation.responses['429']).toBeDefined();
    expect(JSON.stringify(bindOperation.responses['429'])).toContain('RATE_LIMIT_EXCEEDED');
    expect(bindOperation.description).toContain('CHECKOUT_MAX_HELD_UNITS_PER_CLIENT');
    expect(bindOperation.description).toContain(
      "details: { reason: 'HELD_UNITS_CAP', maxUnits, requestedUnits }",
    );
    expect(document.paths['/public/orders']!.post!.description).toContain('RENTAL');
    expect(document.components.schemas.CheckoutLine!.properties).toHaveProperty('type');
    expect(document.components.schemas.CheckoutSession!.properties).toHaveProperty('taxIncluded');
  });
});
