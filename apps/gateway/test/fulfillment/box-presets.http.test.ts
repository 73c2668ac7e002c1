import { testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { ACTORS, type Actor, createRoleFixture, expectedStatus, type RoleFixture } from '../support/roles.ts';

interface BoxPreset {
  id: string;
  name: string;
  innerLengthMm: number;
  outerLengthMm: number;
  maxLoadGrams: number | null;
  sortOrder: number;
  revision: number;
  archivedAt: string | null;
}

interface Page {
  data: BoxPreset[];
  nextCursor: string | null;
}

const BASE = '/merchant/shipping/box-presets';
const MEMBERS: readonly Actor[] = ['owner', 'admin', 'staffWith', 'staffWithout'];
const WRITERS: readonly Actor[] = ['owner', 'admin', 'staffWith'];

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;

beforeAll(async () => {
  h = await createHarness({ poolSize: 20 });
  shop = await createRoleFixture(h, 'box-shop', ['fulfillment:operate']);
  other = await createRoleFixture(h, 'box-other', ['fulfillment:operate']);
});
afterAll(async () => {
  await h.close();
});

async function ok<T>(response: Response, status: number): Promise<T> {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

let sequence = 0;
const presetBody = (body: Record<string, unknown> = {}) => {
  sequence += 1;
  return {
    name: `Box ${sequence}`,
    innerLengthMm: 300,
    innerWidthMm: 200,
    innerHeightMm: 100,
    tareWeightGrams: 150,
    ...body,
  };
};
const newPreset = async (fixture: RoleFixture = shop, body: Record<string, unknown> = {}) =>
  ok<BoxPreset>(await fixture.call('owner', 'POST', BASE, presetBody(body)), 201);

describe('box presets over HTTP', () => {
  it('creates (201), reads, patches with expectedRevision, archives and restores (201, idempotent)', async () => {
    const preset = await newPreset(shop, { name: 'Mailer', outerLengthMm: 310, maxLoadGrams: 5000 });
    expect(preset).toMatchObject({ name: 'Mailer', outerLengthMm: 310, maxLoadGrams: 5000, revision: 1 });
    expect(await ok(await shop.call('staffWithout', 'GET', `${BASE}/${preset.id}`), 200)).toEqual(preset);

    const patched = await ok<BoxPreset>(
      await shop.call('staffWith', 'PATCH', `${BASE}/${preset.id}`, { sortOrder: 3, expectedRevision: 1 }),
      200,
    );
    expect(patched).toMatchObject({ sortOrder: 3, revision: 2 });
    const stale = await expectError(
      await shop.call('owner', 'PATCH', `${BASE}/${preset.id}`, { sortOrder: 4, expectedRevision: 1 }),
      409,
      'STALE_STATE',
    );
    expect(stale.details).toEqual({ revision: 2 });

    for (let attempt = 0; attempt < 2; attempt++) {
      const archived = await ok<BoxPreset>(
        // No body and no content type: an action route takes an empty request.
        await h.app.request(`/api/v1${BASE}/${preset.id}/archive`, {
          method: 'POST',
          headers: { 'x-organization-slug': shop.slug, authorization: `Bearer ${shop.users.owner.token}` },
        }),
        201,
      );
      expect(archived.archivedAt).not.toBeNull();
    }
    const active = await ok<Page>(await shop.call('owner', 'GET', BASE), 200);
    expect(active.data.map((p) => p.id)).not.toContain(preset.id);
    const withArchived = await ok<Page>(await shop.call('owner', 'GET', `${BASE}?archived=Yes`), 200);
    expect(withArchived.data.map((p) => p.id)).toContain(preset.id);
    for (let attempt = 0; attempt < 2; attempt++) {
      const restored = await ok<BoxPreset>(
        await shop.call('owner', 'POST', `${BASE}/${preset.id}/restore`, {}),
        201,
      );
      expect(restored).toMatchObject({ archivedAt: null, revision: 2 });
    }
  });

  it('answers a taken name with 409 BOX_PRESET_NAME_TAKEN, on create, rename and restore', async () => {
    const first = await newPreset(shop, { name: 'Crate' });
    await expectError(
      await shop.call('owner', 'POST', BASE, presetBody({ name: 'crate' })),
      409,
      'BOX_PRESET_NAME_TAKEN',
    );
    const second = await newPreset(shop, { name: 'Crate 2' });
    await expectError(
      await shop.call('owner', 'PATCH', `${BASE}/${second.id}`, { name: 'CRATE' }),
      409,
      'BOX_PRESET_NAME_TAKEN',
    );
    await ok(await shop.call('owner', 'POST', `${BASE}/${first.id}/archive`, {}), 201);
    await ok(await shop.call('owner', 'PATCH', `${BASE}/${second.id}`, { name: 'Crate' }), 200);
    await expectError(
      await shop.call('owner', 'POST', `${BASE}/${first.id}/restore`, {}),
      409,
      'BOX_PRESET_NAME_TAKEN',
    );
  });

  it('answers bad input with 400 VALIDATION_FAILED naming the field', async () => {
    const preset = await newPreset();
    const cases: [string, string, unknown, string][] = [
      ['POST', BASE, presetBody({ innerLengthMm: 0 }), 'innerLengthMm'],
      ['POST', BASE, presetBody({ innerWidthMm: 3001 }), 'innerWidthMm'],
      ['POST', BASE, presetBody({ outerHeightMm: 99 }), 'outerHeightMm'],
      ['POST', BASE, presetBody({ tareWeightGrams: 50_001 }), 'tareWeightGrams'],
      ['POST', BASE, presetBody({ maxLoadGrams: 150_001 }), 'maxLoadGrams'],
      ['POST', BASE, presetBody({ name: '' }), 'name'],
      ['POST', BASE, presetBody({ colour: 'brown' }), ''],
      ['PATCH', `${BASE}/${preset.id}`, { expectedRevision: 0 }, 'expectedRevision'],
      ['PATCH', `${BASE}/${preset.id}`, { innerLengthMm: 400, outerLengthMm: 350 }, 'outerLengthMm'],
      ['PATCH', `${BASE}/${preset.id}`, { innerHeightMm: 1.5 }, 'innerHeightMm'],
      ['GET', `${BASE}?archived=maybe`, undefined, 'archived'],
      ['GET', `${BASE}?limit=201`, undefined, 'limit'],
      ['GET', `${BASE}?cursor=${preset.id.replace('box_', 'box_0')}`, undefined, 'cursor'],
    ];
    for (const [method, path, body, issuePath] of cases) {
      const error = await expectError(await shop.call('owner', method, path, body), 400, 'VALIDATION_FAILED');
      expect(
        error.details?.issues?.map((issue) => issue.path),
        `${method} ${path} ${JSON.stringify(body)}`,
      ).toContain(issuePath);
    }
  });

  it('pages by sortOrder, name and id', async () => {
    const fixture = await createRoleFixture(h, 'box-pages', []);
    const made: BoxPreset[] = [];
    for (const [name, sortOrder] of [
      ['B', 0],
      ['A', 0],
      ['C', -5],
    ] as const) {
      made.push(await newPreset(fixture, { name, sortOrder }));
    }
    const first = await ok<Page>(await fixture.call('owner', 'GET', `${BASE}?limit=2`), 200);
    expect(first.data.map((p) => p.name)).toEqual(['C', 'A']);
    const second = await ok<Page>(
      await fixture.call('owner', 'GET', `${BASE}?limit=2&cursor=${first.nextCursor}`),
      200,
    );
    expect(second).toMatchObject({ data: [{ name: 'B' }], nextCursor: null });
  });
});

describe('box preset security', () => {
  it('lets every member read and only Owner, Admin and Staff with fulfillment:operate write', async () => {
    const preset = await newPreset();
    for (const actor of ACTORS) {
      for (const path of [BASE, `${BASE}/${preset.id}`]) {
        expect((await shop.call(actor, 'GET', path)).status, `${actor} GET ${path}`).toBe(
          expectedStatus(actor, MEMBERS, 200),
        );
      }
      const writes: [string, string, unknown, number][] = [
        ['POST', BASE, presetBody({ name: `By ${actor}` }), 201],
        ['PATCH', `${BASE}/${preset.id}`, { name: `Renamed by ${actor}` }, 200],
        ['POST', `${BASE}/${preset.id}/archive`, {}, 201],
        ['POST', `${BASE}/${preset.id}/restore`, {}, 201],
      ];
      for (const [method, path, body, success] of writes) {
        const response = await shop.call(actor, method, path, body);
        expect(response.status, `${actor} ${method} ${path}`).toBe(expectedStatus(actor, WRITERS, success));
        if (response.status === 403) await expectError(response, 403, 'FORBIDDEN');
      }
    }
  });

  it("answers another tenant's preset with the neutral 404 on every route", async () => {
    const foreign = await newPreset(other);
    const path = `${BASE}/${foreign.id}`;
    const calls: [string, string, unknown][] = [
      ['GET', path, undefined],
      ['PATCH', path, { name: 'Mine now' }],
      ['POST', `${path}/archive`, {}],
      ['POST', `${path}/restore`, {}],
    ];
    for (const [method, route, body] of calls) {
      await expectError(await shop.call('owner', method, route, body), 404, 'RESOURCE_NOT_FOUND');
    }
    const unknown = (await (await shop.call('owner', 'GET', `${BASE}/box_unknown`)).json()) as {
      error: object;
    };
    const foreignRead = (await (await shop.call('owner', 'GET', path)).json()) as { error: object };
    expect({ ...unknown.error, requestId: '' }).toEqual({ ...foreignRead.error, requestId: '' });
    expect((await ok<BoxPreset>(await other.call('owner', 'GET', path), 200)).name).toBe(foreign.name);
  });
});

describe.runIf(testDatabaseKind === 'postgres')('box presets under concurrent requests (PostgreSQL)', () => {
  it('creates one of 10 concurrent presets of one name; the other nine are 409 BOX_PRESET_NAME_TAKEN', async () => {
    const responses = await Promise.all(
      Array.from({ length: 10 }, () => shop.call('owner', 'POST', BASE, presetBody({ name: 'Racing box' }))),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([201, ...Array.from({ length: 9 }, () => 409)]);
    for (const response of responses) {
      if (response.status === 409) await expectError(response, 409, 'BOX_PRESET_NAME_TAKEN');
    }
  });

  it('stops at 200 non-archived presets when creates race for the last places', async () => {
    const fixture = await createRoleFixture(h, 'box-limit', []);
    for (let index = 0; index < 195; index += 15) {
      const batch = Array.from({ length: Math.min(15, 195 - index) }, (_, offset) =>
        fixture.call('owner', 'POST', BASE, presetBody({ name: `Fill ${index + offset}` })),
      );
      for (const response of await Promise.all(batch)) expect(response.status).toBe(201);
    }
    const responses = await Promise.all(
      Array.from({ length: 12 }, (_, index) =>
        fixture.call('owner', 'POST', BASE, presetBody({ name: `Last ${index}` })),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([
      ...Array.from({ length: 5 }, () => 201),
      ...Array.from({ length: 7 }, () => 409),
    ]);
    for (const response of responses) {
      if (response.status === 409) await expectError(response, 409, 'BOX_PRESET_LIMIT_REACHED');
    }
    const page = await ok<Page>(await fixture.call('owner', 'GET', `${BASE}?limit=200`), 200);
    expect(page.data).toHaveLength(200);
    expect(page.nextCursor).toBeNull();
  });
});

describe('catalog shipping dimensions over HTTP', () => {
  it('are written and read on merchant item and variant routes, and never shown on public item reads', async () => {
    const dimensions = {
      shippingWeightGrams: 500,
      shippingLengthMm: 100,
      shippingWidthMm: 80,
      shippingHeightMm: 60,
    };
    const catalog = await createRoleFixture(h, 'box-dims', ['catalog:write']);
    const item = await ok<{ id: string }>(
      await catalog.call('owner', 'POST', '/merchant/items', {
        slug: 'boxed-mug',
        name: 'Boxed mug',
        type: 'SALE',
        status: 'ACTIVE',
        ...dimensions,
      }),
      201,
    );
    expect(
      await ok(await catalog.call('staffWithout', 'GET', `/merchant/items/${item.id}`), 200),
    ).toMatchObject(dimensions);
    const variant = await ok<{ id: string }>(
      await catalog.call('owner', 'POST', `/merchant/items/${item.id}/variants`, {
        name: 'Large',
        ...dimensions,
      }),
      201,
    );
    const patched = await ok(
      await catalog.call('owner', 'PATCH', `/merchant/items/${item.id}/variants/${variant.id}`, {
        shippingHeightMm: null,
      }),
      200,
    );
    expect(patched).toMatchObject({ ...dimensions, shippingHeightMm: null });
    await expectError(
      await catalog.call('owner', 'PATCH', `/merchant/items/${item.id}`, { shippingWeightGrams: 0 }),
      400,
      'VALIDATION_FAILED',
    );

    const publicReads = ['/public/items', '/public/items/boxed-mug'];
    for (const path of publicReads) {
      const response = await h.app.request(`/api/v1${path}`, {
        headers: { 'x-organization-slug': catalog.slug },
      });
      const text = await response.text();
      expect(response.status, path).toBe(200);
      expect(text, path).toContain('Boxed mug');
      expect(text, path).not.toMatch(/shipping(Weight|Length|Width|Height)/);
    }
  });
});

describe('OpenAPI document', () => {
  it('documents the box preset routes with their statuses, security and error codes', async () => {
    const document = (await (await h.app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown>; security: unknown[] }>>;
      components: { schemas: Record<string, { properties?: Record<string, unknown> }> };
    };
    const operation = (path: string, method: string) => {
      const found = document.paths[path]?.[method];
      expect(found, `${method} ${path}`).toBeDefined();
      return found!;
    };
    expect(Object.keys(operation(BASE, 'post').responses)).toEqual(
      expect.arrayContaining(['201', '400', '403', '409']),
    );
    expect(JSON.stringify(operation(BASE, 'post').responses['409'])).toContain('BOX_PRESET_LIMIT_REACHED');
    expect(JSON.stringify(operation(BASE, 'post').responses['409'])).toContain('BOX_PRESET_NAME_TAKEN');
    expect(JSON.stringify(operation(`${BASE}/{id}`, 'patch').responses['409'])).toContain('STALE_STATE');
    expect(JSON.stringify(operation(`${BASE}/{id}/restore`, 'post').responses['409'])).toContain(
      'BOX_PRESET_LIMIT_REACHED',
    );
    expect(Object.keys(operation(`${BASE}/{id}/archive`, 'post').responses)).toContain('201');
    expect(operation(`${BASE}/{id}`, 'get').security).toEqual([{ BearerAuth: [], OrganizationSlug: [] }]);
    expect(Object.keys(document.components.schemas.PublicItem?.properties ?? {})).not.toContain(
      'shippingWeightGrams',
    );
    expect(Object.keys(document.components.schemas.Item?.properties ?? {})).toContain('shippingWeightGrams');
  });
});
