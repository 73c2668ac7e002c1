import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { ACTORS, createRoleFixture, expectedStatus, type RoleFixture } from '../support/roles.ts';

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;

beforeAll(async () => {
  h = await createHarness();
  h.clock.set('2026-06-01T08:00:00Z');
  shop = await createRoleFixture(h, 'brs-shop', ['catalog:write']);
  other = await createRoleFixture(h, 'brs-other', ['catalog:write']);
});
afterAll(async () => {
  await h.close();
});

interface Resource {
  id: string;
  name: string;
  kind: string;
  capacity: number;
  status: string;
  archivedAt: string | null;
}

async function ok<T>(response: Response, status: number): Promise<T> {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

let sequence = 0;
async function newResource(
  fixture: RoleFixture = shop,
  body: Record<string, unknown> = {},
): Promise<Resource> {
  sequence += 1;
  return ok<Resource>(
    await fixture.call('owner', 'POST', '/merchant/booking-resources', {
      name: `Resource ${sequence}`,
      kind: 'EQUIPMENT',
      capacity: 2,
      ...body,
    }),
    201,
  );
}

describe('merchant booking resources over HTTP', () => {
  it('creates, patches, archives and restores with the contract statuses', async () => {
    const resource = await newResource(shop, { name: 'Kayaks', capacity: 12 });
    expect(resource).toMatchObject({ name: 'Kayaks', kind: 'EQUIPMENT', capacity: 12, status: 'ACTIVE' });
    const patched = await ok<Resource>(
      await shop.call('owner', 'PATCH', `/merchant/booking-resources/${resource.id}`, { capacity: 10 }),
      200,
    );
    expect(patched.capacity).toBe(10);
    const archived = await ok<Resource>(
      await h.app.request(`/api/v1/merchant/booking-resources/${resource.id}/archive`, {
        method: 'POST',
        headers: { 'x-organization-slug': shop.slug, authorization: `Bearer ${shop.users.owner.token}` },
      }),
      201,
    );
    expect(archived.status).toBe('ARCHIVED');
    const restored = await ok<Resource>(
      await shop.call('owner', 'POST', `/merchant/booking-resources/${resource.id}/restore`, {}),
      201,
    );
    expect(restored).toMatchObject({ status: 'ACTIVE', archivedAt: null });
    const list = await ok<{ data: Resource[]; nextCursor: string | null }>(
      await shop.call('staffWithout', 'GET', '/merchant/booking-resources?search=kayak'),
      200,
    );
    expect(list.data.map((r) => r.id)).toEqual([resource.id]);
  });

  it('answers bad input with 400 in the envelope, naming the field', async () => {
    const cases: [string, string, unknown, string][] = [
      ['POST', '/merchant/booking-resources', { name: 'X', kind: 'SPACE', capacity: 0 }, 'capacity'],
      ['POST', '/merchant/booking-resources', { name: 'X', kind: 'SPACE', capacity: 10_001 }, 'capacity'],
      ['POST', '/merchant/booking-resources', { name: 'X', kind: 'BOAT' }, 'kind'],
      ['POST', '/merchant/booking-resources', { name: 'X', kind: 'SPACE', colour: 'red' }, ''],
      [
        'POST',
        '/merchant/booking-resources',
        { name: 'X', kind: 'SPACE', metafields: { __x: 1 } },
        'metafields.__x',
      ],
    ];
    for (const [method, path, body, issuePath] of cases) {
      const error = await expectError(await shop.call('owner', method, path, body), 400, 'VALIDATION_FAILED');
      expect(
        error.details?.issues?.map((issue) => issue.path),
        JSON.stringify(body),
      ).toContain(issuePath);
    }
    const resource = await newResource();
    for (const body of [
      { startsAt: '2026-07-01T09:00:00', endsAt: '2026-07-01T10:00:00Z' },
      { startsAt: '2026-07-01T09:00:30Z', endsAt: '2026-07-01T10:00:00Z' },
      { startsAt: '2026-07-01T10:00:00Z', endsAt: '2026-07-01T10:00:00Z' },
      { startsAt: '2026-07-01T09:00:00Z', endsAt: '2026-07-01T10:00:00Z', extra: true },
    ]) {
      await expectError(
        await shop.call('owner', 'POST', `/merchant/booking-resources/${resource.id}/blackouts`, body),
        400,
        'VALIDATION_FAILED',
      );
    }
  });

  it('adds a blackout (201), refuses one with claims in the way (409 with the ids), removes it with 204 twice', async () => {
    const resource = await newResource(shop, { capacity: 3 });
    const path = `/merchant/booking-resources/${resource.id}/blackouts`;
    const blackout = await ok<{ id: string; startsAt: string; endsAt: string; reason: string | null }>(
      await shop.call('staffWith', 'POST', path, {
        startsAt: '2026-07-01T10:00:00+01:00',
        endsAt: '2026-07-01T12:00+01:00',
        reason: 'Repairs',
      }),
      201,
    );
    expect(blackout).toMatchObject({
      startsAt: '2026-07-01T09:00:00.000Z',
      endsAt: '2026-07-01T11:00:00.000Z',
      reason: 'Repairs',
    });
    const conflict = await expectError(
      await shop.call('owner', 'POST', path, {
        startsAt: '2026-07-01T10:30:00Z',
        endsAt: '2026-07-01T11:30:00Z',
      }),
      409,
      'CAPACITY_UNAVAILABLE',
    );
    expect(conflict.details).toMatchObject({
      conflicts: [{ kind: 'BLACKOUT', id: blackout.id, quantity: 3 }],
    });
    const lowered = await shop.call('owner', 'PATCH', `/merchant/booking-resources/${resource.id}`, {
      capacity: 1,
    });
    expect(lowered.status).toBe(200);

    for (let attempt = 0; attempt < 2; attempt++) {
      const removed = await shop.call('owner', 'DELETE', `${path}/${blackout.id}`);
      expect(removed.status).toBe(204);
      expect(await removed.text()).toBe('');
    }
    await expectError(await shop.call('owner', 'DELETE', `${path}/bbo_unknown`), 404, 'RESOURCE_NOT_FOUND');
    await ok(
      await shop.call('owner', 'POST', path, {
        startsAt: '2026-07-01T10:30:00Z',
        endsAt: '2026-07-01T11:30:00Z',
      }),
      201,
    );
  });
});

describe('booking resource security', () => {
  it('lets every member read and only Owner, Admin and Staff with catalog:write write', async () => {
    const resource = await newResource();
    for (const actor of ACTORS) {
      const read = await shop.call(actor, 'GET', `/merchant/booking-resources/${resource.id}`);
      expect(read.status, actor).toBe(
        expectedStatus(actor, ['owner', 'admin', 'staffWith', 'staffWithout'], 200),
      );
      const list = await shop.call(actor, 'GET', '/merchant/booking-resources');
      expect(list.status, actor).toBe(
        expectedStatus(actor, ['owner', 'admin', 'staffWith', 'staffWithout'], 200),
      );

      const writers = ['owner', 'admin', 'staffWith'] as const;
      const writes: [string, string, unknown, number][] = [
        ['POST', '/merchant/booking-resources', { name: `By ${actor}`, kind: 'OTHER' }, 201],
        ['PATCH', `/merchant/booking-resources/${resource.id}`, { name: `Renamed by ${actor}` }, 200],
        ['POST', `/merchant/booking-resources/${resource.id}/archive`, {}, 201],
        ['POST', `/merchant/booking-resources/${resource.id}/restore`, {}, 201],
        ['DELETE', `/merchant/booking-resources/${resource.id}/blackouts/bbo_none`, undefined, 404],
      ];
      for (const [method, path, body, success] of writes) {
        const response = await shop.call(actor, method, path, body);
        expect(response.status, `${actor} ${method} ${path}`).toBe(
          expectedStatus(actor, writers as unknown as typeof ACTORS, success),
        );
      }
    }
  });

  it("answers another tenant's resource with the neutral 404 on every route", async () => {
    const foreign = await newResource(other);
    const base = `/merchant/booking-resources/${foreign.id}`;
    const calls: [string, string, unknown][] = [
      ['GET', base, undefined],
      ['PATCH', base, { capacity: 1 }],
      ['POST', `${base}/archive`, {}],
      ['POST', `${base}/restore`, {}],
      ['POST', `${base}/blackouts`, { startsAt: '2026-07-01T09:00:00Z', endsAt: '2026-07-01T10:00:00Z' }],
      ['DELETE', `${base}/blackouts/bbo_x`, undefined],
    ];
    for (const [method, path, body] of calls) {
      await expectError(await shop.call('owner', method, path, body), 404, 'RESOURCE_NOT_FOUND');
    }
    const unknown = await shop.call('owner', 'GET', '/merchant/booking-resources/brs_unknown');
    const foreignRead = await shop.call('owner', 'GET', base);
    const [a, b] = (await Promise.all([unknown.json(), foreignRead.json()])) as [
      { error: object },
      { error: object },
    ];
    expect({ ...a.error, requestId: '' }).toEqual({ ...b.error, requestId: '' });
  });
});
