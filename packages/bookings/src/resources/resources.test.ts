import type { Database, DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureOwnerBookings, insertOrganization, minutesAfter, writeContext } from '../../test/factories.ts';
import { withCapacityLock } from '../capacity/capacity-lock.ts';
import { insertClaims, type NewClaim } from '../capacity/claims.ts';
import { readLiveClaims } from '../capacity/live-claims.ts';
import { addBlackout, removeBlackout } from './blackouts.ts';
import { listResources } from './list-resources.ts';
import { getResource } from './resource-read.ts';
import {
  blackoutInputSchema,
  createResourceInputSchema,
  resourceListQuerySchema,
  updateResourceChangesSchema,
} from './schemas.ts';
import { createResource, setResourceArchived, updateResource } from './write-resource.ts';

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
const SLOT = new Date('2026-07-01T09:00:00.000Z');

function create(organizationId: string, body: Record<string, unknown>) {
  return createResource(db, writeContext(organizationId, NOW), createResourceInputSchema.parse(body));
}

let claims = 0;
async function claimUnits(
  organizationId: string,
  resourceId: string,
  from: number,
  until: number,
  quantity = 1,
) {
  claims += 1;
  const claim: NewClaim = {
    resourceId,
    quantity,
    startsAt: minutesAfter(SLOT, from),
    endsAt: minutesAfter(SLOT, until),
    expiresAt: null,
    owner: { kind: 'BOOKING', id: `bkg_resources_${claims}` },
  };
  const ctx = { organizationId, at: NOW };
  await ensureOwnerBookings(db, organizationId, [claim.owner.id]);
  await withCapacityLock(db, ctx, [resourceId], (trx) => insertClaims(trx, ctx, [claim]));
  return claim.owner.id;
}

function audits(organizationId: string) {
  return db
    .selectFrom('audit_logs')
    .select(['action', 'target_id', 'metadata'])
    .where('organization_id', '=', organizationId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

async function refusalOf(promise: Promise<unknown>) {
  try {
    await promise;
  } catch (error) {
    return error as { code: string; details?: Record<string, unknown> };
  }
  throw new Error('expected a refusal');
}

describe(`booking resources (${testDatabaseKind})`, () => {
  it('creates, reads and lists by name then id, filtered by status, kind and search, page by page', async () => {
    const organizationId = await insertOrganization(db, 'res-list');
    const kayaks = await create(organizationId, { name: 'Kayaks', kind: 'EQUIPMENT', capacity: 12 });
    expect(kayaks).toMatchObject({
      name: 'Kayaks',
      kind: 'EQUIPMENT',
      capacity: 12,
      status: 'ACTIVE',
      userId: null,
    });
    expect(kayaks.id).toMatch(/^brs_/);
    const room = await create(organizationId, { name: 'Room A', kind: 'SPACE' });
    expect(room.capacity).toBe(1);
    const van = await create(organizationId, { name: 'Camper van', kind: 'VEHICLE' });
    await setResourceArchived(db, writeContext(organizationId, NOW), van.id, true);
    const other = await insertOrganization(db, 'res-list-other');
    await create(other, { name: 'Another shop', kind: 'SPACE' });

    const list = (query: Record<string, unknown>) =>
      listResources(db, organizationId, resourceListQuerySchema.parse(query));
    expect((await list({})).data.map((r) => r.name)).toEqual(['Camper van', 'Kayaks', 'Room A']);
    expect((await list({ status: 'ACTIVE' })).data.map((r) => r.name)).toEqual(['Kayaks', 'Room A']);
    expect((await list({ kind: 'SPACE' })).data.map((r) => r.name)).toEqual(['Room A']);
    expect((await list({ search: 'ROOM' })).data.map((r) => r.name)).toEqual(['Room A']);
    expect((await list({ search: '%' })).data).toEqual([]);
    const first = await list({ limit: 2 });
    expect(first.nextCursor).toBe(kayaks.id);
    const second = await list({ limit: 2, cursor: first.nextCursor });
    expect(second).toEqual({ data: [expect.objectContaining({ name: 'Room A' })], nextCursor: null });
    await expect(list({ cursor: 'brs_unknown' })).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    await expect(getResource(db, other, kayaks.id)).rejects.toMatchObject({ code: 'RESOURCE_NOT_FOUND' });
    expect((await audits(organizationId)).map((a) => a.action)).toEqual([
      'booking_resource.created',
      'booking_resource.created',
      'booking_resource.created',
      'booking_resource.archived',
    ]);
  });

  it('assigns a STAFF resource to an active member only', async () => {
    const organizationId = await insertOrganization(db, 'res-staff');
    await db
      .insertInto('merchant_users')
      .values({
        id: 'usr_guide',
        subject: 'test|guide',
        email: 'guide@shop.test',
        name: null,
        created_at: NOW,
        updated_at: NOW,
      })
      .onConflict((oc) => oc.doNothing())
      .execute();
    await db
      .insertInto('memberships')
      .values({
        organization_id: organizationId,
        id: `mem_${organizationId}`,
        user_id: 'usr_guide',
        email: 'guide@shop.test',
        invited_name: null,
        role: 'Staff',
        permissions: JSON.stringify([]),
        status: 'ACTIVE',
        created_at: NOW,
        updated_at: NOW,
      })
      .execute();
    const guide = await create(organizationId, { name: 'Guide', kind: 'STAFF', userId: 'usr_guide' });
    expect(guide.userId).toBe('usr_guide');
    const notMember = await refusalOf(
      create(organizationId, { name: 'X', kind: 'STAFF', userId: 'usr_nobody' }),
    );
    expect(notMember.code).toBe('VALIDATION_FAILED');
    const notStaff = await refusalOf(
      create(organizationId, { name: 'X', kind: 'SPACE', userId: 'usr_guide' }),
    );
    expect(notStaff).toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [{ path: 'userId' }] } });
    const kindChange = await refusalOf(
      updateResource(
        db,
        writeContext(organizationId, NOW),
        guide.id,
        updateResourceChangesSchema.parse({ kind: 'SPACE' }),
      ),
    );
    expect(kindChange.code).toBe('VALIDATION_FAILED');
    const unassigned = await updateResource(
      db,
      writeContext(organizationId, NOW),
      guide.id,
      updateResourceChangesSchema.parse({ kind: 'SPACE', userId: null }),
    );
    expect(unassigned).toMatchObject({ kind: 'SPACE', userId: null });
  });

  it('patches only what changes, audited with the fields', async () => {
    const organizationId = await insertOrganization(db, 'res-patch');
    const resource = await create(organizationId, { name: 'Boat', kind: 'VEHICLE', capacity: 2 });
    const patch = (changes: Record<string, unknown>) =>
      updateResource(
        db,
        writeContext(organizationId, NOW),
        resource.id,
        updateResourceChangesSchema.parse(changes),
      );
    const same = await patch({ name: 'Boat', capacity: 2 });
    expect(same).toEqual(resource);
    const changed = await patch({ name: 'Big boat', capacity: 5, metafields: { deck: 'teak' } });
    expect(changed).toMatchObject({ name: 'Big boat', capacity: 5, metafields: { deck: 'teak' } });
    const updates = (await audits(organizationId)).filter((a) => a.action === 'booking_resource.updated');
    expect(updates).toEqual([
      {
        action: 'booking_resource.updated',
        target_id: resource.id,
        metadata: { fields: ['name', 'capacity', 'metafields'] },
      },
    ]);
  });

  it('refuses a capacity below the future peak of live claims, naming the claims in the way', async () => {
    const organizationId = await insertOrganization(db, 'res-capacity');
    const resource = await create(organizationId, { name: 'Kayaks', kind: 'EQUIPMENT', capacity: 4 });
    const a = await claimUnits(organizationId, resource.id, 0, 60, 2);
    const b = await claimUnits(organizationId, resource.id, 30, 90, 1);
    const c = await claimUnits(organizationId, resource.id, 120, 180, 2);
    const lower = (capacity: number) =>
      updateResource(db, writeContext(organizationId, NOW), resource.id, { capacity });
    const refused = await refusalOf(lower(2));
    expect(refused.code).toBe('CAPACITY_UNAVAILABLE');
    expect(refused.details).toEqual({
      conflicts: [
        {
          kind: 'BOOKING',
          id: a,
          startsAt: SLOT.toISOString(),
          endsAt: minutesAfter(SLOT, 60).toISOString(),
          quantity: 2,
        },
        {
          kind: 'BOOKING',
          id: b,
          startsAt: minutesAfter(SLOT, 30).toISOString(),
          endsAt: minutesAfter(SLOT, 90).toISOString(),
          quantity: 1,
        },
      ],
    });
    expect((await getResource(db, organizationId, resource.id)).capacity).toBe(4);
    expect(c).toBeDefined();
    expect((await lower(3)).capacity).toBe(3);
    // Claims that ended before now do not hold the capacity up.
    const later = writeContext(organizationId, minutesAfter(SLOT, 200));
    expect((await updateResource(db, later, resource.id, { capacity: 1 })).capacity).toBe(1);
  });

  it('adds a blackout that claims the whole capacity, refuses one with claims in the way, and removes it idempotently', async () => {
    const organizationId = await insertOrganization(db, 'res-blackout');
    const resource = await create(organizationId, { name: 'Room', kind: 'SPACE', capacity: 3 });
    const ctx = writeContext(organizationId, NOW);
    const body = (from: number, until: number) =>
      blackoutInputSchema.parse({
        id: resource.id,
        startsAt: minutesAfter(SLOT, from).toISOString().replace('.000Z', 'Z'),
        endsAt: minutesAfter(SLOT, until).toISOString().replace('.000Z', 'Z'),
        reason: 'Painting',
      });
    const held = await claimUnits(organizationId, resource.id, 60, 120, 1);
    const refused = await refusalOf(addBlackout(db, ctx, body(90, 150)));
    expect(refused).toMatchObject({
      code: 'CAPACITY_UNAVAILABLE',
      details: { conflicts: [{ kind: 'BOOKING', id: held }] },
    });

    const blackout = await addBlackout(db, ctx, body(0, 60));
    expect(blackout).toMatchObject({
      resourceId: resource.id,
      startsAt: SLOT.toISOString(),
      reason: 'Painting',
    });
    expect(blackout.id).toMatch(/^bbo_/);
    await expect(claimUnits(organizationId, resource.id, 30, 45, 1)).rejects.toMatchObject({ code: 'BK001' });
    // Whole capacity, whatever it becomes: raising it does not open the blacked-out interval.
    await updateResource(db, ctx, resource.id, { capacity: 5 });
    await expect(claimUnits(organizationId, resource.id, 30, 45, 1)).rejects.toMatchObject({ code: 'BK001' });
    const overlapping = await refusalOf(addBlackout(db, ctx, body(30, 70)));
    expect(overlapping).toMatchObject({
      details: {
        conflicts: [
          { kind: 'BLACKOUT', id: blackout.id, quantity: 5 },
          { kind: 'BOOKING', id: held },
        ],
      },
    });

    await removeBlackout(db, ctx, resource.id, blackout.id);
    await removeBlackout(db, ctx, resource.id, blackout.id);
    await claimUnits(organizationId, resource.id, 30, 45, 1);
    const live = await readLiveClaims(db, ctx, [resource.id], {
      startsAt: SLOT,
      endsAt: minutesAfter(SLOT, 240),
    });
    expect(live[0]!.quantities).toEqual([1, 1]);
    await expect(removeBlackout(db, ctx, resource.id, 'bbo_unknown')).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    const other = await insertOrganization(db, 'res-blackout-other');
    await expect(
      removeBlackout(db, writeContext(other, NOW), resource.id, blackout.id),
    ).rejects.toMatchObject({
      code: 'RESOURCE_NOT_FOUND',
    });
    const actions = (await audits(organizationId)).map((a) => a.action);
    expect(actions.filter((a) => a.includes('blackout'))).toEqual([
      'booking_resource.blackout_added',
      'booking_resource.blackout_removed',
    ]);
  });

  it('archives and restores idempotently, recording each change once', async () => {
    const organizationId = await insertOrganization(db, 'res-archive');
    const resource = await create(organizationId, { name: 'Guide', kind: 'OTHER' });
    const ctx = writeContext(organizationId, NOW);
    const archived = await setResourceArchived(db, ctx, resource.id, true);
    expect(archived).toMatchObject({ status: 'ARCHIVED', archivedAt: NOW.toISOString() });
    expect(await setResourceArchived(db, ctx, resource.id, true)).toEqual(archived);
    const restored = await setResourceArchived(db, ctx, resource.id, false);
    expect(restored).toMatchObject({ status: 'ACTIVE', archivedAt: null });
    await setResourceArchived(db, ctx, resource.id, false);
    expect((await audits(organizationId)).map((a) => a.action)).toEqual([
      'booking_resource.created',
      'booking_resource.archived',
      'booking_resource.restored',
    ]);
  });

  it('never lets a capacity change and concurrent claims together exceed the capacity', async () => {
    const organizationId = await insertOrganization(db, 'res-race');
    const resource = await create(organizationId, { name: 'Fleet', kind: 'VEHICLE', capacity: 6 });
    const results = await Promise.allSettled([
      ...Array.from({ length: 12 }, () => claimUnits(organizationId, resource.id, 0, 60, 1)),
      updateResource(db, writeContext(organizationId, NOW), resource.id, { capacity: 3 }),
    ]);
    const capacity = (await getResource(db, organizationId, resource.id)).capacity;
    const live = await readLiveClaims(db, { organizationId, at: NOW }, [resource.id], {
      startsAt: SLOT,
      endsAt: minutesAfter(SLOT, 60),
    });
    const units = live[0]!.quantities.reduce((sum, q) => sum + q, 0);
    expect(units).toBeLessThanOrEqual(capacity);
    expect(results.filter((r) => r.status === 'fulfilled').length).toBeGreaterThan(0);
  });
});
