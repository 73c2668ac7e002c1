import { testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, errorOf, expectError, type Harness } from '../support/harness.ts';
import {
  ACTORS,
  type Actor,
  createRoleFixture,
  expectedStatus,
  MEMBER_ACTORS,
  type RoleFixture,
} from '../support/roles.ts';

interface VariantBody {
  id: string;
  itemId: string;
  sku: string | null;
  name: string;
  options: Record<string, string>;
  priceInCents: number | null;
  salePriceInCents: number | null;
  inventoryQuantity: number | null;
  sortOrder: number;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;
let itemId: string;
let siblingId: string;
const WRITERS: readonly Actor[] = ['owner', 'admin', 'staffWith'];

let sequence = 0;
async function createItem(fx: RoleFixture): Promise<string> {
  sequence += 1;
  const response = await fx.call('owner', 'POST', '/merchant/items', {
    slug: `variant-item-${sequence}`,
    name: 'Shirt',
    type: 'SALE',
    status: 'ACTIVE',
  });
  if (response.status !== 201) throw new Error(`item: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { id: string }).id;
}

async function createVariant(fx: RoleFixture, forItem: string, body: Record<string, unknown> = {}) {
  const response = await fx.call('owner', 'POST', `/merchant/items/${forItem}/variants`, {
    name: 'Default',
    ...body,
  });
  if (response.status !== 201) throw new Error(`variant: ${response.status} ${await response.text()}`);
  return (await response.json()) as VariantBody;
}

const variantRow = (id: string) =>
  h.database.db.selectFrom('variants').selectAll().where('id', '=', id).executeTakeFirst();

const refused = (response: Response, status: number) =>
  expectError(response, status, status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'variants-shop', ['catalog:write']);
  other = await createRoleFixture(h, 'variants-other', ['catalog:write']);
  itemId = await createItem(shop);
  siblingId = await createItem(shop);
});
afterAll(async () => {
  await h.close();
});

describe('POST /merchant/items/{itemId}/variants', () => {
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, WRITERS, 201);
    it(`answers ${status} to ${actor}`, async () => {
      const sku = `SKU-${actor.toUpperCase()}`;
      const response = await shop.call(actor, 'POST', `/merchant/items/${itemId}/variants`, {
        sku,
        name: 'Medium',
        options: { size: 'M' },
        priceInCents: 2500,
        inventoryQuantity: 4,
      });
      const stored = await h.database.db
        .selectFrom('variants')
        .select('id')
        .where('organization_id', '=', shop.organizationId)
        .where('sku', '=', sku)
        .executeTakeFirst();
      if (status === 201) {
        expect(response.status).toBe(201);
        const variant = (await response.json()) as VariantBody;
        expect(variant).toMatchObject({
          itemId,
          sku,
          options: { size: 'M' },
          inventoryQuantity: 4,
          archivedAt: null,
        });
        expect(stored?.id).toBe(variant.id);
        const audit = await h.database.db
          .selectFrom('audit_logs')
          .select(['action', 'actor_user_id', 'metadata'])
          .where('organization_id', '=', shop.organizationId)
          .where('target_id', '=', variant.id)
          .executeTakeFirst();
        expect(audit).toEqual({
          action: 'variant.created',
          actor_user_id: shop.users[actor as 'owner'].userId,
          metadata: { itemId, sku },
        });
      } else {
        await refused(response, status);
        expect(stored).toBeUndefined();
      }
    });
  }

  it('answers 409 SKU_TAKEN, 404 for a foreign item and 400 for an invalid body', async () => {
    await createVariant(shop, itemId, { sku: 'DUPLICATE' });
    await expectError(
      await shop.call('owner', 'POST', `/merchant/items/${siblingId}/variants`, {
        name: 'Copy',
        sku: 'DUPLICATE',
      }),
      409,
      'SKU_TAKEN',
    );
    await expectError(
      await other.call('owner', 'POST', `/merchant/items/${itemId}/variants`, { name: 'Hijack' }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    for (const body of [
      {},
      { name: 'X', inventoryQuantity: -1 },
      { name: 'X', priceInCents: 100, salePriceInCents: 200 },
      { name: 'X', options: { size: 5 } },
      { name: 'X', colour: 'red' },
    ]) {
      await expectError(
        await shop.call('owner', 'POST', `/merchant/items/${itemId}/variants`, body),
        400,
        'VALIDATION_FAILED',
      );
    }
  });

  it(`gives a SKU to one of concurrent requests (${testDatabaseKind})`, async () => {
    const responses = await Promise.all(
      Array.from({ length: 6 }, (_, index) =>
        shop.call('admin', 'POST', `/merchant/items/${itemId}/variants`, {
          name: `Racer ${index}`,
          sku: 'RACE-SKU',
        }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409]);
    for (const response of responses.filter((r) => r.status === 409)) {
      expect((await errorOf(response)).code).toBe('SKU_TAKEN');
    }
  });
});

describe('GET /merchant/items/{itemId}/variants and /{variantId}', () => {
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, MEMBER_ACTORS, 200);
    it(`answers ${status} to ${actor}`, async () => {
      const variant = await createVariant(shop, siblingId);
      const list = await shop.call(actor, 'GET', `/merchant/items/${siblingId}/variants?archived=false`);
      const one = await shop.call(actor, 'GET', `/merchant/items/${siblingId}/variants/${variant.id}`);
      if (status === 200) {
        expect(list.status).toBe(200);
        const page = (await list.json()) as { data: VariantBody[]; nextCursor: string | null };
        expect(page.data.map((v) => v.id)).toContain(variant.id);
        expect(one.status).toBe(200);
        expect(await one.json()).toEqual(variant);
      } else {
        await refused(list, status);
        await refused(one, status);
      }
    });
  }

  it('needs archived in a boolean form and filters archived variants', async () => {
    const item = await createItem(shop);
    const live = await createVariant(shop, item);
    // Variants of one instant order by their random id part: the older one is listed first.
    h.clock.advance(1000);
    const gone = await createVariant(shop, item);
    expect(
      (await shop.call('owner', 'POST', `/merchant/items/${item}/variants/${gone.id}/archive`)).status,
    ).toBe(201);

    const ids = async (query: string) =>
      (
        (await (
          await shop.call('staffWithout', 'GET', `/merchant/items/${item}/variants${query}`)
        ).json()) as {
          data: VariantBody[];
        }
      ).data.map((v) => v.id);
    expect(await ids('?archived=false')).toEqual([live.id]);
    expect(await ids('?archived=NO')).toEqual([live.id]);
    expect(await ids('?archived=1')).toEqual([live.id, gone.id]);
    for (const query of ['', '?archived=', '?archived=maybe', '?archived=true&limit=0']) {
      await expectError(
        await shop.call('owner', 'GET', `/merchant/items/${item}/variants${query}`),
        400,
        'VALIDATION_FAILED',
      );
    }
  });

  it('answers 404 for a variant of another item or organization', async () => {
    const variant = await createVariant(shop, itemId);
    await expectError(
      await shop.call('owner', 'GET', `/merchant/items/${siblingId}/variants/${variant.id}`),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await other.call('owner', 'GET', `/merchant/items/${itemId}/variants/${variant.id}`),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await other.call('owner', 'GET', `/merchant/items/${itemId}/variants?archived=true`),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });
});

describe('PATCH /merchant/items/{itemId}/variants/{variantId}', () => {
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, WRITERS, 200);
    it(`answers ${status} to ${actor}`, async () => {
      const variant = await createVariant(shop, itemId, { inventoryQuantity: 10, priceInCents: 1000 });
      const response = await shop.call(actor, 'PATCH', `/merchant/items/${itemId}/variants/${variant.id}`, {
        inventoryQuantity: 7,
        salePriceInCents: 800,
      });
      const row = await variantRow(variant.id);
      if (status === 200) {
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({ inventoryQuantity: 7, salePriceInCents: 800 });
        expect(row).toMatchObject({ inventory_quantity: 7, sale_price_in_cents: 800 });
        const audit = await h.database.db
          .selectFrom('audit_logs')
          .select(['action', 'actor_user_id', 'metadata'])
          .where('organization_id', '=', shop.organizationId)
          .where('target_id', '=', variant.id)
          .where('action', '=', 'variant.updated')
          .executeTakeFirst();
        expect(audit).toEqual({
          action: 'variant.updated',
          actor_user_id: shop.users[actor as 'owner'].userId,
          metadata: { itemId, fields: ['salePriceInCents', 'inventoryQuantity'] },
        });
      } else {
        await refused(response, status);
        expect(row).toMatchObject({ inventory_quantity: 10, sale_price_in_cents: null });
      }
    });
  }

  it('answers 409 SKU_TAKEN, 400 for a sale price above the price and 404 through another item', async () => {
    await createVariant(shop, itemId, { sku: 'PATCH-TAKEN' });
    const variant = await createVariant(shop, itemId, { priceInCents: 500 });
    const path = `/merchant/items/${itemId}/variants/${variant.id}`;
    await expectError(await shop.call('owner', 'PATCH', path, { sku: 'PATCH-TAKEN' }), 409, 'SKU_TAKEN');
    await expectError(
      await shop.call('owner', 'PATCH', path, { salePriceInCents: 501 }),
      400,
      'VALIDATION_FAILED',
    );
    await expectError(
      await shop.call('owner', 'PATCH', `/merchant/items/${siblingId}/variants/${variant.id}`, { name: 'X' }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(await other.call('owner', 'PATCH', path, { name: 'X' }), 404, 'RESOURCE_NOT_FOUND');
    expect((await variantRow(variant.id))?.name).toBe('Default');
  });
});

describe('POST /merchant/items/{itemId}/variants/{variantId}/archive and /restore', () => {
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, WRITERS, 201);
    it(`answers ${status} to ${actor}`, async () => {
      const variant = await createVariant(shop, itemId);
      const base = `/merchant/items/${itemId}/variants/${variant.id}`;
      const archived = await shop.call(actor, 'POST', `${base}/archive`);
      if (status === 201) {
        expect(archived.status).toBe(201);
        expect(((await archived.json()) as VariantBody).archivedAt).not.toBeNull();
        const restored = await shop.call(actor, 'POST', `${base}/restore`);
        expect(restored.status).toBe(201);
        expect(((await restored.json()) as VariantBody).archivedAt).toBeNull();
      } else {
        await refused(archived, status);
        expect((await variantRow(variant.id))?.archived_at).toBeNull();
        await shop.call('owner', 'POST', `${base}/archive`);
        await refused(await shop.call(actor, 'POST', `${base}/restore`), status);
        expect((await variantRow(variant.id))?.archived_at).not.toBeNull();
      }
    });
  }

  it("removes an archived variant from the item's salePriceInCents", async () => {
    const item = await createItem(shop);
    await createVariant(shop, item, { priceInCents: 3000 });
    const cheap = await createVariant(shop, item, { priceInCents: 2000, salePriceInCents: 1200 });
    const price = async () =>
      (
        (await (await shop.call('owner', 'GET', `/merchant/items/${item}`)).json()) as {
          salePriceInCents: number;
        }
      ).salePriceInCents;
    expect(await price()).toBe(1200);
    await shop.call('owner', 'POST', `/merchant/items/${item}/variants/${cheap.id}/archive`);
    expect(await price()).toBe(3000);
  });
});
