import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTenantSnapshotBySlug } from './find-organization.ts';

let handle: DatabaseHandle;
beforeAll(async () => {
  handle = await createTestDatabase();
  await handle.db
    .insertInto('organizations')
    .values([
      { id: 'org_active', slug: 'active-shop', name: 'Active' },
      { id: 'org_other', slug: 'other-shop', name: 'Other' },
      { id: 'org_suspended', slug: 'suspended-shop', name: 'Suspended', status: 'SUSPENDED' },
    ])
    .execute();
});
afterAll(async () => {
  await handle.close();
});

describe('findTenantSnapshotBySlug', () => {
  it('finds each active organization by its own slug with the precompiled lookup', async () => {
    expect(await findTenantSnapshotBySlug(handle.db, 'active-shop')).toEqual({
      organizationId: 'org_active',
      slug: 'active-shop',
      name: 'Active',
      allowedOrigins: [],
      profile: { displayName: null, logoUrl: null, websiteUrl: null, locale: 'en-US' },
    });
    expect((await findTenantSnapshotBySlug(handle.db, 'other-shop'))?.organizationId).toBe('org_other');
  });

  it('finds no suspended, unknown or malformed organization', async () => {
    expect(await findTenantSnapshotBySlug(handle.db, 'suspended-shop')).toBeUndefined();
    expect(await findTenantSnapshotBySlug(handle.db, 'nobody')).toBeUndefined();
    expect(await findTenantSnapshotBySlug(handle.db, "x' or '1'='1")).toBeUndefined();
  });

  it('works inside a transaction', async () => {
    const found = await handle.db.transaction().execute((trx) => findTenantSnapshotBySlug(trx, 'other-shop'));
    expect(found?.name).toBe('Other');
  });

  it('adds the allowed origins of the settings, none without settings or without the key', async () => {
    await handle.db
      .insertInto('organization_settings')
      .values([
        {
          organization_id: 'org_active',
          business_profile: '{}',
          checkout_settings: '{}',
          api_settings: JSON.stringify({ allowedOrigins: ['https://shop.example', 'http://localhost:5173'] }),
          notifications: '{}',
        },
        {
          organization_id: 'org_other',
          business_profile: '{}',
          checkout_settings: '{}',
          api_settings: JSON.stringify({ publicOrderReadsEnabled: true }),
          notifications: '{}',
        },
      ])
      .execute();
    expect((await findTenantSnapshotBySlug(handle.db, 'active-shop'))?.allowedOrigins).toEqual([
      'https://shop.example',
      'http://localhost:5173',
    ]);
    expect((await findTenantSnapshotBySlug(handle.db, 'other-shop'))?.allowedOrigins).toEqual([]);
  });

  it("adds the business profile's public fields, null where unset or not an http(s) URL", async () => {
    await handle.db
      .insertInto('organizations')
      .values([
        { id: 'org_plain', slug: 'plain-shop', name: 'Plain' },
        { id: 'org_profiled', slug: 'profiled-shop', name: 'Profiled' },
      ])
      .execute();
    await handle.db
      .insertInto('organization_settings')
      .values({
        organization_id: 'org_profiled',
        business_profile: JSON.stringify({
          displayName: 'Profiled Goods',
          logoUrl: 'javascript:alert(1)',
          websiteUrl: 'https://profiled.example/',
        }),
        checkout_settings: '{}',
        api_settings: '{}',
        notifications: '{}',
      })
      .execute();
    // No settings row at all.
    expect(await findTenantSnapshotBySlug(handle.db, 'plain-shop')).toEqual({
      organizationId: 'org_plain',
      slug: 'plain-shop',
      name: 'Plain',
      allowedOrigins: [],
      profile: { displayName: null, logoUrl: null, websiteUrl: null, locale: 'en-US' },
    });
    expect((await findTenantSnapshotBySlug(handle.db, 'profiled-shop'))?.profile).toEqual({
      displayName: 'Profiled Goods',
      logoUrl: null,
      websiteUrl: 'https://profiled.example/',
      locale: 'en-US',
    });
  });

  it("reads the store's locale, and the default for a stored value the settings would refuse", async () => {
    await handle.db
      .insertInto('organizations')
      .values([
        { id: 'org_german', slug: 'german-shop', name: 'German' },
        { id: 'org_garbled', slug: 'garbled-shop', name: 'Garbled' },
      ])
      .execute();
    const settingsRow = (organizationId: string, locale: string) => ({
      organization_id: organizationId,
      business_profile: JSON.stringify({ locale }),
      checkout_settings: '{}',
      api_settings: '{}',
      notifications: '{}',
    });
    await handle.db
      .insertInto('organization_settings')
      .values([settingsRow('org_german', 'de-DE'), settingsRow('org_garbled', 'not a locale!')])
      .execute();
    expect((await findTenantSnapshotBySlug(handle.db, 'german-shop'))?.profile.locale).toBe('de-DE');
    expect((await findTenantSnapshotBySlug(handle.db, 'garbled-shop'))?.profile.locale).toBe('en-US');
  });
});
