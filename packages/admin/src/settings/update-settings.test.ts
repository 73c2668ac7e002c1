import { ManualClock } from '@commerce/core';
import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization } from '../../test/organizations.ts';
import { getSettings } from './get-settings.ts';
import { type UpdateSettingsInput, updateSettingsInputSchema } from './schemas.ts';
import { updateSettings } from './update-settings.ts';

let handle: DatabaseHandle;
const clock = new ManualClock('2026-05-01T09:00:00.000Z');
const actor = { userId: 'usr_settings_actor', email: 'admin@shop.example' };

beforeAll(async () => {
  handle = await createTestDatabase({ poolSize: 20 });
});
afterAll(async () => {
  await handle.close();
});

const organization = () => insertOrganization(handle.db, 'settings-write');

/** Patches as the API does: the body through the procedure's schema first. */
const patch = (organizationId: string, body: unknown) =>
  updateSettings(
    handle.db,
    { organizationId, actor, at: clock.now() },
    updateSettingsInputSchema.parse(body) as UpdateSettingsInput,
  );

const storedRow = (organizationId: string) =>
  handle.db
    .selectFrom('organization_settings')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();

const auditsOf = (organizationId: string) =>
  handle.db
    .selectFrom('audit_logs')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('action', '=', 'settings.updated')
    .orderBy('id')
    .execute();

describe('updateSettings: the store locale', () => {
  it('reads en-US until set, stores the canonical tag, and reads the default again once cleared', async () => {
    const organizationId = await organization();
    expect((await getSettings(handle.db, organizationId, clock.now())).businessProfile.locale).toBe('en-US');
    const read = await patch(organizationId, { businessProfile: { locale: 'de-de' } });
    expect(read.businessProfile.locale).toBe('de-DE');
    expect((await storedRow(organizationId)).business_profile).toEqual({ locale: 'de-DE' });
    const cleared = await patch(organizationId, { businessProfile: { locale: null } });
    expect(cleared.businessProfile.locale).toBe('en-US');
    expect((await storedRow(organizationId)).business_profile).toEqual({});
  });
});

describe('updateSettings: merge semantics', () => {
  it('creates the row when none exists and answers the full read', async () => {
    const organizationId = await organization();

    const read = await patch(organizationId, { businessProfile: { displayName: 'Corner Shop' } });

    expect(read.businessProfile).toEqual({ displayName: 'Corner Shop', locale: 'en-US' });
    expect(read.checkoutSettings.currency).toBe('USD');
    expect(read.notifications.notifyOnNewOrder).toBe(true);
    expect((await storedRow(organizationId)).business_profile).toEqual({ displayName: 'Corner Shop' });
  });

  it('shallow-merges each category: keys not sent stay', async () => {
    const organizationId = await organization();
    await patch(organizationId, {
      businessProfile: { displayName: 'Corner Shop', supportEmail: 'help@shop.example' },
    });

    const read = await patch(organizationId, {
      businessProfile: { legalName: 'Corner Shop LLC', displayName: 'Corner' },
    });

    expect(read.businessProfile).toEqual({
      displayName: 'Corner',
      supportEmail: 'help@shop.example',
      legalName: 'Corner Shop LLC',
      locale: 'en-US',
    });
    expect(await getSettings(handle.db, organizationId, clock.now())).toEqual(read);
  });

  it('leaves categories not sent untouched', async () => {
    const organizationId = await organization();
    await patch(organizationId, {
      businessProfile: { displayName: 'Corner Shop' },
      checkoutSettings: { currency: 'EUR', requirePhone: true },
      apiSettings: { allowedOrigins: ['https://shop.example'] },
      notifications: { orderNotificationEmail: 'orders@shop.example' },
    });
    const before = await storedRow(organizationId);

    await patch(organizationId, { checkoutSettings: { taxIncludedInPrices: true } });

    const after = await storedRow(organizationId);
    expect(after.business_profile).toEqual(before.business_profile);
    expect(after.api_settings).toEqual(before.api_settings);
    expect(after.notifications).toEqual(before.notifications);
    expect(after.checkout_settings).toEqual({
      currency: 'EUR',
      requirePhone: true,
      taxIncludedInPrices: true,
    });
  });

  it('clears a key set to null: it is removed from storage and reads as its default or absent', async () => {
    const organizationId = await organization();
    await patch(organizationId, {
      businessProfile: { displayName: 'Corner Shop', supportEmail: 'help@shop.example' },
      checkoutSettings: { currency: 'EUR' },
      apiSettings: { publicOrderReadsEnabled: true },
    });

    const read = await patch(organizationId, {
      businessProfile: { supportEmail: null },
      checkoutSettings: { currency: null },
      apiSettings: { publicOrderReadsEnabled: null },
    });

    expect(read.businessProfile).toEqual({ displayName: 'Corner Shop', locale: 'en-US' });
    expect(read.businessProfile).not.toHaveProperty('supportEmail');
    expect(read.checkoutSettings.currency).toBe('USD');
    expect(read.apiSettings.publicOrderReadsEnabled).toBe(false);
    const stored = await storedRow(organizationId);
    expect(stored.business_profile).toEqual({ displayName: 'Corner Shop' });
    expect(stored.checkout_settings).toEqual({});
    expect(stored.api_settings).toEqual({});
  });

  it('replaces objects and arrays whole', async () => {
    const organizationId = await organization();
    await patch(organizationId, {
      businessProfile: {
        address: { line1: '1 Main St', line2: 'Unit 4', city: 'Springfield', country: 'US' },
      },
      apiSettings: { allowedOrigins: ['https://a.example', 'https://b.example'] },
    });

    const read = await patch(organizationId, {
      businessProfile: { address: { line1: '2 High St', city: 'Leeds', country: 'GB' } },
      apiSettings: { allowedOrigins: ['https://c.example'] },
    });

    expect(read.businessProfile.address).toEqual({ line1: '2 High St', city: 'Leeds', country: 'GB' });
    expect(read.apiSettings.allowedOrigins).toEqual(['https://c.example']);
  });

  it('stores the normalised value of allowedOrigins', async () => {
    const organizationId = await organization();
    const read = await patch(organizationId, {
      apiSettings: { allowedOrigins: ['https://Shop.Example/', 'https://shop.example'] },
    });
    expect(read.apiSettings.allowedOrigins).toEqual(['https://shop.example']);
    expect((await storedRow(organizationId)).api_settings).toEqual({
      allowedOrigins: ['https://shop.example'],
    });
  });

  it('stamps updated_at when something changed', async () => {
    const organizationId = await organization();
    await getSettings(handle.db, organizationId, clock.now());
    clock.advance(60_000);
    await patch(organizationId, { notifications: { notifyOnLowStock: true } });
    expect((await storedRow(organizationId)).updated_at).toEqual(clock.now());
  });

  it('changes only its own organization', async () => {
    const mine = await organization();
    const theirs = await organization();
    await patch(theirs, { businessProfile: { displayName: 'Theirs' } });

    await patch(mine, { businessProfile: { displayName: 'Mine' } });

    expect((await storedRow(theirs)).business_profile).toEqual({ displayName: 'Theirs' });
    expect(await auditsOf(theirs)).toHaveLength(1);
  });
});

describe('updateSettings: audit', () => {
  it('records settings.updated with exactly the names of the categories changed', async () => {
    const organizationId = await organization();
    clock.advance(1000);

    await patch(organizationId, {
      notifications: { orderNotificationEmail: 'orders@shop.example' },
      businessProfile: { supportEmail: 'help@shop.example' },
      checkoutSettings: {},
    });

    const audits = await auditsOf(organizationId);
    expect(audits).toHaveLength(1);
    expect(audits[0]).toMatchObject({
      actor_user_id: actor.userId,
      actor_email: actor.email,
      action: 'settings.updated',
      target_type: 'settings',
      target_id: organizationId,
      created_at: clock.now(),
    });
    expect(audits[0]!.metadata).toEqual({ categories: ['businessProfile', 'notifications'] });
    expect(JSON.stringify(audits[0]!.metadata)).not.toContain('shop.example');
  });

  it('does not count a category whose patch leaves it as it was', async () => {
    const organizationId = await organization();
    await patch(organizationId, { businessProfile: { displayName: 'Corner Shop' } });
    clock.advance(1000);

    await patch(organizationId, {
      businessProfile: { displayName: 'Corner Shop', supportPhone: null },
      apiSettings: { publicOrderReadsEnabled: true },
    });

    const audits = await auditsOf(organizationId);
    expect(audits.map((audit) => audit.metadata)).toEqual([
      { categories: ['businessProfile'] },
      { categories: ['apiSettings'] },
    ]);
  });

  it('writes nothing and records no audit for a patch that changes nothing', async () => {
    const organizationId = await organization();
    await patch(organizationId, {
      businessProfile: {
        displayName: 'Corner Shop',
        address: { line1: '1 Main St', city: 'Springfield', country: 'US' },
      },
    });
    const before = await storedRow(organizationId);
    clock.advance(60_000);

    for (const body of [
      {},
      { businessProfile: {} },
      { businessProfile: { displayName: 'Corner Shop' } },
      // Same address, keys in another order: jsonb order is not a change.
      { businessProfile: { address: { country: 'US', city: 'Springfield', line1: '1 Main St' } } },
      { checkoutSettings: { termsUrl: null } },
    ]) {
      const read = await patch(organizationId, body);
      expect(read.businessProfile.displayName).toBe('Corner Shop');
    }

    expect(await auditsOf(organizationId)).toHaveLength(1);
    expect((await storedRow(organizationId)).updated_at).toEqual(before.updated_at);
  });

  it('rolls the change back with the transaction when the audit cannot be written', async () => {
    const organizationId = await organization();
    await patch(organizationId, { businessProfile: { displayName: 'Before' } });
    await sql`create function refuse_settings_audit() returns trigger language plpgsql as $$
      begin raise exception 'audit refused'; end $$`.execute(handle.db);
    await sql`create trigger refuse_settings_audit before insert on audit_logs for each row
      when (new.organization_id = ${sql.lit(organizationId)}) execute function refuse_settings_audit()`.execute(
      handle.db,
    );
    try {
      await expect(patch(organizationId, { businessProfile: { displayName: 'After' } })).rejects.toThrow(
        /audit refused/,
      );
    } finally {
      await sql`drop trigger refuse_settings_audit on audit_logs`.execute(handle.db);
      await sql`drop function refuse_settings_audit()`.execute(handle.db);
    }

    expect((await storedRow(organizationId)).business_profile).toEqual({ displayName: 'Before' });
  });
  it("runs in the caller's transaction when handed one, and rolls back with it", async () => {
    const organizationId = await organization();
    await patch(organizationId, { businessProfile: { displayName: 'Before' } });

    const rolledBack = handle.db.transaction().execute(async (trx) => {
      await updateSettings(
        trx,
        { organizationId, actor, at: clock.now() },
        { businessProfile: { displayName: 'After' } },
      );
      throw new Error('caller aborts');
    });

    await expect(rolledBack).rejects.toThrow('caller aborts');
    expect((await storedRow(organizationId)).business_profile).toEqual({ displayName: 'Before' });
    expect(await auditsOf(organizationId)).toHaveLength(1);
  });
});

describe('updateSettings: concurrency', () => {
  it('keeps every key when concurrent patches set different keys of one category', async () => {
    const organizationId = await organization();
    await patch(organizationId, { businessProfile: { displayName: 'Corner Shop' } });
    const patches = [
      { legalName: 'Corner Shop LLC' },
      { supportEmail: 'help@shop.example' },
      { supportPhone: '+1 555 0100' },
      { websiteUrl: 'https://shop.example' },
      { logoUrl: 'https://shop.example/logo.png' },
      { address: { line1: '1 Main St', city: 'Springfield', country: 'US' } },
      { displayName: 'Corner' },
    ];

    await Promise.all(patches.map((businessProfile) => patch(organizationId, { businessProfile })));

    const expected = Object.assign({}, ...patches);
    expect((await storedRow(organizationId)).business_profile).toEqual(expected);
    expect(await auditsOf(organizationId)).toHaveLength(1 + patches.length);
  });

  it('keeps every key when concurrent patches reach an organization without settings yet', async () => {
    const organizationId = await organization();
    const patches = [
      { notifyOnNewOrder: false },
      { notifyOnNewBooking: false },
      { notifyOnReturnRequested: false },
      { notifyOnLowStock: true },
      { lowStockThreshold: 12 },
      { orderNotificationEmail: 'orders@shop.example' },
    ];

    await Promise.all(patches.map((notifications) => patch(organizationId, { notifications })));

    expect((await storedRow(organizationId)).notifications).toEqual(Object.assign({}, ...patches));
  });

  it('audits once when 10 identical patches race', async () => {
    const organizationId = await organization();
    await getSettings(handle.db, organizationId, clock.now());

    const reads = await Promise.all(
      Array.from({ length: 10 }, () => patch(organizationId, { checkoutSettings: { currency: 'JPY' } })),
    );

    for (const read of reads) expect(read.checkoutSettings.currency).toBe('JPY');
    expect(await auditsOf(organizationId)).toHaveLength(1);
  });
});
