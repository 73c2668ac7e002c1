import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase, testDatabaseKind } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createShippingTenant } from '../../test/shipping.ts';
import { archiveShippingRate, restoreShippingRate } from './archive-shipping-rate.ts';
import { archiveShippingZone, restoreShippingZone } from './archive-shipping-zone.ts';
import { createShippingRate } from './create-shipping-rate.ts';
import { createShippingZone } from './create-shipping-zone.ts';
import { getShippingRate } from './get-shipping-rate.ts';
import { getShippingZone } from './get-shipping-zone.ts';
import { updateShippingRateInputSchema } from './schemas.ts';
import { updateShippingRate } from './update-shipping-rate.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-06-02T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 12 });
});
afterAll(async () => {
  await handle.close();
});

async function shopWithZone() {
  const shop = await createShippingTenant(handle.db, clock);
  const zone = await createShippingZone(handle.db, shop.ctx(), { name: 'Domestic', countries: ['US'] });
  return { ...shop, zoneId: zone.id };
}

const rateChanges = (body: Record<string, unknown>) => {
  const { rateId: _rateId, ...changes } = updateShippingRateInputSchema.parse({ rateId: 'shr_x', ...body });
  return changes;
};

const auditsOf = (organizationId: string, targetId: string) =>
  handle.db
    .selectFrom('audit_logs')
    .select(['action', 'target_type', 'metadata'])
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

describe('createShippingRate', () => {
  it('adds a rate to the zone, with nulls for what was not sent, and audits it with the zone id', async () => {
    const shop = await shopWithZone();
    const rate = await createShippingRate(handle.db, shop.ctx(), shop.zoneId, {
      name: 'Standard',
      priceInCents: 599,
    });

    expect(rate).toEqual({
      id: expect.stringMatching(/^shr_[0-9A-Z]{26}$/),
      zoneId: shop.zoneId,
      name: 'Standard',
      priceInCents: 599,
      minimumSubtotalInCents: null,
      estimatedDelivery: null,
      sortOrder: 0,
      archivedAt: null,
      createdAt: clock.now().toISOString(),
      updatedAt: clock.now().toISOString(),
    });
    expect(await getShippingRate(handle.db, shop.organizationId, rate.id)).toEqual(rate);
    expect((await getShippingZone(handle.db, shop.organizationId, shop.zoneId)).rates).toEqual([rate]);
    expect(await auditsOf(shop.organizationId, rate.id)).toEqual([
      { action: 'shipping_rate.created', target_type: 'shipping_rate', metadata: { zoneId: shop.zoneId } },
    ]);
  });

  it('refuses a rate on an archived zone with 409 INVALID_STATE_TRANSITION, and accepts it after a restore', async () => {
    const shop = await shopWithZone();
    await archiveShippingZone(handle.db, shop.ctx(), shop.zoneId);
    await expectAppError(
      createShippingRate(handle.db, shop.ctx(), shop.zoneId, { name: 'Late', priceInCents: 1 }),
      'INVALID_STATE_TRANSITION',
    );
    expect((await getShippingZone(handle.db, shop.organizationId, shop.zoneId)).rates).toEqual([]);

    await restoreShippingZone(handle.db, shop.ctx(), shop.zoneId);
    const rate = await createShippingRate(handle.db, shop.ctx(), shop.zoneId, {
      name: 'Late',
      priceInCents: 1,
    });
    expect(rate.zoneId).toBe(shop.zoneId);
  });

  it('answers 404 for a zone of another organization', async () => {
    const mine = await shopWithZone();
    const theirs = await shopWithZone();
    await expectAppError(
      createShippingRate(handle.db, mine.ctx(), theirs.zoneId, { name: 'X', priceInCents: 1 }),
      'RESOURCE_NOT_FOUND',
    );
    expect((await getShippingZone(handle.db, theirs.organizationId, theirs.zoneId)).rates).toEqual([]);
  });

  it(`refuses with 409, and only with 409, rates that race an archive of their zone (${testDatabaseKind})`, async () => {
    const shop = await shopWithZone();
    const outcomes = await Promise.allSettled([
      ...Array.from({ length: 4 }, (_, index) =>
        createShippingRate(handle.db, shop.ctx(), shop.zoneId, { name: `R${index}`, priceInCents: index }),
      ),
      archiveShippingZone(handle.db, shop.ctx(), shop.zoneId),
      ...Array.from({ length: 4 }, (_, index) =>
        createShippingRate(handle.db, shop.ctx(), shop.zoneId, { name: `S${index}`, priceInCents: index }),
      ),
    ]);
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    for (const outcome of refused) {
      expect((outcome.reason as AppError).code).toBe('INVALID_STATE_TRANSITION');
    }
    const zone = await getShippingZone(handle.db, shop.organizationId, shop.zoneId);
    expect(zone.archivedAt).not.toBeNull();
    expect(zone.rates).toHaveLength(8 - refused.length);
    // PGlite runs the transactions in order: the four before the archive pass, the four after it fail.
    if (testDatabaseKind === 'embedded') expect(refused).toHaveLength(4);
  });
});

describe('updateShippingRate', () => {
  it('changes the fields sent, clears the gate and the copy with null, and audits the changed names', async () => {
    const shop = await shopWithZone();
    const rate = await createShippingRate(handle.db, shop.ctx(), shop.zoneId, {
      name: 'Free over $50',
      priceInCents: 0,
      minimumSubtotalInCents: 5000,
      estimatedDelivery: '5 days',
    });
    clock.advance(1000);

    const updated = await updateShippingRate(
      handle.db,
      shop.ctx(),
      rate.id,
      rateChanges({
        name: 'Free over $50',
        minimumSubtotalInCents: null,
        estimatedDelivery: null,
        sortOrder: 4,
      }),
    );

    expect(updated).toEqual({
      ...rate,
      minimumSubtotalInCents: null,
      estimatedDelivery: null,
      sortOrder: 4,
      updatedAt: clock.now().toISOString(),
    });
    expect((await auditsOf(shop.organizationId, rate.id)).at(-1)).toEqual({
      action: 'shipping_rate.updated',
      target_type: 'shipping_rate',
      metadata: { zoneId: shop.zoneId, fields: ['minimumSubtotalInCents', 'estimatedDelivery', 'sortOrder'] },
    });
  });

  it('writes nothing for a change that changes nothing', async () => {
    const shop = await shopWithZone();
    const rate = await createShippingRate(handle.db, shop.ctx(), shop.zoneId, {
      name: 'Std',
      priceInCents: 500,
    });
    clock.advance(1000);
    expect(
      await updateShippingRate(
        handle.db,
        shop.ctx(),
        rate.id,
        rateChanges({ priceInCents: 500, estimatedDelivery: null }),
      ),
    ).toEqual(rate);
    expect(await updateShippingRate(handle.db, shop.ctx(), rate.id, rateChanges({}))).toEqual(rate);
    expect(await auditsOf(shop.organizationId, rate.id)).toHaveLength(1);
  });

  it('answers 404 for a rate of another organization', async () => {
    const mine = await shopWithZone();
    const theirs = await shopWithZone();
    const rate = await createShippingRate(handle.db, theirs.ctx(), theirs.zoneId, {
      name: 'T',
      priceInCents: 1,
    });
    await expectAppError(
      updateShippingRate(handle.db, mine.ctx(), rate.id, rateChanges({ priceInCents: 2 })),
      'RESOURCE_NOT_FOUND',
    );
    await expectAppError(getShippingRate(handle.db, mine.organizationId, rate.id), 'RESOURCE_NOT_FOUND');
    expect((await getShippingRate(handle.db, theirs.organizationId, rate.id)).priceInCents).toBe(1);
  });
});

describe('archiveShippingRate and restoreShippingRate', () => {
  it('are idempotent and the zone read shows archived rates with archivedAt', async () => {
    const shop = await shopWithZone();
    const rate = await createShippingRate(handle.db, shop.ctx(), shop.zoneId, {
      name: 'Std',
      priceInCents: 500,
    });
    clock.advance(1000);

    const archived = await archiveShippingRate(handle.db, shop.ctx(), rate.id);
    expect(archived.archivedAt).toBe(clock.now().toISOString());
    clock.advance(1000);
    expect(await archiveShippingRate(handle.db, shop.ctx(), rate.id)).toEqual(archived);
    expect((await getShippingZone(handle.db, shop.organizationId, shop.zoneId)).rates).toEqual([archived]);

    const restored = await restoreShippingRate(handle.db, shop.ctx(), rate.id);
    expect(restored.archivedAt).toBeNull();
    clock.advance(1000);
    expect(await restoreShippingRate(handle.db, shop.ctx(), rate.id)).toEqual(restored);

    expect((await auditsOf(shop.organizationId, rate.id)).map((audit) => audit.action)).toEqual([
      'shipping_rate.created',
      'shipping_rate.archived',
      'shipping_rate.restored',
    ]);
  });

  it('answer 404 for a rate of another organization', async () => {
    const mine = await shopWithZone();
    const theirs = await shopWithZone();
    const rate = await createShippingRate(handle.db, theirs.ctx(), theirs.zoneId, {
      name: 'T',
      priceInCents: 1,
    });
    await expectAppError(archiveShippingRate(handle.db, mine.ctx(), rate.id), 'RESOURCE_NOT_FOUND');
    await expectAppError(restoreShippingRate(handle.db, mine.ctx(), rate.id), 'RESOURCE_NOT_FOUND');
    expect((await getShippingRate(handle.db, theirs.organizationId, rate.id)).archivedAt).toBeNull();
  });

  it(`archive a rate once under concurrent calls (${testDatabaseKind})`, async () => {
    const shop = await shopWithZone();
    const rate = await createShippingRate(handle.db, shop.ctx(), shop.zoneId, {
      name: 'Race',
      priceInCents: 1,
    });
    clock.advance(1000);
    await Promise.all(Array.from({ length: 8 }, () => archiveShippingRate(handle.db, shop.ctx(), rate.id)));
    expect((await auditsOf(shop.organizationId, rate.id)).map((audit) => audit.action)).toEqual([
      'shipping_rate.created',
      'shipping_rate.archived',
    ]);
  });
});
