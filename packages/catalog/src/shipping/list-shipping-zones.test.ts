import { AppError, ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countingQueries, createShippingTenant } from '../../test/shipping.ts';
import { archiveShippingRate, restoreShippingRate } from './archive-shipping-rate.ts';
import { archiveShippingZone, restoreShippingZone } from './archive-shipping-zone.ts';
import { createShippingRate } from './create-shipping-rate.ts';
import { createShippingZone } from './create-shipping-zone.ts';
import { listPublicShippingZones } from './list-public-shipping-zones.ts';
import { listShippingZones } from './list-shipping-zones.ts';
import { publicShippingZoneListQuerySchema, shippingZoneListQuerySchema } from './schemas.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-06-03T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase();
});
afterAll(async () => {
  await handle.close();
});

const publicQuery = (query: Record<string, unknown> = {}) => publicShippingZoneListQuerySchema.parse(query);
const merchantQuery = (query: Record<string, unknown> = {}) => shippingZoneListQuerySchema.parse(query);

/**
 * A shop whose zones and rates sort differently by every key: by sortOrder
 * first, then by name, then by id; archived ones mixed in.
 */
async function seededShop() {
  const shop = await createShippingTenant(handle.db, clock);
  const zone = (name: string, sortOrder: number, countries: string[] = []) =>
    createShippingZone(handle.db, shop.ctx(), { name, countries, sortOrder });
  const rate = (zoneId: string, name: string, sortOrder: number, priceInCents = 100) =>
    createShippingRate(handle.db, shop.ctx(), zoneId, { name, priceInCents, sortOrder });

  const late = await zone('Alpha late', 5, ['JP']);
  const bravo = await zone('Bravo', 1, ['DE', 'FR']);
  const alpha = await zone('Alpha', 1, ['US']);
  const hidden = await zone('Hidden', 0, ['CA']);
  await rate(hidden.id, 'Hidden rate', 0);
  await archiveShippingZone(handle.db, shop.ctx(), hidden.id);

  const express = await rate(alpha.id, 'Express', 2, 1500);
  const standard = await rate(alpha.id, 'Standard', 1, 500);
  const economy = await rate(alpha.id, 'Economy', 1, 300);
  const retired = await rate(alpha.id, 'Retired', 0, 1);
  await archiveShippingRate(handle.db, shop.ctx(), retired.id);
  const gated = await createShippingRate(handle.db, shop.ctx(), bravo.id, {
    name: 'Free over 50',
    priceInCents: 0,
    minimumSubtotalInCents: 5000,
    estimatedDelivery: '3 to 5 days',
  });
  return { ...shop, late, bravo, alpha, hidden, express, standard, economy, retired, gated };
}

describe('listPublicShippingZones', () => {
  it('lists active zones by sortOrder then name, each with its active rates by sortOrder then name', async () => {
    const shop = await seededShop();
    const zones = await listPublicShippingZones(handle.db, shop.organizationId, publicQuery());

    expect(zones).toEqual([
      {
        id: shop.alpha.id,
        name: 'Alpha',
        countries: ['US'],
        rates: [
          {
            id: shop.economy.id,
            name: 'Economy',
            priceInCents: 300,
            minimumSubtotalInCents: null,
            estimatedDelivery: null,
            sortOrder: 1,
          },
          {
            id: shop.standard.id,
            name: 'Standard',
            priceInCents: 500,
            minimumSubtotalInCents: null,
            estimatedDelivery: null,
            sortOrder: 1,
          },
          {
            id: shop.express.id,
            name: 'Express',
            priceInCents: 1500,
            minimumSubtotalInCents: null,
            estimatedDelivery: null,
            sortOrder: 2,
          },
        ],
      },
      {
        id: shop.bravo.id,
        name: 'Bravo',
        countries: ['DE', 'FR'],
        rates: [
          {
            id: shop.gated.id,
            name: 'Free over 50',
            priceInCents: 0,
            minimumSubtotalInCents: 5000,
            estimatedDelivery: '3 to 5 days',
            sortOrder: 0,
          },
        ],
      },
      { id: shop.late.id, name: 'Alpha late', countries: ['JP'], rates: [] },
    ]);
  });

  it('orders zones of equal sortOrder and name by id', async () => {
    const shop = await createShippingTenant(handle.db, clock);
    const first = await createShippingZone(handle.db, shop.ctx(), { name: 'Twin', countries: [] });
    clock.advance(1);
    const second = await createShippingZone(handle.db, shop.ctx(), { name: 'Twin', countries: [] });
    const ids = (await listPublicShippingZones(handle.db, shop.organizationId, publicQuery())).map(
      (z) => z.id,
    );
    expect(ids).toEqual([first.id, second.id].sort());
  });

  it('hides an archived zone and an archived rate at once, and shows them again on restore', async () => {
    const shop = await seededShop();
    await archiveShippingZone(handle.db, shop.ctx(), shop.bravo.id);
    await archiveShippingRate(handle.db, shop.ctx(), shop.standard.id);

    const after = await listPublicShippingZones(handle.db, shop.organizationId, publicQuery());
    expect(after.map((zone) => zone.id)).toEqual([shop.alpha.id, shop.late.id]);
    expect(after[0]!.rates.map((rate) => rate.id)).toEqual([shop.economy.id, shop.express.id]);

    await restoreShippingZone(handle.db, shop.ctx(), shop.bravo.id);
    await restoreShippingRate(handle.db, shop.ctx(), shop.standard.id);
    const restored = await listPublicShippingZones(handle.db, shop.organizationId, publicQuery());
    expect(restored.map((zone) => zone.id)).toEqual([shop.alpha.id, shop.bravo.id, shop.late.id]);
    expect(restored[0]!.rates.map((rate) => rate.id)).toEqual([
      shop.economy.id,
      shop.standard.id,
      shop.express.id,
    ]);
  });

  it('shows nothing of another organization', async () => {
    const shop = await seededShop();
    const other = await createShippingTenant(handle.db, clock);
    expect(await listPublicShippingZones(handle.db, other.organizationId, publicQuery())).toEqual([]);
    const mine = await listPublicShippingZones(handle.db, shop.organizationId, publicQuery());
    expect(mine).toHaveLength(3);
  });

  it('pages with limit and the id of the last zone as cursor, even when that zone was archived since', async () => {
    const shop = await seededShop();
    const first = await listPublicShippingZones(handle.db, shop.organizationId, publicQuery({ limit: '1' }));
    expect(first.map((zone) => zone.id)).toEqual([shop.alpha.id]);
    const second = await listPublicShippingZones(
      handle.db,
      shop.organizationId,
      publicQuery({ limit: 1, cursor: shop.alpha.id }),
    );
    expect(second.map((zone) => zone.id)).toEqual([shop.bravo.id]);
    expect(second[0]!.rates.map((rate) => rate.id)).toEqual([shop.gated.id]);

    await archiveShippingZone(handle.db, shop.ctx(), shop.bravo.id);
    const third = await listPublicShippingZones(
      handle.db,
      shop.organizationId,
      publicQuery({ limit: 5, cursor: shop.bravo.id }),
    );
    expect(third.map((zone) => zone.id)).toEqual([shop.late.id]);
    expect(
      await listPublicShippingZones(handle.db, shop.organizationId, publicQuery({ cursor: shop.late.id })),
    ).toEqual([]);
  });

  it('refuses a cursor that names no zone of the organization with 400', async () => {
    const shop = await seededShop();
    const other = await seededShop();
    for (const cursor of ['shz_unknown', other.alpha.id]) {
      const error = await listPublicShippingZones(
        handle.db,
        shop.organizationId,
        publicQuery({ cursor }),
      ).then(
        () => undefined,
        (failure: unknown) => failure,
      );
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'VALIDATION_FAILED', details: { issues: [{ path: 'cursor' }] } });
    }
  });

  it('runs two queries, with or without a cursor, however many zones the page holds', async () => {
    const shop = await seededShop();
    for (let index = 0; index < 10; index++) {
      const zone = await createShippingZone(handle.db, shop.ctx(), {
        name: `Extra ${index}`,
        countries: [],
        sortOrder: 3,
      });
      await createShippingRate(handle.db, shop.ctx(), zone.id, { name: 'R', priceInCents: index });
    }
    const counted = countingQueries(handle.db);
    const all = await listPublicShippingZones(counted.db, shop.organizationId, publicQuery());
    expect(all).toHaveLength(13);
    expect(counted.count()).toBe(2);

    const paged = countingQueries(handle.db);
    const page = await listPublicShippingZones(
      paged.db,
      shop.organizationId,
      publicQuery({ limit: 5, cursor: shop.alpha.id }),
    );
    expect(page).toHaveLength(5);
    expect(page.every((zone) => zone.rates.length > 0)).toBe(true);
    expect(paged.count()).toBe(2);
  });
});

describe('listShippingZones (merchant)', () => {
  it('shows active zones with active rates by default, and everything with archived=true', async () => {
    const shop = await seededShop();
    const active = await listShippingZones(handle.db, shop.organizationId, merchantQuery());
    expect(active.nextCursor).toBeNull();
    expect(active.data.map((zone) => zone.name)).toEqual(['Alpha', 'Bravo', 'Alpha late']);
    expect(active.data[0]!.rates.map((rate) => rate.name)).toEqual(['Economy', 'Standard', 'Express']);

    const everything = await listShippingZones(
      handle.db,
      shop.organizationId,
      merchantQuery({ archived: 'YES' }),
    );
    expect(everything.data.map((zone) => zone.name)).toEqual(['Hidden', 'Alpha', 'Bravo', 'Alpha late']);
    expect(everything.data[0]).toMatchObject({
      archivedAt: expect.any(String),
      rates: [{ name: 'Hidden rate' }],
    });
    expect(everything.data[1]!.rates.map((rate) => [rate.name, rate.archivedAt !== null])).toEqual([
      ['Retired', true],
      ['Economy', false],
      ['Standard', false],
      ['Express', false],
    ]);
  });

  it('pages with nextCursor and refuses an unknown cursor', async () => {
    const shop = await seededShop();
    const first = await listShippingZones(handle.db, shop.organizationId, merchantQuery({ limit: 2 }));
    expect(first.data.map((zone) => zone.name)).toEqual(['Alpha', 'Bravo']);
    expect(first.nextCursor).toBe(shop.bravo.id);
    const second = await listShippingZones(
      handle.db,
      shop.organizationId,
      merchantQuery({ limit: 2, cursor: first.nextCursor }),
    );
    expect(second).toEqual({ data: [expect.objectContaining({ id: shop.late.id })], nextCursor: null });
    await expect(
      listShippingZones(handle.db, shop.organizationId, merchantQuery({ cursor: 'shz_nope' })),
    ).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('rejects a malformed archived flag', () => {
    expect(shippingZoneListQuerySchema.safeParse({ archived: 'maybe' }).success).toBe(false);
  });
});
