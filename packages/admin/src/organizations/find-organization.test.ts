import type { DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  findTenantBySlug,
  findTenantWithOriginsBySlug,
  findTenantWithProfileBySlug,
} from './find-organization.ts';

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

describe('findTenantBySlug', () => {
  it('finds each active organization by its own slug with the precompiled lookup', async () => {
    expect(await findTenantBySlug(handle.db, 'active-shop')).toEqual({
      organizationId: 'org_active',
      slug: 'active-shop',
      name: 'Active',
    });
    expect((await findTenantBySlug(handle.db, 'other-shop'))?.organizationId).toBe('org_other');
  });

  it('finds no suspended, unknown or malformed organization', async () => {
    expect(await findTenantBySlug(handle.db, 'suspended-shop')).toBeUndefined();
    expect(await findTenantBySlug(handle.db, 'nobody')).toBeUndefined();
    expect(await findTenantBySlug(handle.db, "x' or '1'='1")).toBeUndefined();
  });

  it('works inside a transaction', async () => {
    const found = await handle.db.transaction().execute((trx) => findTenantBySlug(trx, 'other-shop'));
    expect(found?.name).toBe('Other');
  });
});

describe('findTenantWithOriginsBySlug', () => {
  it('adds the allowed origins of the settings, none without settings or without the key', async () => {
    expect(await findTenantWithOriginsBySlug(handle.db, 'active-shop')).toEqual({
      organizationId: 'org_active',
      slug: 'active-shop',
      name: 'Active',
      allowedOrigins: [],
    });
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
    expect((await findTenantWithOriginsBySlug(handle.db, 'active-shop'))?.allowedOrigins).toEqual([
      'https://shop.example',
      'http://localhost:5173',
    ]);
    expect((await findTenantWithOriginsBySlug(handle.db, 'other-shop'))?.allowedOrigins).toEqual([]);
  });

  it('finds no suspended, unknown or malformed organization', async () => {
    expect(await findTenantWithOriginsBySlug(handle.db, 'suspended-shop')).toBeUndefined();
    expect(await findTenantWithOriginsBySlug(handle.db, 'nobody')).toBeUndefined();
    expect(await findTenantWithOriginsBySlug(handle.db, "x' or '1'='1")).toBeUndefined();
  });
});

describe('findTenantWithProfileBySlug', () => {
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
    expect(await findTenantWithProfileBySlug(handle.db, 'plain-shop')).toEqual({
      organizationId: 'org_plain',
      slug: 'plain-shop',
      name: 'Plain',
      profile: { displayName: null, logoUrl: null, websiteUrl: null },
    });
    expect((await findTenantWithProfileBySlug(handle.db, 'profiled-shop'))?.profile).toEqual({
      displayName: 'Profiled Goods',
      logoUrl: null,
      websiteUrl: 'https://profiled.example/',
    });
  });

  it('finds no suspended, unknown or malformed organization', async () => {
    expect(await findTenantWithProfileBySlug(handle.db, 'suspended-shop')).toBeUndefined();
    expect(await findTenantWithProfileBySlug(handle.db, 'nobody')).toBeUndefined();
    expect(await findTenantWithProfileBySlug(handle.db, "x' or '1'='1")).toBeUndefined();
  });
});
