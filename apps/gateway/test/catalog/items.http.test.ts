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

interface ItemBody {
  id: string;
  slug: string;
  name: string;
  description: string | null;
  tags: string[];
  type: string;
  status: string;
  sortOrder: number;
  priceInCents: number | null;
  metafields: Record<string, unknown>;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
  salePriceInCents: number | null;
  ratingAverage: number | null;
  ratingCount: number;
  collectionIds: string[];
}

interface ItemPage {
  data: ItemBody[];
  nextCursor: string | null;
}

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;
const WRITERS: readonly Actor[] = ['owner', 'admin', 'staffWith'];

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'items-shop', ['catalog:write']);
  other = await createRoleFixture(h, 'items-other', ['catalog:write']);
});
afterAll(async () => {
  await h.close();
});

let sequence = 0;
/** An item created by the shop's Owner through the API. */
async function createItem(fx: RoleFixture, body: Record<string, unknown> = {}): Promise<ItemBody> {
  sequence += 1;
  const response = await fx.call('owner', 'POST', '/merchant/items', {
    slug: `item-${sequence}`,
    name: `Item ${sequence}`,
    type: 'SALE',
    ...body,
  });
  if (response.status !== 201) throw new Error(`create: ${response.status} ${await response.text()}`);
  return (await response.json()) as ItemBody;
}

const itemRow = (organizationId: string, id: string) =>
  h.database.db
    .selectFrom('items')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', id)
    .executeTakeFirst();

const audits = (organizationId: string, targetId: string) =>
  h.database.db
    .selectFrom('audit_logs')
    .select(['action', 'actor_user_id', 'metadata'])
    .where('organization_id', '=', organizationId)
    .where('target_id', '=', targetId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

/** The refusal an actor outside the allowed set gets: 401 without a credential, 403 otherwise. */
async function expectRefused(response: Response, status: number) {
  await expectError(response, status, status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');
}

describe('POST /merchant/items', () => {
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, WRITERS, 201);
    it(`answers ${status} to ${actor}`, async () => {
      const slug = `by-${actor.toLowerCase()}`;
      const response = await shop.call(actor, 'POST', '/merchant/items', {
        slug,
        name: `Made by ${actor}`,
        type: 'RENTAL',
        tags: [' camping ', 'camping'],
        priceInCents: 4500,
      });
      const stored = await h.database.db
        .selectFrom('items')
        .selectAll()
        .where('organization_id', '=', shop.organizationId)
        .where('slug', '=', slug)
        .executeTakeFirst();
      if (status === 201) {
        expect(response.status).toBe(201);
        const item = (await response.json()) as ItemBody;
        expect(item).toMatchObject({
          slug,
          type: 'RENTAL',
          status: 'DRAFT',
          tags: ['camping'],
          priceInCents: 4500,
          sortOrder: 0,
          ratingCount: 0,
          collectionIds: [],
        });
        expect(stored?.id).toBe(item.id);
        expect(await audits(shop.organizationId, item.id)).toEqual([
          {
            action: 'item.created',
            actor_user_id: shop.users[actor as 'owner'].userId,
            metadata: { slug, type: 'RENTAL', status: 'DRAFT' },
          },
        ]);
      } else {
        await expectRefused(response, status);
        expect(stored).toBeUndefined();
      }
    });
  }

  it('answers 409 SLUG_TAKEN in the envelope for a slug already used in the organization only', async () => {
    const item = await createItem(shop);
    await expectError(
      await shop.call('owner', 'POST', '/merchant/items', { slug: item.slug, name: 'Again', type: 'SALE' }),
      409,
      'SLUG_TAKEN',
    );
    const elsewhere = await other.call('owner', 'POST', '/merchant/items', {
      slug: item.slug,
      name: 'Mine',
      type: 'SALE',
    });
    expect(elsewhere.status).toBe(201);
  });

  it(`creates one item under concurrent requests for one slug (${testDatabaseKind})`, async () => {
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, index) =>
        shop.call('admin', 'POST', '/merchant/items', {
          slug: 'contested-slug',
          name: `Racer ${index}`,
          type: 'SALE',
        }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, 409, 409, 409, 409, 409, 409, 409]);
    for (const response of responses.filter((r) => r.status === 409)) {
      expect((await errorOf(response)).code).toBe('SLUG_TAKEN');
    }
  });

  it('answers 400 VALIDATION_FAILED for each invalid body, naming the field', async () => {
    const base = { slug: 'valid-slug', name: 'Valid', type: 'SALE' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, slug: 'Not A Slug' }, 'slug'],
      [{ ...base, name: '' }, 'name'],
      [{ ...base, type: 'GIFT' }, 'type'],
      [{ ...base, status: 'ARCHIVED' }, 'status'],
      [{ ...base, priceInCents: -5 }, 'priceInCents'],
      [{ ...base, tags: Array.from({ length: 51 }, (_, i) => `t${i}`) }, 'tags'],
      [{ ...base, metafields: { __archivedFromStatus: 'ACTIVE' } }, 'metafields.__archivedFromStatus'],
      [{ ...base, description: 'x'.repeat(10_001) }, 'description'],
      [{ name: 'No slug', type: 'SALE' }, 'slug'],
    ];
    for (const [body, path] of cases) {
      const error = await expectError(
        await shop.call('owner', 'POST', '/merchant/items', body),
        400,
        'VALIDATION_FAILED',
      );
      expect(
        error.details?.issues?.map((issue) => issue.path),
        path,
      ).toEqual([path]);
    }
    const unknown = await expectError(
      await shop.call('owner', 'POST', '/merchant/items', { ...base, colour: 'red' }),
      400,
      'VALIDATION_FAILED',
    );
    expect(unknown.details?.issues?.[0]?.message).toContain('colour');
    expect(await itemRow(shop.organizationId, 'valid-slug')).toBeUndefined();
  });
});

describe('GET /merchant/items', () => {
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, MEMBER_ACTORS, 200);
    it(`answers ${status} to ${actor}`, async () => {
      const response = await shop.call(actor, 'GET', '/merchant/items?limit=200');
      if (status === 200) {
        expect(response.status).toBe(200);
        const page = (await response.json()) as ItemPage;
        expect(page.nextCursor).toBeNull();
        expect(page.data.length).toBeGreaterThan(0);
      } else {
        await expectRefused(response, status);
      }
    });
  }

  it('filters, searches and pages over HTTP with the contract order', async () => {
    const fx = await createRoleFixture(h, 'items-list');
    const made: ItemBody[] = [];
    for (let index = 0; index < 5; index++) {
      made.push(await createItem(fx, { name: `Canoe ${index}`, tags: ['water'], status: 'ACTIVE' }));
      h.clock.advance(1000);
    }
    const draft = await createItem(fx, { name: 'Draft canoe', sortOrder: -1 });
    const archived = await createItem(fx, { name: 'Old canoe' });
    expect((await fx.call('owner', 'POST', `/merchant/items/${archived.id}/archive`)).status).toBe(201);

    const get = async (query: string) =>
      (await (await fx.call('staffWithout', 'GET', `/merchant/items${query}`)).json()) as ItemPage;
    const newestFirst = [...made].reverse().map((item) => item.id);

    expect((await get('')).data.map((item) => item.id)).toEqual([draft.id, ...newestFirst]);
    expect((await get('?archived=TRUE')).data.map((item) => item.id)).toEqual([
      draft.id,
      archived.id,
      ...newestFirst,
    ]);
    expect((await get('?status=ARCHIVED')).data.map((item) => item.id)).toEqual([archived.id]);
    expect((await get('?status=ACTIVE&search=CANOE')).data.map((item) => item.id)).toEqual(newestFirst);
    expect((await get('?search=wat&compositionCandidate=yes&type=SALE')).data).toHaveLength(5);
    expect((await get('?type=RENTAL')).data).toEqual([]);

    const first = await get('?status=ACTIVE&limit=2');
    expect(first.data.map((item) => item.id)).toEqual(newestFirst.slice(0, 2));
    expect(first.nextCursor).toBe(newestFirst[1]);
    const second = await get(`?status=ACTIVE&limit=2&cursor=${first.nextCursor}`);
    expect(second.data.map((item) => item.id)).toEqual(newestFirst.slice(2, 4));
  });

  it('answers 400 for invalid boolean forms, limits and enumerations', async () => {
    for (const query of [
      'archived=maybe',
      'archived=',
      'compositionCandidate=2',
      'limit=0',
      'limit=201',
      'type=sale',
      'status=DELETED',
      'cursor=itm_unknown',
      'archived=true&archived=false',
    ]) {
      const error = await expectError(
        await shop.call('owner', 'GET', `/merchant/items?${query}`),
        400,
        'VALIDATION_FAILED',
      );
      expect(error.details?.issues?.length, query).toBeGreaterThan(0);
    }
  });

  it("never lists another organization's items", async () => {
    const foreign = await createItem(other, { name: 'Foreign thing' });
    const page = (await (
      await shop.call('owner', 'GET', '/merchant/items?limit=200&archived=true')
    ).json()) as ItemPage;
    expect(page.data.map((item) => item.id)).not.toContain(foreign.id);
    expect(page.data.every((item) => item.name !== 'Foreign thing')).toBe(true);
  });
});

describe('GET /merchant/items/{id} and /merchant/items/by-slug/{slug}', () => {
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, MEMBER_ACTORS, 200);
    it(`answers ${status} to ${actor}, archived items included`, async () => {
      const item = await createItem(shop);
      await shop.call('owner', 'POST', `/merchant/items/${item.id}/archive`);
      for (const path of [`/merchant/items/${item.id}`, `/merchant/items/by-slug/${item.slug}`]) {
        const response = await shop.call(actor, 'GET', path);
        if (status === 200) {
          expect(response.status, path).toBe(200);
          expect(await response.json()).toMatchObject({ id: item.id, status: 'ARCHIVED' });
        } else {
          await expectRefused(response, status);
        }
      }
    });
  }

  it("answers 404 for a missing item and for another organization's", async () => {
    const foreign = await createItem(other);
    for (const path of [
      `/merchant/items/${foreign.id}`,
      `/merchant/items/by-slug/${foreign.slug}`,
      '/merchant/items/itm_missing',
      '/merchant/items/by-slug/missing',
    ]) {
      await expectError(await shop.call('owner', 'GET', path), 404, 'RESOURCE_NOT_FOUND');
    }
  });
});

describe('PATCH /merchant/items/{id}', () => {
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, WRITERS, 200);
    it(`answers ${status} to ${actor}`, async () => {
      const item = await createItem(shop, { name: 'Before' });
      const response = await shop.call(actor, 'PATCH', `/merchant/items/${item.id}`, {
        name: `After ${actor}`,
        status: 'ACTIVE',
      });
      const row = await itemRow(shop.organizationId, item.id);
      if (status === 200) {
        expect(response.status).toBe(200);
        expect(await response.json()).toMatchObject({ name: `After ${actor}`, status: 'ACTIVE' });
        expect(row).toMatchObject({ name: `After ${actor}`, status: 'ACTIVE' });
        const updates = (await audits(shop.organizationId, item.id)).filter(
          (a) => a.action === 'item.updated',
        );
        expect(updates).toEqual([
          {
            action: 'item.updated',
            actor_user_id: shop.users[actor as 'owner'].userId,
            metadata: { fields: ['name', 'status'] },
          },
        ]);
      } else {
        await expectRefused(response, status);
        expect(row?.name).toBe('Before');
      }
    });
  }

  it('answers 409 SLUG_TAKEN, 409 INVALID_STATE_TRANSITION for status on an archived item, 400 for ARCHIVED and 404 across tenants', async () => {
    const taken = await createItem(shop);
    const item = await createItem(shop);
    await expectError(
      await shop.call('owner', 'PATCH', `/merchant/items/${item.id}`, { slug: taken.slug }),
      409,
      'SLUG_TAKEN',
    );
    const archivedStatus = await expectError(
      await shop.call('owner', 'PATCH', `/merchant/items/${item.id}`, { status: 'ARCHIVED' }),
      400,
      'VALIDATION_FAILED',
    );
    expect(archivedStatus.details?.issues?.[0]?.path).toBe('status');
    await expectError(
      await shop.call('owner', 'PATCH', `/merchant/items/${item.id}`, { sku: 'x' }),
      400,
      'VALIDATION_FAILED',
    );

    await shop.call('owner', 'POST', `/merchant/items/${item.id}/archive`);
    await expectError(
      await shop.call('owner', 'PATCH', `/merchant/items/${item.id}`, { status: 'ACTIVE' }),
      409,
      'INVALID_STATE_TRANSITION',
    );
    const renamed = await shop.call('owner', 'PATCH', `/merchant/items/${item.id}`, {
      name: 'Renamed while archived',
    });
    expect(renamed.status).toBe(200);

    await expectError(
      await other.call('owner', 'PATCH', `/merchant/items/${item.id}`, { name: 'Hijack' }),
      404,
      'RESOURCE_NOT_FOUND',
    );
    expect((await itemRow(shop.organizationId, item.id))?.name).toBe('Renamed while archived');
  });

  it('answers 200 and records nothing for a body that changes nothing, including an empty body', async () => {
    const item = await createItem(shop, { name: 'Steady' });
    const before = await audits(shop.organizationId, item.id);
    for (const body of [undefined, {}, { name: 'Steady' }]) {
      const response = await shop.call('admin', 'PATCH', `/merchant/items/${item.id}`, body);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(item);
    }
    expect(await audits(shop.organizationId, item.id)).toEqual(before);
  });
});

describe('PATCH /merchant/items/{id} metafields', () => {
  it('merges per key, deletes a key sent as null, keeps reserved keys and refuses a merged set over the limits', async () => {
    const item = await createItem(shop, {
      status: 'ACTIVE',
      metafields: { color: 'red', size: 'M', fit: 'slim' },
    });
    await shop.call('owner', 'POST', `/merchant/items/${item.id}/archive`);

    const merged = await shop.call('owner', 'PATCH', `/merchant/items/${item.id}`, {
      metafields: { size: 'L', fit: null, care: 'hand wash' },
    });
    expect(merged.status).toBe(200);
    expect(((await merged.json()) as ItemBody).metafields).toEqual({
      color: 'red',
      size: 'L',
      care: 'hand wash',
      __archivedFromStatus: 'ACTIVE',
    });

    await expectError(
      await shop.call('owner', 'PATCH', `/merchant/items/${item.id}`, {
        metafields: { __archivedFromStatus: null },
      }),
      400,
      'VALIDATION_FAILED',
    );
    const tooMany = Object.fromEntries(Array.from({ length: 98 }, (_, i) => [`k${i}`, i]));
    const refused = await expectError(
      await shop.call('owner', 'PATCH', `/merchant/items/${item.id}`, { metafields: tooMany }),
      400,
      'VALIDATION_FAILED',
    );
    expect(refused.details?.issues?.[0]?.path).toBe('metafields');
    expect((await itemRow(shop.organizationId, item.id))?.metafields).toEqual({
      color: 'red',
      size: 'L',
      care: 'hand wash',
      __archivedFromStatus: 'ACTIVE',
    });
  });

  it.skipIf(testDatabaseKind !== 'postgres')(
    'keeps both keys of concurrent PATCHes of different keys',
    async () => {
      const item = await createItem(shop, { metafields: { base: 1 } });
      const keys = Array.from({ length: 8 }, (_, i) => `k${i}`);
      const responses = await Promise.all(
        keys.map((key) =>
          shop.call('owner', 'PATCH', `/merchant/items/${item.id}`, { metafields: { [key]: key } }),
        ),
      );
      expect(responses.map((response) => response.status)).toEqual(keys.map(() => 200));
      expect((await itemRow(shop.organizationId, item.id))?.metafields).toEqual({
        base: 1,
        ...Object.fromEntries(keys.map((key) => [key, key])),
      });
    },
  );
});

describe('PATCH /merchant/items/reorder', () => {
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, WRITERS, 200);
    it(`answers ${status} to ${actor}`, async () => {
      const fx = await createRoleFixture(h, `items-reorder-${actor.toLowerCase()}`, ['catalog:write']);
      const a = await createItem(fx);
      const b = await createItem(fx);
      const response = await fx.call(actor, 'PATCH', '/merchant/items/reorder', { orderedIds: [a.id, b.id] });
      if (status === 200) {
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({
          data: [
            { id: a.id, sortOrder: 0 },
            { id: b.id, sortOrder: 1 },
          ],
        });
        expect((await itemRow(fx.organizationId, b.id))?.sort_order).toBe(1);
      } else {
        await expectRefused(response, status);
        expect((await itemRow(fx.organizationId, b.id))?.sort_order).toBe(0);
      }
    });
  }

  it('answers 400 for an incomplete, duplicated or foreign set and is not mistaken for PATCH /merchant/items/{id}', async () => {
    const fx = await createRoleFixture(h, 'items-reorder-rules', ['catalog:write']);
    const a = await createItem(fx);
    const b = await createItem(fx);
    const foreign = await createItem(other);
    for (const orderedIds of [[a.id], [a.id, b.id, a.id], [a.id, b.id, foreign.id], []]) {
      await expectError(
        await fx.call('owner', 'PATCH', '/merchant/items/reorder', { orderedIds }),
        400,
        'VALIDATION_FAILED',
      );
    }
    await expectError(
      await fx.call('owner', 'PATCH', '/merchant/items/reorder', {}),
      400,
      'VALIDATION_FAILED',
    );
    await expectError(
      await fx.call('owner', 'PATCH', '/merchant/items/reorder', { orderedIds: [a.id, b.id], extra: 1 }),
      400,
      'VALIDATION_FAILED',
    );
  });
});

describe('POST /merchant/items/{id}/archive and /restore', () => {
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, WRITERS, 201);
    it(`answers ${status} to ${actor}`, async () => {
      const item = await createItem(shop, { status: 'ACTIVE' });
      const archived = await shop.call(actor, 'POST', `/merchant/items/${item.id}/archive`);
      if (status === 201) {
        expect(archived.status).toBe(201);
        expect(await archived.json()).toMatchObject({
          status: 'ARCHIVED',
          archivedAt: expect.any(String),
          metafields: { __archivedFromStatus: 'ACTIVE' },
        });
        const restored = await shop.call(actor, 'POST', `/merchant/items/${item.id}/restore`);
        expect(restored.status).toBe(201);
        expect(await restored.json()).toMatchObject({ status: 'ACTIVE', archivedAt: null, metafields: {} });
      } else {
        await expectRefused(archived, status);
        // Archive as the Owner, then check the actor cannot restore either.
        await shop.call('owner', 'POST', `/merchant/items/${item.id}/archive`);
        await expectRefused(await shop.call(actor, 'POST', `/merchant/items/${item.id}/restore`), status);
        expect((await itemRow(shop.organizationId, item.id))?.status).toBe('ARCHIVED');
      }
    });
  }

  it('is idempotent and audits only changes; takes an empty JSON body; 404 across tenants', async () => {
    const item = await createItem(shop, { status: 'DRAFT' });
    // Audit records of one instant sort by their random id part: move the clock between steps.
    for (let round = 0; round < 2; round++) {
      h.clock.advance(1000);
      expect((await shop.call('owner', 'POST', `/merchant/items/${item.id}/archive`, {})).status).toBe(201);
    }
    for (let round = 0; round < 2; round++) {
      h.clock.advance(1000);
      const restored = await shop.call('owner', 'POST', `/merchant/items/${item.id}/restore`);
      expect(restored.status).toBe(201);
      expect(await restored.json()).toMatchObject({ status: 'DRAFT' });
    }
    expect((await audits(shop.organizationId, item.id)).map((audit) => audit.action)).toEqual([
      'item.created',
      'item.archived',
      'item.restored',
    ]);
    await expectError(
      await shop.call('owner', 'POST', `/merchant/items/${item.id}/archive`, { force: true }),
      400,
      'VALIDATION_FAILED',
    );
    await expectError(
      await other.call('owner', 'POST', `/merchant/items/${item.id}/archive`),
      404,
      'RESOURCE_NOT_FOUND',
    );
    await expectError(
      await other.call('owner', 'POST', `/merchant/items/${item.id}/restore`),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });
});

describe('OpenAPI document', () => {
  it('documents the item and variant routes with their success status and own error codes', async () => {
    const document = (await (await h.app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown>; operationId: string }>>;
    };
    const responses = (path: string, method: string) => {
      const operation = document.paths[path]?.[method];
      expect(operation, `${method} ${path}`).toBeDefined();
      return operation!.responses;
    };
    expect(Object.keys(responses('/merchant/items', 'post'))).toEqual(
      expect.arrayContaining(['201', '403', '409']),
    );
    expect(JSON.stringify(responses('/merchant/items', 'post')['409'])).toContain('SLUG_TAKEN');
    expect(JSON.stringify(responses('/merchant/items/{id}', 'patch')['409'])).toContain(
      'INVALID_STATE_TRANSITION',
    );
    expect(Object.keys(responses('/merchant/items/reorder', 'patch'))).toContain('200');
    for (const action of ['archive', 'restore']) {
      expect(Object.keys(responses(`/merchant/items/{id}/${action}`, 'post'))).toContain('201');
      expect(
        Object.keys(responses(`/merchant/items/{itemId}/variants/{variantId}/${action}`, 'post')),
      ).toContain('201');
    }
    expect(JSON.stringify(responses('/merchant/items/{itemId}/variants', 'post')['409'])).toContain(
      'SKU_TAKEN',
    );
    expect(responses('/merchant/items/by-slug/{slug}', 'get')['200']).toBeDefined();
    expect(responses('/merchant/items/{itemId}/variants/{variantId}', 'patch')['200']).toBeDefined();
    for (const [path, method] of [
      ['/public/items', 'get'],
      ['/public/items/{slug}', 'get'],
      ['/public/items/resolve', 'post'],
    ] as const) {
      expect(JSON.stringify(responses(path, method)['429']), path).toContain('RATE_LIMIT_EXCEEDED');
    }
  });
});
