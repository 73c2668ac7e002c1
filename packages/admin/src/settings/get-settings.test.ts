import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization } from '../../test/organizations.ts';
import { getSettings } from './get-settings.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-05-01T09:00:00.000Z');

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 20 });
});
afterAll(async () => {
  await handle.close();
});

const organization = () => insertOrganization(handle.db, 'settings-read');

const rowsOf = (organizationId: string) =>
  handle.db
    .selectFrom('organization_settings')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .execute();

const DEFAULTS = {
  businessProfile: { locale: 'en-US' },
  checkoutSettings: {
    currency: 'USD',
    taxIncludedInPrices: false,
    requirePhone: false,
    returnWindowDays: 30,
  },
  apiSettings: { publicOrderReadsEnabled: false },
  notifications: {
    notifyOnNewOrder: true,
    notifyOnNewBooking: true,
    notifyOnReturnRequested: true,
    notifyOnLowStock: false,
    lowStockThreshold: 5,
  },
};

describe('getSettings', () => {
  it('creates the row on the first read and answers the defaults, with unset keys absent', async () => {
    const organizationId = await organization();
    expect(await rowsOf(organizationId)).toHaveLength(0);

    expect(await getSettings(handle.db, organizationId, clock.now())).toEqual(DEFAULTS);

    const rows = await rowsOf(organizationId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      business_profile: {},
      checkout_settings: {},
      api_settings: {},
      notifications: {},
      created_at: clock.now(),
    });
  });

  it('answers stored keys over the defaults and hides keys it does not know', async () => {
    const organizationId = await organization();
    await getSettings(handle.db, organizationId, clock.now());
    await handle.db
      .updateTable('organization_settings')
      .set({
        business_profile: JSON.stringify({ displayName: 'Corner Shop', retiredKey: 'x' }),
        checkout_settings: JSON.stringify({ currency: 'EUR' }),
      })
      .where('organization_id', '=', organizationId)
      .execute();

    const settings = await getSettings(handle.db, organizationId, clock.now());

    expect(settings.businessProfile).toEqual({ displayName: 'Corner Shop', locale: 'en-US' });
    expect(settings.checkoutSettings).toEqual({ ...DEFAULTS.checkoutSettings, currency: 'EUR' });
    expect(settings.apiSettings).toEqual(DEFAULTS.apiSettings);
  });

  it('reads only its own organization', async () => {
    const mine = await organization();
    const theirs = await organization();
    await getSettings(handle.db, theirs, clock.now());
    await handle.db
      .updateTable('organization_settings')
      .set({ business_profile: JSON.stringify({ displayName: 'Theirs' }) })
      .where('organization_id', '=', theirs)
      .execute();

    expect((await getSettings(handle.db, mine, clock.now())).businessProfile).toEqual({ locale: 'en-US' });
  });

  it('creates exactly one row under 20 concurrent first reads, and every read answers', async () => {
    const organizationId = await organization();

    const reads = await Promise.all(
      Array.from({ length: 20 }, () => getSettings(handle.db, organizationId, clock.now())),
    );

    for (const read of reads) expect(read).toEqual(DEFAULTS);
    expect(await rowsOf(organizationId)).toHaveLength(1);
  });
});
