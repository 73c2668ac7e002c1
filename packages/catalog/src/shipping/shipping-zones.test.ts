import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShippingTenant } from '../../test/shipping.ts';
import { archiveShippingZone, restoreShippingZone } from './archive-shipping-zone.ts';
import { createShippingRate } from './create-shipping-rate.ts';
import { createShippingZone } from './create-shipping-zone.ts';
import { getShippingZone } from './get-shipping-zone.ts';
import { createShippingZoneInputSchema, updateShippingZoneInputSchema } from './schemas.ts';
import { updateShippingZone } from './update-shipping-zone.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-06-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 12 });
});
afterAll(async () => {
  await handle.close();
});

const tenant = () => createShippingTenant(handle.db, clock);
const zoneBody = (body: unknown) => createShippingZoneInputSchema.parse(body);
const zoneChanges = (body: Record<string, unknown>) => {
  const { id: _id, ...changes } = updateShippingZoneInputSchema.parse({ id: 'shz_x', ...body });
  return changes;
};

const auditsOf = (organizationId: string, targetId: string) =>
  handle.db
    .selectFrom('audit_logs')
    .select(['action', 'target_type', 'actor_user_id', 'metadata', 'created_at'])
    .where('organization_id', '=', organizationId)
    .where('target_id', '=', targetId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();

async function expectAppError(promise: Promise<unknown>, code: string) {
  const error = await promise.then(
    () => undefined,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
}

describe('createShippingZone', () => {
  it('stores countries upper case and once each, answers the zone with no rates, and audits it', async () => {
    const shop = await tenant();
    const zone = await createShippingZone(
      handle.db,
      shop.ctx(),
      zoneBody({ name: ' Domestic ', countries: ['us', 'US', 'pr'], sortOrder: 3 }),
    );

    expect(zone).toEqual({
      id: expect.stringMatching(/^shz_[0-9A-Z]{26}$/),
      name: 'Domestic',
      countries: ['US', 'PR'],
      sortOrder: 3,
      archivedAt: null,
      createdAt: clock.now().toISOString(),
      updatedAt: clock.now().toISOString(),
      rates: [],
    });
    const row = await handle.db
      .selectFrom('shipping_zones')
      .selectAll()
      .where('organization_id', '=', shop.organizationId)
      .where('id', '=', zone.id)
      .executeTakeFirstOrThrow();
    expect(row.countries).toEqual(['US', 'PR']);
    expect(await auditsOf(shop.organizationId, zone.id)).toEqual([
      {
        action: 'shipping_zone.created',
        target_type: 'shipping_zone',
        actor_user_id: 'usr_shipping_test',
        metadata: {},
        created_at: clock.now(),
      },
    ]);
  });

  it('accepts an empty country list and defaults sortOrder to 0', async () => {
    const shop = await tenant();
    const zone = await createShippingZone(handle.db, shop.ctx(), zoneBody({ name: 'Draft', countries: [] }));
    expect(zone).toMatchObject({ countries: [], sortOrder: 0 });
  });
});

describe('updateShippingZone', () => {
  it('replaces the country list wholesale and audits only the fields that changed', async () => {
    const shop = await tenant();
    const zone = await createShippingZone(
      handle.db,
      shop.ctx(),
      zoneBody({ name: 'Europe', countries: ['DE', 'FR', 'IT'] }),
    );
    clock.advance(1000);

    const updated = await updateShippingZone(
      handle.db,
      shop.ctx(),
      zone.id,
      zoneChanges({ name: 'Europe', countries: ['es', 'de'] }),
    );

    expect(updated).toMatchObject({
      name: 'Europe',
      countries: ['ES', 'DE'],
      createdAt: zone.createdAt,
      updatedAt: clock.now().toISOString(),
    });
    expect(await getShippingZone(handle.db, shop.organizationId, zone.id)).toEqual(updated);
    const audits = await auditsOf(shop.organizationId, zone.id);
    expect(audits.map((audit) => [audit.action, audit.metadata])).toEqual([
      ['shipping_zone.created', {}],
      ['shipping_zone.updated', { fields: ['countries'] }],
    ]);
  });

  it('empties the list when sent [] and reorders with sortOrder', async () => {
    const shop = await tenant();
    const zone = await createShippingZone(handle.db, shop.ctx(), zoneBody({ name: 'A', countries: ['CA'] }));
    clock.advance(1000);
    const updated = await updateShippingZone(
      handle.db,
      shop.ctx(),
      zone.id,
      zoneChanges({ countries: [], sortOrder: 7, name: 'B' }),
    );
    expect(updated).toMatchObject({ name: 'B', countries: [], sortOrder: 7 });
    const audits = await auditsOf(shop.organizationId, zone.id);
    expect(audits.at(-1)?.metadata).toEqual({ fields: ['name', 'countries', 'sortOrder'] });
  });

  it('writes nothing for an empty change or one that changes nothing', async () => {
    const shop = await tenant();
    const zone = await createShippingZone(
      handle.db,
      shop.ctx(),
      zoneBody({ name: 'Same', countries: ['US', 'CA'], sortOrder: 1 }),
    );
    clock.advance(1000);

    expect(await updateShippingZone(handle.db, shop.ctx(), zone.id, zoneChanges({}))).toEqual(zone);
    expect(
      await updateShippingZone(
        handle.db,
        shop.ctx(),
        zone.id,
        zoneChanges({ name: 'Same', countries: ['us', 'ca'], sortOrder: 1 }),
      ),
    ).toEqual(zone);
    expect(await auditsOf(shop.organizationId, zone.id)).toHaveLength(1);
  });

  it('treats a new order of the same countries as a change (the list is replaced as sent)', async () => {
    const shop = await tenant();
    const zone = await createShippingZone(
      handle.db,
      shop.ctx(),
      zoneBody({ name: 'Z', countries: ['US', 'CA'] }),
    );
    const updated = await updateShippingZone(
      handle.db,
      shop.ctx(),
      zone.id,
      zoneChanges({ countries: ['CA', 'US'] }),
    );
    expect(updated.countries).toEqual(['CA', 'US']);
  });

  it('answers 404 for a zone of another organization and leaves it alone', async () => {
    const mine = await tenant();
    const theirs = await tenant();
    const zone = await createShippingZone(
      handle.db,
      theirs.ctx(),
      zoneBody({ name: 'Theirs', countries: [] }),
    );
    await expectAppError(
      updateShippingZone(handle.db, mine.ctx(), zone.id, zoneChanges({ name: 'Mine now' })),
      'RESOURCE_NOT_FOUND',
    );
    await expectAppError(getShippingZone(handle.db, mine.organizationId, zone.id), 'RESOURCE_NOT_FOUND');
    expect((await getShippingZone(handle.db, theirs.organizationId, zone.id)).name).toBe('Theirs');
  });
});

describe('archiveShippingZone and restoreShippingZone', () => {
  it('are idempotent: a repeat answers the zone unchanged and records nothing', async () => {
    const shop = await tenant();
    const zone = await createShippingZone(handle.db, shop.ctx(), zoneBody({ name: 'Z', countries: ['US'] }));
    clock.advance(1000);
    const archivedAt = clock.now().toISOString();

    const archived = await archiveShippingZone(handle.db, shop.ctx(), zone.id);
    expect(archived).toMatchObject({ archivedAt, updatedAt: archivedAt });
    clock.advance(1000);
    expect(await archiveShippingZone(handle.db, shop.ctx(), zone.id)).toEqual(archived);

    clock.advance(1000);
    const restored = await restoreShippingZone(handle.db, shop.ctx(), zone.id);
    expect(restored).toMatchObject({ archivedAt: null, updatedAt: clock.now().toISOString() });
    clock.advance(1000);
    expect(await restoreShippingZone(handle.db, shop.ctx(), zone.id)).toEqual(restored);

    const audits = await auditsOf(shop.organizationId, zone.id);
    expect(audits.map((audit) => audit.action)).toEqual([
      'shipping_zone.created',
      'shipping_zone.archived',
      'shipping_zone.restored',
    ]);
  });

  it('keeps the rates and their own state across an archive and a restore', async () => {
    const shop = await tenant();
    const zone = await createShippingZone(handle.db, shop.ctx(), zoneBody({ name: 'Z', countries: ['US'] }));
    const rate = await createShippingRate(handle.db, shop.ctx(), zone.id, { name: 'Std', priceInCents: 500 });

    const archived = await archiveShippingZone(handle.db, shop.ctx(), zone.id);
    expect(archived.rates).toEqual([rate]);
    const restored = await restoreShippingZone(handle.db, shop.ctx(), zone.id);
    expect(restored.rates).toEqual([rate]);
  });

  it('answer 404 for an unknown zone or one of another organization', async () => {
    const mine = await tenant();
    const theirs = await tenant();
    const zone = await createShippingZone(handle.db, theirs.ctx(), zoneBody({ name: 'Z', countries: [] }));
    await expectAppError(archiveShippingZone(handle.db, mine.ctx(), zone.id), 'RESOURCE_NOT_FOUND');
    await expectAppError(restoreShippingZone(handle.db, mine.ctx(), zone.id), 'RESOURCE_NOT_FOUND');
    await expectAppError(archiveShippingZone(handle.db, mine.ctx(), 'shz_missing'), 'RESOURCE_NOT_FOUND');
    expect((await getShippingZone(handle.db, theirs.organizationId, zone.id)).archivedAt).toBeNull();
  });

  it(`archive a zone once under concurrent calls (${testDatabaseKind})`, async () => {
    const shop = await tenant();
    const zone = await createShippingZone(handle.db, shop.ctx(), zoneBody({ name: 'Race', countries: [] }));
    clock.advance(1000);

    const results = await Promise.all(
      Array.from({ length: 8 }, () => archiveShippingZone(handle.db, shop.ctx(), zone.id)),
    );
    for (const result of results) expect(result.archivedAt).toBe(clock.now().toISOString());
    const actions = (await auditsOf(shop.organizationId, zone.id)).map((audit) => audit.action);
    expect(actions).toEqual(['shipping_zone.created', 'shipping_zone.archived']);
  });
});
