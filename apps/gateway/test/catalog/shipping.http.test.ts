import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import {
  ACTORS,
  type Actor,
  createRoleFixture,
  expectedStatus,
  MEMBER_ACTORS,
  type RoleFixture,
} from '../support/roles.ts';

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'ship-shop', ['settings:manage']);
  other = await createRoleFixture(h, 'ship-other', ['settings:manage']);
});
afterAll(async () => {
  await h.close();
});

interface Rate {
  id: string;
  zoneId: string;
  name: string;
  priceInCents: number;
  minimumSubtotalInCents: number | null;
  estimatedDelivery: string | null;
  sortOrder: number;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
}

interface Zone {
  id: string;
  name: string;
  countries: string[];
  sortOrder: number;
  archivedAt: string | null;
  createdAt: string;
  updatedAt: string;
  rates: Rate[];
}

async function ok<T>(response: Response, status: number): Promise<T> {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

let sequence = 0;
async function newZone(fixture: RoleFixture = shop, body: Record<string, unknown> = {}): Promise<Zone> {
  sequence += 1;
  return ok<Zone>(
    await fixture.call('owner', 'POST', '/merchant/shipping/zones', {
      name: `Zone ${sequence}`,
      countries: ['US'],
      ...body,
    }),
    201,
  );
}

async function newRate(zoneId: string, fixture: RoleFixture = shop, body: Record<string, unknown> = {}) {
  return ok<Rate>(
    await fixture.call('owner', 'POST', `/merchant/shipping/zones/${zoneId}/rates`, {
      name: 'Standard',
      priceInCents: 500,
      ...body,
    }),
    201,
  );
}

const auditActions = async (organizationId: string, targetId: string) =>
  (
    await h.database.db
      .selectFrom('audit_logs')
      .select('action')
      .where('organization_id', '=', organizationId)
      .where('target_id', '=', targetId)
      .orderBy('created_at')
      .orderBy('id')
      .execute()
  ).map((row) => row.action);

const countAudits = async (organizationId: string, action: string) =>
  Number(
    (
      await h.database.db
        .selectFrom('audit_logs')
        .select((eb) => eb.fn.countAll<string>().as('count'))
        .where('organization_id', '=', organizationId)
        .where('action', '=', action)
        .executeTakeFirstOrThrow()
    ).count,
  );

const publicZones = (slug: string, query = '') =>
  h.app.request(`/api/v1/public/shipping/zones${query}`, { headers: { 'x-organization-slug': slug } });

const WRITERS: readonly Actor[] = ['owner', 'admin', 'staffWith'];
const denial = (status: number) => (status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');

describe('POST /merchant/shipping/zones', () => {
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, WRITERS, 201);
    it(`answers ${status} to ${actor}`, async () => {
      const name = `Created by ${actor}`;
      const response = await shop.call(actor, 'POST', '/merchant/shipping/zones', {
        name,
        countries: ['us', 'ca', 'US'],
        sortOrder: 2,
      });
      const stored = await h.database.db
        .selectFrom('shipping_zones')
        .select('id')
        .where('organization_id', '=', shop.organizationId)
        .where('name', '=', name)
        .execute();
      if (status === 201) {
        const zone = await ok<Zone>(response, 201);
        expect(zone).toEqual({
          id: expect.stringMatching(/^shz_/),
          name,
          countries: ['US', 'CA'],
          sortOrder: 2,
          archivedAt: null,
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
          rates: [],
        });
        expect(stored).toEqual([{ id: zone.id }]);
        expect(await auditActions(shop.organizationId, zone.id)).toEqual(['shipping_zone.created']);
      } else {
        await expectError(response, status, denial(status));
        expect(stored).toEqual([]);
      }
    });
  }

  it('answers 400 VALIDATION_FAILED for invalid bodies, naming the field', async () => {
    const cases: [unknown, string][] = [
      [{ name: 'X', countries: ['XX'] }, 'countries.0'],
      [{ name: 'X', countries: ['us', 'usa'] }, 'countries.1'],
      [{ name: 'X', countries: ['EU'] }, 'countries.0'],
      [{ name: '', countries: [] }, 'name'],
      [{ name: 'x'.repeat(201), countries: [] }, 'name'],
      [{ name: 'X' }, 'countries'],
      [{ name: 'X', countries: [], sortOrder: 'first' }, 'sortOrder'],
      [{ name: 'X', countries: [], taxRate: 0.2 }, ''],
    ];
    for (const [body, path] of cases) {
      const error = await expectError(
        await shop.call('owner', 'POST', '/merchant/shipping/zones', body),
        400,
        'VALIDATION_FAILED',
      );
      expect(
        error.details?.issues?.map((issue) => issue.path),
        JSON.stringify(body),
      ).toContain(path);
    }
  });

  it('accepts an empty country list', async () => {
    const zone = await newZone(shop, { countries: [] });
    expect(zone.countries).toEqual([]);
  });
});

/** Each write route, with what it needs and what it answers; every one needs `settings:manage`. */
const WRITE_ROUTES: {
  label: string;
  method: string;
  path: (zone: Zone, rate: Rate) => string;
  body?: Record<string, unknown>;
  success: number;
  /** The audit action a success records. */
  action: string;
  /** What a success answers: the zone, or a rate. */
  target: 'zone' | 'rate';
  /** Makes the starting state the route needs. */
  prepare?: (zone: Zone, rate: Rate) => Promise<unknown>;
}[] = [
  {
    label: 'PATCH /merchant/shipping/zones/:id',
    method: 'PATCH',
    path: (zone) => `/merchant/shipping/zones/${zone.id}`,
    body: { countries: ['de', 'fr'] },
    success: 200,
    action: 'shipping_zone.updated',
    target: 'zone',
  },
  {
    label: 'POST /merchant/shipping/zones/:id/archive',
    method: 'POST',
    path: (zone) => `/merchant/shipping/zones/${zone.id}/archive`,
    success: 201,
    action: 'shipping_zone.archived',
    target: 'zone',
  },
  {
    label: 'POST /merchant/shipping/zones/:id/restore',
    method: 'POST',
    path: (zone) => `/merchant/shipping/zones/${zone.id}/restore`,
    success: 201,
    action: 'shipping_zone.restored',
    target: 'zone',
    prepare: (zone) => shop.call('owner', 'POST', `/merchant/shipping/zones/${zone.id}/archive`),
  },
  {
    label: 'POST /merchant/shipping/zones/:id/rates',
    method: 'POST',
    path: (zone) => `/merchant/shipping/zones/${zone.id}/rates`,
    body: { name: 'Express', priceInCents: 1500, estimatedDelivery: '1 day' },
    success: 201,
    action: 'shipping_rate.created',
    target: 'rate',
  },
  {
    label: 'PATCH /merchant/shipping/rates/:rateId',
    method: 'PATCH',
    path: (_zone, rate) => `/merchant/shipping/rates/${rate.id}`,
    body: { priceInCents: 750 },
    success: 200,
    action: 'shipping_rate.updated',
    target: 'rate',
  },
  {
    label: 'POST /merchant/shipping/rates/:rateId/archive',
    method: 'POST',
    path: (_zone, rate) => `/merchant/shipping/rates/${rate.id}/archive`,
    success: 201,
    action: 'shipping_rate.archived',
    target: 'rate',
  },
  {
    label: 'POST /merchant/shipping/rates/:rateId/restore',
    method: 'POST',
    path: (_zone, rate) => `/merchant/shipping/rates/${rate.id}/restore`,
    success: 201,
    action: 'shipping_rate.restored',
    target: 'rate',
    prepare: (_zone, rate) => shop.call('owner', 'POST', `/merchant/shipping/rates/${rate.id}/archive`),
  },
];

for (const route of WRITE_ROUTES) {
  describe(route.label, () => {
    for (const actor of ACTORS) {
      const status = expectedStatus(actor, WRITERS, route.success);
      it(`answers ${status} to ${actor}`, async () => {
        const zone = await newZone();
        const rate = await newRate(zone.id);
        await route.prepare?.(zone, rate);
        const before = await shop.call('owner', 'GET', `/merchant/shipping/zones/${zone.id}`);
        const stateBefore = await ok<Zone>(before, 200);
        const auditedBefore = await countAudits(shop.organizationId, route.action);

        const response = await shop.call(actor, route.method, route.path(zone, rate), route.body);

        const stateAfter = await ok<Zone>(
          await shop.call('owner', 'GET', `/merchant/shipping/zones/${zone.id}`),
          200,
        );
        const audited = await countAudits(shop.organizationId, route.action);
        if (status === route.success) {
          const body = (await ok<{ id: string }>(response, status)) as Zone & Rate;
          if (route.target === 'zone') expect(body).toEqual(stateAfter);
          else expect(stateAfter.rates).toContainEqual(body);
          expect(stateAfter).not.toEqual(stateBefore);
          expect(audited).toBe(auditedBefore + 1);
        } else {
          await expectError(response, status, denial(status));
          expect(stateAfter).toEqual(stateBefore);
          expect(audited).toBe(auditedBefore);
        }
      });
    }
  });
}

describe('zone and rate writes: behaviour', () => {
  it('PATCH replaces the country list wholesale and answers the zone with its rates', async () => {
    const zone = await newZone(shop, { countries: ['US', 'CA', 'MX'] });
    const rate = await newRate(zone.id);
    const updated = await ok<Zone>(
      await shop.call('admin', 'PATCH', `/merchant/shipping/zones/${zone.id}`, { countries: ['gb'] }),
      200,
    );
    expect(updated).toMatchObject({ id: zone.id, name: zone.name, countries: ['GB'], rates: [rate] });
  });

  it('archive and restore answer 201 with the resource, also when repeated, and accept an empty body', async () => {
    const zone = await newZone();
    const rate = await newRate(zone.id);
    // The audit records below are compared in time order: give each step its own instant.
    h.clock.advance(1000);
    const first = await ok<Zone>(
      await shop.call('owner', 'POST', `/merchant/shipping/zones/${zone.id}/archive`),
      201,
    );
    h.clock.advance(1000);
    const again = await ok<Zone>(
      await shop.call('owner', 'POST', `/merchant/shipping/zones/${zone.id}/archive`, {}),
      201,
    );
    expect(again).toEqual(first);
    expect(first.archivedAt).not.toBeNull();

    const rateFirst = await ok<Rate>(
      await shop.call('owner', 'POST', `/merchant/shipping/rates/${rate.id}/archive`),
      201,
    );
    const rateAgain = await ok<Rate>(
      await shop.call('owner', 'POST', `/merchant/shipping/rates/${rate.id}/archive`),
      201,
    );
    expect(rateAgain).toEqual(rateFirst);

    h.clock.advance(1000);
    await ok(await shop.call('owner', 'POST', `/merchant/shipping/zones/${zone.id}/restore`), 201);
    const restored = await ok<Zone>(
      await shop.call('owner', 'POST', `/merchant/shipping/zones/${zone.id}/restore`),
      201,
    );
    expect(restored.archivedAt).toBeNull();
    expect(await auditActions(shop.organizationId, zone.id)).toEqual([
      'shipping_zone.created',
      'shipping_zone.archived',
      'shipping_zone.restored',
    ]);
  });

  it('refuses a rate on an archived zone with 409 INVALID_STATE_TRANSITION', async () => {
    const zone = await newZone();
    await ok(await shop.call('owner', 'POST', `/merchant/shipping/zones/${zone.id}/archive`), 201);
    await expectError(
      await shop.call('owner', 'POST', `/merchant/shipping/zones/${zone.id}/rates`, {
        name: 'X',
        priceInCents: 1,
      }),
      409,
      'INVALID_STATE_TRANSITION',
    );
  });

  it('validates rate bodies', async () => {
    const zone = await newZone();
    const rate = await newRate(zone.id);
    for (const body of [
      { name: 'X' },
      { name: 'X', priceInCents: -1 },
      { name: 'X', priceInCents: 9.99 },
      { name: 'X', priceInCents: 1, minimumSubtotalInCents: -5 },
      { name: 'X', priceInCents: 1, estimatedDelivery: 'x'.repeat(201) },
      { name: 'X', priceInCents: 1, taxable: true },
    ]) {
      await expectError(
        await shop.call('owner', 'POST', `/merchant/shipping/zones/${zone.id}/rates`, body),
        400,
        'VALIDATION_FAILED',
      );
    }
    await expectError(
      await shop.call('owner', 'PATCH', `/merchant/shipping/rates/${rate.id}`, { priceInCents: null }),
      400,
      'VALIDATION_FAILED',
    );
    const cleared = await ok<Rate>(
      await shop.call('owner', 'PATCH', `/merchant/shipping/rates/${rate.id}`, { estimatedDelivery: null }),
      200,
    );
    expect(cleared.estimatedDelivery).toBeNull();
  });

  it("answers a neutral 404 for another organization's zone or rate, on every route, and changes nothing", async () => {
    const zone = await newZone(other);
    const rate = await newRate(zone.id, other);
    const attempts: [string, string, unknown?][] = [
      ['GET', `/merchant/shipping/zones/${zone.id}`],
      ['PATCH', `/merchant/shipping/zones/${zone.id}`, { name: 'Taken' }],
      ['POST', `/merchant/shipping/zones/${zone.id}/archive`],
      ['POST', `/merchant/shipping/zones/${zone.id}/restore`],
      ['POST', `/merchant/shipping/zones/${zone.id}/rates`, { name: 'X', priceInCents: 1 }],
      ['GET', `/merchant/shipping/rates/${rate.id}`],
      ['PATCH', `/merchant/shipping/rates/${rate.id}`, { priceInCents: 1 }],
      ['POST', `/merchant/shipping/rates/${rate.id}/archive`],
      ['POST', `/merchant/shipping/rates/${rate.id}/restore`],
      ['GET', '/merchant/shipping/zones/shz_00000000000000000000000000'],
    ];
    for (const [method, path, body] of attempts) {
      const error = await expectError(
        await shop.call('owner', method, path, body),
        404,
        'RESOURCE_NOT_FOUND',
      );
      expect(error.message, path).not.toContain(zone.id);
    }
    const theirs = await ok<Zone>(
      await other.call('owner', 'GET', `/merchant/shipping/zones/${zone.id}`),
      200,
    );
    expect(theirs).toEqual({ ...zone, rates: [rate] });
  });
});

describe('merchant reads', () => {
  const READS: [string, (zone: Zone, rate: Rate) => string][] = [
    ['GET /merchant/shipping/zones', () => '/merchant/shipping/zones?archived=true&limit=200'],
    ['GET /merchant/shipping/zones/:id', (zone) => `/merchant/shipping/zones/${zone.id}`],
    ['GET /merchant/shipping/rates/:rateId', (_zone, rate) => `/merchant/shipping/rates/${rate.id}`],
  ];
  for (const [label, path] of READS) {
    describe(label, () => {
      for (const actor of ACTORS) {
        const status = expectedStatus(actor, MEMBER_ACTORS, 200);
        it(`answers ${status} to ${actor}`, async () => {
          const zone = await newZone();
          const rate = await newRate(zone.id);
          const response = await shop.call(actor, 'GET', path(zone, rate));
          if (status !== 200) {
            await expectError(response, status, denial(status));
            return;
          }
          const body = await ok<Record<string, unknown>>(response, 200);
          if (label.endsWith(':rateId')) expect(body).toEqual(rate);
          else if (label.endsWith(':id')) expect(body).toEqual({ ...zone, rates: [rate] });
          else expect(body.data).toContainEqual({ ...zone, rates: [rate] });
        });
      }
    });
  }

  it('lists active zones with active rates by default and everything with archived=true, in pages', async () => {
    const fresh = await createRoleFixture(h, 'ship-list', ['settings:manage']);
    const second = await newZone(fresh, { name: 'B', sortOrder: 1 });
    const first = await newZone(fresh, { name: 'A', sortOrder: 1 });
    const gone = await newZone(fresh, { name: 'Gone', sortOrder: 0 });
    await ok(await fresh.call('owner', 'POST', `/merchant/shipping/zones/${gone.id}/archive`), 201);
    const kept = await newRate(first.id, fresh, { name: 'Kept' });
    const retired = await newRate(first.id, fresh, { name: 'Retired', sortOrder: -1 });
    await ok(await fresh.call('owner', 'POST', `/merchant/shipping/rates/${retired.id}/archive`), 201);

    type ZonePage = { data: Zone[]; nextCursor: string | null };
    const active = await ok<ZonePage>(
      await fresh.call('staffWithout', 'GET', '/merchant/shipping/zones'),
      200,
    );
    expect(active.data.map((zone) => [zone.name, zone.rates.map((rate) => rate.name)])).toEqual([
      ['A', ['Kept']],
      ['B', []],
    ]);
    expect(active.nextCursor).toBeNull();

    const page = await ok<ZonePage>(
      await fresh.call('staffWithout', 'GET', '/merchant/shipping/zones?archived=1&limit=2'),
      200,
    );
    expect(page.data.map((zone) => zone.name)).toEqual(['Gone', 'A']);
    expect(page.data[1]!.rates.map((rate) => [rate.id, rate.archivedAt !== null])).toEqual([
      [retired.id, true],
      [kept.id, false],
    ]);
    expect(page.nextCursor).toBe(first.id);
    const next = await ok<ZonePage>(
      await fresh.call(
        'staffWithout',
        'GET',
        `/merchant/shipping/zones?archived=yes&limit=2&cursor=${page.nextCursor}`,
      ),
      200,
    );
    expect(next).toEqual({ data: [{ ...second, rates: [] }], nextCursor: null });
  });

  it('answers 400 for a malformed archived flag, limit or cursor', async () => {
    for (const query of ['archived=maybe', 'limit=0', 'limit=201', 'cursor=shz_nope']) {
      await expectError(
        await shop.call('owner', 'GET', `/merchant/shipping/zones?${query}`),
        400,
        'VALIDATION_FAILED',
      );
    }
  });
});

describe('GET /public/shipping/zones', () => {
  it('shows active zones with active rates, ordered, with only the public fields', async () => {
    const store = await createRoleFixture(h, 'ship-public');
    const later = await newZone(store, { name: 'Worldwide', countries: ['de', 'jp'], sortOrder: 9 });
    const domestic = await newZone(store, { name: 'Domestic', countries: ['US'], sortOrder: 1 });
    const archivedZone = await newZone(store, { name: 'Archived', sortOrder: 0 });
    await newRate(archivedZone.id, store, { name: 'Never shown' });
    const express = await newRate(domestic.id, store, { name: 'Express', priceInCents: 1500, sortOrder: 2 });
    const free = await newRate(domestic.id, store, {
      name: 'Free over $50',
      priceInCents: 0,
      minimumSubtotalInCents: 5000,
      estimatedDelivery: '5 to 7 days',
      sortOrder: 1,
    });
    const retired = await newRate(domestic.id, store, { name: 'Retired', sortOrder: 0 });
    await ok(await store.call('owner', 'POST', `/merchant/shipping/zones/${archivedZone.id}/archive`), 201);
    await ok(await store.call('owner', 'POST', `/merchant/shipping/rates/${retired.id}/archive`), 201);
    await newZone(other, { name: 'Other tenant zone', sortOrder: -100 });

    const response = await publicZones('ship-public');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual([
      {
        id: domestic.id,
        name: 'Domestic',
        countries: ['US'],
        rates: [
          {
            id: free.id,
            name: 'Free over $50',
            priceInCents: 0,
            minimumSubtotalInCents: 5000,
            estimatedDelivery: '5 to 7 days',
            sortOrder: 1,
          },
          {
            id: express.id,
            name: 'Express',
            priceInCents: 1500,
            minimumSubtotalInCents: null,
            estimatedDelivery: null,
            sortOrder: 2,
          },
        ],
      },
      { id: later.id, name: 'Worldwide', countries: ['DE', 'JP'], rates: [] },
    ]);
  });

  it('drops a zone the moment it is archived and a rate the moment it is archived', async () => {
    const store = await createRoleFixture(h, 'ship-hide');
    const zone = await newZone(store, { name: 'Z' });
    const rate = await newRate(zone.id, store);
    const ids = async () =>
      ((await (await publicZones('ship-hide')).json()) as { id: string; rates: { id: string }[] }[]).map(
        (z) => [z.id, z.rates.map((r) => r.id)],
      );
    expect(await ids()).toEqual([[zone.id, [rate.id]]]);
    await ok(await store.call('owner', 'POST', `/merchant/shipping/rates/${rate.id}/archive`), 201);
    expect(await ids()).toEqual([[zone.id, []]]);
    await ok(await store.call('owner', 'POST', `/merchant/shipping/zones/${zone.id}/archive`), 201);
    expect(await ids()).toEqual([]);
  });

  it("never shows another tenant's zones", async () => {
    const zone = await newZone(other, { name: 'Only for other' });
    const mine = (await (await publicZones('ship-shop')).json()) as { id: string }[];
    expect(mine.map((z) => z.id)).not.toContain(zone.id);
    const theirs = (await (await publicZones('ship-other')).json()) as { id: string }[];
    expect(theirs.map((z) => z.id)).toContain(zone.id);
  });

  it('pages with limit and cursor (the id of the last zone)', async () => {
    const store = await createRoleFixture(h, 'ship-pages');
    const zones = [];
    for (const name of ['A', 'B', 'C']) zones.push(await newZone(store, { name }));
    const first = (await (await publicZones('ship-pages', '?limit=2')).json()) as { id: string }[];
    expect(first.map((z) => z.id)).toEqual([zones[0]!.id, zones[1]!.id]);
    const rest = (await (await publicZones('ship-pages', `?limit=2&cursor=${zones[1]!.id}`)).json()) as {
      id: string;
    }[];
    expect(rest.map((z) => z.id)).toEqual([zones[2]!.id]);
    await expectError(await publicZones('ship-pages', '?limit=500'), 400, 'VALIDATION_FAILED');
    await expectError(await publicZones('ship-pages', '?cursor=shz_unknown'), 400, 'VALIDATION_FAILED');
  });

  it('needs the tenant header and a known organization, and no credential', async () => {
    await expectError(await h.app.request('/api/v1/public/shipping/zones'), 400, 'TENANT_REQUIRED');
    await expectError(await publicZones('no-such-shop'), 404, 'RESOURCE_NOT_FOUND');
    expect((await publicZones('ship-shop')).status).toBe(200);
  });
});
