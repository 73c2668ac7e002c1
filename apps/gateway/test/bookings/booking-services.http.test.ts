import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { ACTORS, createRoleFixture, expectedStatus, type RoleFixture } from '../support/roles.ts';

let h: Harness;
let shop: RoleFixture;
let other: RoleFixture;
let kayaks: string;
let otherKayaks: string;

interface Service {
  id: string;
  slug: string;
  status: string;
  requirements: { id: string; resourceIds: string[] }[];
  pricing: { authoritative: boolean; currency: string } | null;
  metafields?: Record<string, unknown>;
}

async function ok<T>(response: Response, status: number): Promise<T> {
  if (response.status !== status)
    throw new Error(`expected ${status}, got ${response.status}: ${await response.text()}`);
  return (await response.json()) as T;
}

async function resource(fixture: RoleFixture): Promise<string> {
  const created = await ok<{ id: string }>(
    await fixture.call('owner', 'POST', '/merchant/booking-resources', {
      name: 'Kayaks',
      kind: 'EQUIPMENT',
      capacity: 12,
    }),
    201,
  );
  return created.id;
}

let sequence = 0;
function body(resourceId: string, overrides: Record<string, unknown> = {}) {
  sequence += 1;
  return {
    slug: `tour-${sequence}`,
    name: `Tour ${sequence}`,
    status: 'ACTIVE',
    periodMode: 'FIXED_SLOT',
    timezone: 'Europe/Lisbon',
    fixedSlots: [{ weekdays: ['MON', 'WED'], startTime: '09:00', durationMinutes: 180 }],
    requirements: [{ name: 'Kayaks', resourceIds: [resourceId], units: { mode: 'PER_PARTICIPANT' } }],
    pricing: { basis: 'FLAT', amountInCents: 4500 },
    ...overrides,
  };
}

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'bks-shop', ['catalog:write']);
  other = await createRoleFixture(h, 'bks-other', ['catalog:write']);
  kayaks = await resource(shop);
  otherKayaks = await resource(other);
});
afterAll(async () => {
  await h.close();
});

const publicCall = (slug: string, path: string) =>
  h.app.request(`/api/v1${path}`, { headers: { 'x-organization-slug': slug } });

describe('merchant booking services over HTTP', () => {
  it('creates (201), reads, patches, archives and restores (201) with the contract statuses', async () => {
    const created = await ok<Service>(
      await shop.call('staffWith', 'POST', '/merchant/booking-services', body(kayaks)),
      201,
    );
    expect(created).toMatchObject({ status: 'ACTIVE', pricing: { authoritative: false, currency: 'USD' } });
    const read = await ok<Service>(
      await shop.call('staffWithout', 'GET', `/merchant/booking-services/${created.id}`),
      200,
    );
    expect(read).toEqual(created);
    const patched = await ok<Service>(
      await shop.call('owner', 'PATCH', `/merchant/booking-services/${created.id}`, {
        requirements: [
          {
            id: created.requirements[0]!.id,
            name: 'Boats',
            resourceIds: [kayaks],
            units: { mode: 'PER_BOOKING', count: 2 },
          },
        ],
      }),
      200,
    );
    expect(patched.requirements[0]!.id).toBe(created.requirements[0]!.id);
    const archived = await ok<Service>(
      await h.app.request(`/api/v1/merchant/booking-services/${created.id}/archive`, {
        method: 'POST',
        headers: { 'x-organization-slug': shop.slug, authorization: `Bearer ${shop.users.owner.token}` },
      }),
      201,
    );
    expect(archived).toMatchObject({ status: 'ARCHIVED', metafields: { __archivedFromStatus: 'ACTIVE' } });
    await expectError(
      await shop.call('owner', 'PATCH', `/merchant/booking-services/${created.id}`, { status: 'ACTIVE' }),
      409,
      'INVALID_STATE_TRANSITION',
    );
    const restored = await ok<Service>(
      await shop.call('owner', 'POST', `/merchant/booking-services/${created.id}/restore`, {}),
      201,
    );
    expect(restored.status).toBe('ACTIVE');
    const list = await ok<{ data: Service[] }>(
      await shop.call('admin', 'GET', '/merchant/booking-services?archived=no'),
      200,
    );
    expect(list.data.map((s) => s.id)).toContain(created.id);
    await expectError(
      await shop.call('admin', 'GET', '/merchant/booking-services?archived=perhaps'),
      400,
      'VALIDATION_FAILED',
    );
  });

  it('answers bad input with 400 naming the field, a taken slug with 409 and activation gaps with 400', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [body(kayaks, { timezone: 'Mars/Olympus' }), 'timezone'],
      [body(kayaks, { slug: 'Not A Slug' }), 'slug'],
      [body(kayaks, { requirements: [] }), 'requirements'],
      [body(kayaks, { status: 'ARCHIVED' }), 'status'],
      [body(kayaks, { colour: 'red' }), ''],
      [body(kayaks, { checkout: { holdMinutes: 31 } }), 'checkout.holdMinutes'],
      [body(kayaks, { checkout: { paymentMode: 'DEPOSIT' } }), 'checkout.deposit'],
      [body(kayaks, { delivery: { mode: 'REQUIRED' } }), 'delivery.originAddress'],
      [body(kayaks, { agreement: { title: 'Waiver', bodyText: 'x'.repeat(20_001) } }), 'agreement.bodyText'],
      [
        body(kayaks, {
          requirements: [{ name: 'K', resourceIds: [otherKayaks], units: { mode: 'PER_PARTICIPANT' } }],
        }),
        'requirements.0.resourceIds.0',
      ],
      [body(kayaks, { fixedSlots: null }), 'fixedSlots'],
      [body(kayaks, { pricing: null }), 'pricing'],
    ];
    for (const [payload, path] of cases) {
      const error = await expectError(
        await shop.call('owner', 'POST', '/merchant/booking-services', payload),
        400,
        'VALIDATION_FAILED',
      );
      expect(
        error.details?.issues?.map((issue) => issue.path),
        JSON.stringify(payload).slice(0, 200),
      ).toContain(path);
    }
    await ok(
      await shop.call('owner', 'POST', '/merchant/booking-services', body(kayaks, { slug: 'taken' })),
      201,
    );
    await expectError(
      await shop.call('owner', 'POST', '/merchant/booking-services', body(kayaks, { slug: 'taken' })),
      409,
      'SLUG_TAKEN',
    );
  });
});

describe('public booking services over HTTP', () => {
  it('lists and reads ACTIVE services by slug; a draft, archived or other shop’s is the neutral 404', async () => {
    const active = await ok<Service>(
      await shop.call(
        'owner',
        'POST',
        '/merchant/booking-services',
        body(kayaks, { slug: 'public-tour', metafields: { note: 'x' } }),
      ),
      201,
    );
    await ok(
      await shop.call(
        'owner',
        'POST',
        '/merchant/booking-services',
        body(kayaks, { slug: 'draft-tour', status: 'DRAFT' }),
      ),
      201,
    );
    await ok(
      await other.call(
        'owner',
        'POST',
        '/merchant/booking-services',
        body(otherKayaks, { slug: 'elsewhere' }),
      ),
      201,
    );

    const read = await ok<Record<string, unknown>>(
      await publicCall(shop.slug, '/public/booking-services/public-tour'),
      200,
    );
    expect(read).toMatchObject({ id: active.id, slug: 'public-tour', status: 'ACTIVE' });
    expect(read).not.toHaveProperty('metafields');
    expect(read).not.toHaveProperty('sortOrder');
    expect((read.requirements as Record<string, unknown>[])[0]).not.toHaveProperty('resourceIds');
    const page = await ok<{ data: { slug: string }[]; nextCursor: string | null }>(
      await publicCall(shop.slug, '/public/booking-services?limit=200'),
      200,
    );
    expect(page.data.map((s) => s.slug)).toContain('public-tour');
    expect(page.data.map((s) => s.slug)).not.toContain('draft-tour');
    const neutral = [];
    for (const slug of ['draft-tour', 'elsewhere', 'nothing']) {
      const error = await expectError(
        await publicCall(shop.slug, `/public/booking-services/${slug}`),
        404,
        'RESOURCE_NOT_FOUND',
      );
      neutral.push(error.message);
    }
    expect(new Set(neutral).size).toBe(1);
    await expectError(
      await publicCall(shop.slug, '/public/booking-services?cursor=bks_nothing'),
      400,
      'VALIDATION_FAILED',
    );
  });
});

describe('booking service security', () => {
  it('lets every member read and only Owner, Admin and Staff with catalog:write write', async () => {
    const service = await ok<Service>(
      await shop.call('owner', 'POST', '/merchant/booking-services', body(kayaks)),
      201,
    );
    for (const actor of ACTORS) {
      for (const path of ['/merchant/booking-services', `/merchant/booking-services/${service.id}`]) {
        const read = await shop.call(actor, 'GET', path);
        expect(read.status, `${actor} ${path}`).toBe(
          expectedStatus(actor, ['owner', 'admin', 'staffWith', 'staffWithout'], 200),
        );
      }
      const writes: [string, string, unknown, number][] = [
        ['POST', '/merchant/booking-services', body(kayaks), 201],
        ['PATCH', `/merchant/booking-services/${service.id}`, { name: `By ${actor}` }, 200],
        ['POST', `/merchant/booking-services/${service.id}/archive`, {}, 201],
        ['POST', `/merchant/booking-services/${service.id}/restore`, {}, 201],
      ];
      for (const [method, path, payload, success] of writes) {
        const response = await shop.call(actor, method, path, payload);
        expect(response.status, `${actor} ${method} ${path}`).toBe(
          expectedStatus(actor, ['owner', 'admin', 'staffWith'], success),
        );
      }
    }
  });

  it("answers another tenant's service with the neutral 404 on every merchant route", async () => {
    const foreign = await ok<Service>(
      await other.call('owner', 'POST', '/merchant/booking-services', body(otherKayaks)),
      201,
    );
    const base = `/merchant/booking-services/${foreign.id}`;
    for (const [method, path, payload] of [
      ['GET', base, undefined],
      ['PATCH', base, { name: 'Mine now' }],
      ['POST', `${base}/archive`, {}],
      ['POST', `${base}/restore`, {}],
    ] as const) {
      await expectError(await shop.call('owner', method, path, payload), 404, 'RESOURCE_NOT_FOUND');
    }
    const again = await ok<Service>(await other.call('owner', 'GET', base), 200);
    expect(again.status).toBe('ACTIVE');
  });
});
