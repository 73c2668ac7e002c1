import type { Database, DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activeServiceBody, insertOrganization, insertResource, writeContext } from '../../test/factories.ts';
import { setResourceArchived } from '../resources/write-resource.ts';
import { listPublicServices, listServices } from './list-services.ts';
import {
  createServiceInputSchema,
  publicServiceListQuerySchema,
  serviceListQuerySchema,
  updateServiceChangesSchema,
} from './schemas.ts';
import { getPublicService, getService } from './service-read.ts';
import { archiveService, createService, restoreService, updateService } from './write-service.ts';

let handle: DatabaseHandle;
let db: Kysely<Database>;
beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 12 });
  db = handle.db;
});
afterAll(async () => {
  await handle.close();
});

const NOW = new Date('2026-06-01T08:00:00.000Z');
const EUR = { currency: 'EUR' };
let tick = 0;
/** A later instant per call, so that createdAt orders services like the calls. */
function ctxOf(organizationId: string) {
  tick += 1000;
  return writeContext(organizationId, new Date(NOW.getTime() + tick));
}

function create(organizationId: string, body: Record<string, unknown>) {
  return createService(db, ctxOf(organizationId), createServiceInputSchema.parse(body), EUR);
}
function patch(organizationId: string, id: string, changes: Record<string, unknown>) {
  return updateService(db, ctxOf(organizationId), id, updateServiceChangesSchema.parse(changes), EUR);
}
async function refusal(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    const { code, details, message } = error as {
      code: string;
      details?: { issues?: { path: string }[] };
      message: string;
    };
    return { code, message, paths: details?.issues?.map((issue) => issue.path) ?? [] };
  }
  throw new Error('expected a refusal');
}
function audits(organizationId: string) {
  return db
    .selectFrom('audit_logs')
    .select(['action', 'metadata'])
    .where('organization_id', '=', organizationId)
    .where('target_type', '=', 'booking_service')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

async function shop(label: string) {
  const organizationId = await insertOrganization(db, label);
  const kayaks = await insertResource(db, organizationId, { capacity: 12, name: 'Kayaks' });
  const guide = await insertResource(db, organizationId, { capacity: 1, name: 'Guide', kind: 'STAFF' });
  return { organizationId, kayaks, guide };
}

describe(`booking services (${testDatabaseKind})`, () => {
  it('creates a DRAFT with the defaults, server-set ids and a pricing preview in the store currency', async () => {
    const { organizationId, kayaks } = await shop('svc-create');
    const service = await create(organizationId, {
      slug: 'sunset-tour',
      name: 'Sunset tour',
      periodMode: 'FIXED_SLOT',
      timezone: 'Europe/Lisbon',
      fixedSlots: [{ weekdays: ['MON', 'TUE'], startTime: '17:00', durationMinutes: 180 }],
      requirements: [
        { name: 'Kayaks', resourceIds: [kayaks], units: { mode: 'PER_PARTICIPANT' }, selection: 'REQUIRED' },
      ],
      pricing: { basis: 'FLAT', amountInCents: 4500, perParticipant: true },
      agreement: { title: 'Waiver', bodyText: 'I can swim.' },
    });
    expect(service).toMatchObject({
      slug: 'sunset-tour',
      status: 'DRAFT',
      durations: { startIntervalMinutes: 30 },
      partySize: { min: 1, max: 1 },
      availability: { hoursPolicy: 'WITHIN_HOURS', maxAdvanceDays: 365, leadTimeMinutes: 0 },
      requiresResourceSelection: true,
      pricing: {
        basis: 'FLAT',
        amountInCents: 4500,
        perParticipant: true,
        authoritative: false,
        currency: 'EUR',
      },
      checkout: {
        approvalMode: 'AUTOMATIC',
        paymentMode: 'PAY_NOW',
        deposit: null,
        holdMinutes: 30,
        paymentWindowMinutes: 30,
        approvedPaymentWindowHours: 24,
        requestExpiryHours: 72,
      },
      policies: { cancellation: { mode: 'REQUEST', cutoffMinutes: 0 } },
      delivery: { mode: 'PICKUP_ONLY', originAddress: null },
      agreement: { title: 'Waiver', version: 1, bodyText: 'I can swim.' },
      sortOrder: 0,
      archivedAt: null,
    });
    expect(service.id).toMatch(/^bks_/);
    expect(service.requirements).toEqual([
      {
        id: expect.stringMatching(/^brq_/),
        name: 'Kayaks',
        resourceIds: [kayaks],
        units: { mode: 'PER_PARTICIPANT' },
        selection: 'REQUIRED',
        allowSplit: false,
      },
    ]);
    expect(await getService(db, organizationId, service.id, 'EUR')).toEqual(service);
    expect((await audits(organizationId)).map((a) => a.action)).toEqual(['booking_service.created']);
  });

  it('refuses an ACTIVE create or activation naming each gap, and activates once they are filled', async () => {
    const { organizationId, kayaks } = await shop('svc-activate');
    const incomplete = { ...activeServiceBody([kayaks]), availability: {}, pricing: null };
    const refused = await refusal(create(organizationId, incomplete));
    expect(refused.code).toBe('VALIDATION_FAILED');
    expect(refused.paths).toEqual(['availability.weeklyHours', 'pricing']);

    const draft = await create(organizationId, { ...incomplete, status: 'DRAFT' });
    expect((await refusal(patch(organizationId, draft.id, { status: 'ACTIVE' }))).paths).toEqual([
      'availability.weeklyHours',
      'pricing',
    ]);
    const table = await refusal(
      patch(organizationId, draft.id, {
        status: 'ACTIVE',
        availability: { weeklyHours: { TUE: [{ start: '08:00', end: '12:00' }] } },
        pricing: { basis: 'DURATION_TABLE', durationPrices: [{ durationMinutes: 60, amountInCents: 100 }] },
      }),
    );
    expect(table.paths).toEqual(['pricing.durationPrices']);
    const active = await patch(organizationId, draft.id, {
      status: 'ACTIVE',
      availability: { weeklyHours: { TUE: [{ start: '08:00', end: '12:00' }] } },
      pricing: { basis: 'FLAT', amountInCents: 0 },
    });
    expect(active.status).toBe('ACTIVE');
    // An ACTIVE service stays complete: removing its pricing is refused.
    expect((await refusal(patch(organizationId, draft.id, { pricing: null }))).paths).toEqual(['pricing']);
    // A pool whose resources were all archived is a gap too.
    await setResourceArchived(db, ctxOf(organizationId), kayaks, true);
    expect((await refusal(patch(organizationId, draft.id, { name: 'Renamed' }))).paths).toEqual([
      'requirements.0.resourceIds',
    ]);
    expect((await patch(organizationId, draft.id, { status: 'DRAFT', name: 'Renamed' })).status).toBe(
      'DRAFT',
    );
  });

  it('checks the rules that join fields and the pools, whatever the status', async () => {
    const { organizationId, kayaks } = await shop('svc-rules');
    const other = await shop('svc-rules-other');
    const archived = await insertResource(db, organizationId, { capacity: 1 });
    await setResourceArchived(db, ctxOf(organizationId), archived, true);
    const cases: [Record<string, unknown>, string[]][] = [
      [{ periodMode: 'EXACT_RANGE', durations: {} }, ['durations.minMinutes', 'durations.maxMinutes']],
      [
        {
          requirements: [
            {
              name: 'Pool',
              resourceIds: [kayaks, other.kayaks, archived, 'brs_missing'],
              units: { mode: 'PER_PARTICIPANT' },
            },
          ],
        },
        ['requirements.0.resourceIds.1', 'requirements.0.resourceIds.2', 'requirements.0.resourceIds.3'],
      ],
      [
        {
          requirements: [
            { id: 'brq_x', name: 'Pool', resourceIds: [kayaks], units: { mode: 'PER_PARTICIPANT' } },
          ],
        },
        ['requirements.0.id'],
      ],
      [{ itemId: 'itm_missing' }, ['itemId']],
    ];
    for (const [overrides, paths] of cases) {
      const refused = await refusal(
        create(organizationId, { ...activeServiceBody([kayaks]), status: 'DRAFT', ...overrides }),
      );
      expect(refused.code, JSON.stringify(overrides)).toBe('VALIDATION_FAILED');
      expect(refused.paths, JSON.stringify(overrides)).toEqual(paths);
    }
    for (const [type, accepted] of [
      ['SALE', false],
      ['RENTAL', true],
    ] as const) {
      const itemId = `itm_${type}_${organizationId}`;
      await db
        .insertInto('items')
        .values({
          organization_id: organizationId,
          id: itemId,
          slug: itemId.toLowerCase().replace(/_/g, '-'),
          name: type,
          type,
          status: 'ACTIVE',
        })
        .execute();
      const attempt = create(organizationId, activeServiceBody([kayaks], { itemId }));
      if (accepted) expect((await attempt).itemId).toBe(itemId);
      else expect((await refusal(attempt)).paths).toEqual(['itemId']);
    }
    const schema = createServiceInputSchema.safeParse(
      activeServiceBody([kayaks], {
        requirements: Array.from({ length: 11 }, () => ({
          name: 'R',
          resourceIds: [kayaks],
          units: { mode: 'PER_PARTICIPANT' },
        })),
      }),
    );
    expect(schema.success).toBe(false);
    const pool = createServiceInputSchema.safeParse(
      activeServiceBody([kayaks], {
        requirements: [
          {
            name: 'R',
            resourceIds: Array.from({ length: 201 }, (_, i) => `brs_${i}`),
            units: { mode: 'PER_PARTICIPANT' },
          },
        ],
      }),
    );
    expect(pool.success).toBe(false);
  });

  it('replaces each PATCHed key whole, keeps requirement ids sent back, and versions the agreement text', async () => {
    const { organizationId, kayaks, guide } = await shop('svc-patch');
    const service = await create(
      organizationId,
      activeServiceBody([kayaks], {
        requirements: [
          { name: 'Kayaks', resourceIds: [kayaks], units: { mode: 'PER_PARTICIPANT' } },
          {
            name: 'Guide',
            resourceIds: [guide],
            units: { mode: 'PER_BOOKING', count: 1 },
            selection: 'OPTIONAL',
          },
        ],
        agreement: { title: 'Waiver', bodyText: 'v1' },
      }),
    );
    const [kayakRequirement, guideRequirement] = service.requirements;
    const patched = await patch(organizationId, service.id, {
      availability: { weeklyHours: { SAT: [{ start: '10:00', end: '14:00' }] } },
      requirements: [
        {
          id: guideRequirement!.id,
          name: 'Guide',
          resourceIds: [guide],
          units: { mode: 'PER_BOOKING', count: 1 },
          selection: 'REQUIRED',
        },
        { name: 'Boats', resourceIds: [kayaks], units: { mode: 'PER_BOOKING', count: 2 } },
      ],
      agreement: { title: 'Waiver', bodyText: 'v2' },
    });
    expect(patched.availability.weeklyHours).toEqual({
      MON: [],
      TUE: [],
      WED: [],
      THU: [],
      FRI: [],
      SAT: [{ start: '10:00', end: '14:00' }],
      SUN: [],
    });
    expect(patched.requirements.map((r) => r.id)).toEqual([
      guideRequirement!.id,
      expect.stringMatching(/^brq_/),
    ]);
    expect(patched.requirements[1]!.id).not.toBe(kayakRequirement!.id);
    expect(patched.requiresResourceSelection).toBe(true);
    expect(patched.agreement).toEqual({ title: 'Waiver', version: 2, bodyText: 'v2' });
    expect(patched.pricing).toEqual(service.pricing);

    const same = await patch(organizationId, service.id, {
      agreement: { title: 'Waiver', bodyText: 'v2' },
      name: service.name,
    });
    expect(same).toEqual(patched);
    await patch(organizationId, service.id, { agreement: null });
    const readded = await patch(organizationId, service.id, {
      agreement: { title: 'Waiver', bodyText: 'v1' },
    });
    expect(readded.agreement?.version).toBe(3);
    expect(
      (
        await refusal(
          patch(organizationId, service.id, {
            requirements: [
              {
                id: kayakRequirement!.id,
                name: 'K',
                resourceIds: [kayaks],
                units: { mode: 'PER_PARTICIPANT' },
              },
            ],
          }),
        )
      ).paths,
    ).toEqual(['requirements.0.id']);
    const updates = (await audits(organizationId)).filter((a) => a.action === 'booking_service.updated');
    expect(updates.map((a) => a.metadata)).toEqual([
      { fields: ['availability', 'agreement', 'requirements'] },
      { fields: ['agreement'] },
      { fields: ['agreement'] },
    ]);
  });

  it('follows the status table: archive keeps the prior status, PATCH status on archived is 409, restore is idempotent', async () => {
    const { organizationId, kayaks } = await shop('svc-status');
    const service = await create(
      organizationId,
      activeServiceBody([kayaks], { metafields: { colour: 'blue' } }),
    );
    const archived = await archiveService(db, ctxOf(organizationId), service.id, EUR);
    expect(archived).toMatchObject({
      status: 'ARCHIVED',
      metafields: { colour: 'blue', __archivedFromStatus: 'ACTIVE' },
    });
    expect(await archiveService(db, ctxOf(organizationId), service.id, EUR)).toEqual(archived);
    const refused = await refusal(patch(organizationId, service.id, { status: 'DRAFT' }));
    expect(refused.code).toBe('INVALID_STATE_TRANSITION');
    expect((await patch(organizationId, service.id, { name: 'Still editable' })).status).toBe('ARCHIVED');
    const restored = await restoreService(db, ctxOf(organizationId), service.id, EUR);
    expect(restored).toMatchObject({ status: 'ACTIVE', archivedAt: null, metafields: { colour: 'blue' } });
    expect(await restoreService(db, ctxOf(organizationId), service.id, EUR)).toEqual(restored);

    // Restored to DRAFT when ACTIVE would fail the activation check now.
    await archiveService(db, ctxOf(organizationId), service.id, EUR);
    await setResourceArchived(db, ctxOf(organizationId), kayaks, true);
    expect((await restoreService(db, ctxOf(organizationId), service.id, EUR)).status).toBe('DRAFT');
    expect((await audits(organizationId)).map((a) => [a.action, a.metadata])).toEqual([
      ['booking_service.created', expect.anything()],
      ['booking_service.archived', { from: 'ACTIVE', to: 'ARCHIVED' }],
      ['booking_service.updated', { fields: ['name'] }],
      ['booking_service.restored', { from: 'ARCHIVED', to: 'ACTIVE' }],
      ['booking_service.archived', { from: 'ACTIVE', to: 'ARCHIVED' }],
      ['booking_service.restored', { from: 'ARCHIVED', to: 'DRAFT' }],
    ]);
  });

  it(`gives a slug to exactly one of concurrent creates, and SLUG_TAKEN to a PATCH onto it (${testDatabaseKind})`, async () => {
    const { organizationId, kayaks } = await shop('svc-slug');
    const outcomes = await Promise.allSettled(
      Array.from({ length: 8 }, () => create(organizationId, activeServiceBody([kayaks], { slug: 'same' }))),
    );
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    for (const outcome of outcomes.filter((o) => o.status === 'rejected')) {
      expect((outcome as PromiseRejectedResult).reason).toMatchObject({ code: 'SLUG_TAKEN' });
    }
    const second = await create(organizationId, activeServiceBody([kayaks], { slug: 'other' }));
    expect((await refusal(patch(organizationId, second.id, { slug: 'same' }))).code).toBe('SLUG_TAKEN');
  });

  it('lists in the merchant order with search, status and archived filters, page by page', async () => {
    const { organizationId, kayaks } = await shop('svc-list');
    const a = await create(organizationId, activeServiceBody([kayaks], { name: 'Alpha walk', sortOrder: 1 }));
    const b = await create(
      organizationId,
      activeServiceBody([kayaks], { name: 'Beta ride', status: 'DRAFT' }),
    );
    const c = await create(
      organizationId,
      activeServiceBody([kayaks], { name: 'Gamma swim', description: 'Cold WATER' }),
    );
    const d = await create(organizationId, activeServiceBody([kayaks], { name: 'Delta dive' }));
    await archiveService(db, ctxOf(organizationId), d.id, EUR);
    const list = async (query: Record<string, unknown>) =>
      (await listServices(db, organizationId, serviceListQuerySchema.parse(query), 'EUR')).data.map(
        (s) => s.id,
      );
    expect(await list({})).toEqual([c.id, b.id, a.id]);
    expect(await list({ archived: 'YES' })).toEqual([d.id, c.id, b.id, a.id]);
    expect(await list({ archived: '0' })).toEqual([c.id, b.id, a.id]);
    expect(await list({ status: 'ARCHIVED' })).toEqual([d.id]);
    expect(await list({ status: 'DRAFT' })).toEqual([b.id]);
    expect(await list({ search: 'water' })).toEqual([c.id]);
    expect(serviceListQuerySchema.safeParse({ archived: 'maybe' }).success).toBe(false);
    const first = await listServices(db, organizationId, serviceListQuerySchema.parse({ limit: 2 }), 'EUR');
    expect(first.nextCursor).toBe(b.id);
    const second = await listServices(
      db,
      organizationId,
      serviceListQuerySchema.parse({ limit: 2, cursor: b.id }),
      'EUR',
    );
    expect(second.data.map((s) => s.id)).toEqual([a.id]);
    expect(second.nextCursor).toBeNull();
  });

  it('shows only ACTIVE services publicly, without what public reads omit', async () => {
    const { organizationId, kayaks, guide } = await shop('svc-public');
    const active = await create(
      organizationId,
      activeServiceBody([kayaks], {
        slug: 'open-tour',
        metafields: { internal: 'x' },
        availability: {
          weeklyHours: { MON: [{ start: '09:00', end: '17:00' }] },
          exceptions: [
            {
              type: 'CLOSED_WINDOW',
              startsAt: '2026-07-01T09:00Z',
              endsAt: '2026-07-01T10:00Z',
              note: 'staff party',
            },
          ],
        },
        requirements: [
          { name: 'Kayaks', resourceIds: [kayaks], units: { mode: 'PER_PARTICIPANT' } },
          {
            name: 'Guide',
            resourceIds: [guide],
            units: { mode: 'PER_BOOKING', count: 1 },
            selection: 'OPTIONAL',
          },
        ],
        delivery: {
          mode: 'OPTIONAL',
          originAddress: { line1: 'Rua 1', city: 'Lisbon', postalCode: '1000-001', country: 'PT' },
          flatFeeInCents: 1500,
        },
      }),
    );
    await create(organizationId, activeServiceBody([kayaks], { slug: 'draft-tour', status: 'DRAFT' }));
    const archived = await create(organizationId, activeServiceBody([kayaks], { slug: 'old-tour' }));
    await archiveService(db, ctxOf(organizationId), archived.id, EUR);

    const read = await getPublicService(db, organizationId, 'open-tour', 'EUR');
    expect(read).not.toHaveProperty('sortOrder');
    expect(read).not.toHaveProperty('metafields');
    expect(read.availability.exceptions).toEqual([
      { type: 'CLOSED_WINDOW', startsAt: '2026-07-01T09:00Z', endsAt: '2026-07-01T10:00Z' },
    ]);
    expect(read.delivery).toEqual({
      mode: 'OPTIONAL',
      origin: { city: 'Lisbon', country: 'PT' },
      flatFeeInCents: 1500,
      bands: null,
    });
    expect(read.requirements).toEqual([
      {
        id: active.requirements[0]!.id,
        name: 'Kayaks',
        units: { mode: 'PER_PARTICIPANT' },
        selection: 'AUTO',
        allowSplit: false,
      },
      {
        id: active.requirements[1]!.id,
        name: 'Guide',
        units: { mode: 'PER_BOOKING', count: 1 },
        selection: 'OPTIONAL',
        allowSplit: false,
        resources: [{ id: guide, name: 'Guide' }],
      },
    ]);
    expect(read.pricing).toMatchObject({ authoritative: false, currency: 'EUR' });
    for (const slug of ['draft-tour', 'old-tour', 'missing']) {
      expect((await refusal(getPublicService(db, organizationId, slug, 'EUR'))).code).toBe(
        'RESOURCE_NOT_FOUND',
      );
    }
    const other = await insertOrganization(db, 'svc-public-other');
    expect((await refusal(getPublicService(db, other, 'open-tour', 'EUR'))).code).toBe('RESOURCE_NOT_FOUND');
    const page = await listPublicServices(db, organizationId, publicServiceListQuerySchema.parse({}), 'EUR');
    expect(page).toEqual({ data: [read], nextCursor: null });
  });
});
