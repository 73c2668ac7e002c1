import * as admin from '@commerce/admin';
import { signInForTest } from '@commerce/customers/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import * as organizations from '../../../../packages/admin/src/organizations/find-organization.ts';
import { createHarness, type Harness } from '../support/harness.ts';

// Counts the tenant lookups requests make, through the real functions (the directory imports the
// lookup from its own module, so that module is the one mocked).
vi.mock('../../../../packages/admin/src/organizations/find-organization.ts', async (importOriginal) => {
  const actual = await importOriginal<typeof organizations>();
  return { ...actual, findTenantSnapshotBySlug: vi.fn(actual.findTenantSnapshotBySlug) };
});
vi.mock('@commerce/admin', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@commerce/admin')>();
  return { ...actual, getSettings: vi.fn(actual.getSettings) };
});

let h: Harness;
let organizationId: string;
let ownerToken: string;
beforeAll(async () => {
  h = await createHarness({ env: { HOSTED_CHECKOUT_URL: 'https://checkout.example' } });
  organizationId = (await h.provision('lookups', 'owner@lookups.test')).id;
  ownerToken = await h.token({ email: 'owner@lookups.test' });
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  vi.mocked(organizations.findTenantSnapshotBySlug).mockClear();
  vi.mocked(admin.getSettings).mockClear();
});

const lookups = () => vi.mocked(organizations.findTenantSnapshotBySlug).mock.calls.length;

// A storefront read that resolves the tenant as every tenant route does.
const read = (headers: Record<string, string>) =>
  h.app.request('/api/v1/public/pages', { headers: { 'x-organization-slug': 'lookups', ...headers } });

const organization = async () => {
  const response = await h.app.request('/api/v1/public/organization', {
    headers: { 'x-organization-slug': 'lookups' },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as { displayName: string | null };
};

describe('the tenant directory', () => {
  it('looks a tenant up once for a cross-origin request (CORS and the procedure), then keeps it', async () => {
    // The harness's gateway listens to the database's tenant notices, as a started gateway does.
    const response = await read({ origin: 'https://checkout.example' });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://checkout.example');
    expect(lookups()).toBe(1);
    expect((await read({})).status).toBe(200);
    expect((await read({ origin: 'https://checkout.example' })).status).toBe(200);
    expect(await organization()).toEqual(expect.objectContaining({ displayName: null }));
    expect(lookups()).toBe(1);
  });

  it("gives a cookie change's origin check the origins kept with the tenant, with no settings read", async () => {
    const session = await signInForTest(h.database.db, organizationId, 'ada@example.com', h.clock.now());
    const response = await h.app.request('/api/v1/customer/auth/logout', {
      method: 'POST',
      headers: {
        origin: 'https://checkout.example',
        'x-organization-slug': 'lookups',
        cookie: `__Host-session=${session.token}`,
      },
    });
    expect(response.status).toBe(200);
    expect(lookups()).toBe(0);
    expect(admin.getSettings).not.toHaveBeenCalled();
  });

  it("shows a settings change on this gateway's very next read", async () => {
    expect((await organization()).displayName).toBeNull();
    const patched = await h.app.request('/api/v1/merchant/settings', {
      method: 'PATCH',
      headers: {
        authorization: `Bearer ${ownerToken}`,
        'x-organization-slug': 'lookups',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ businessProfile: { displayName: 'Lookups & Co' } }),
    });
    expect(patched.status).toBe(200);
    expect((await organization()).displayName).toBe('Lookups & Co');
  });

  it('sees a change made outside the service (a hand edit) through the notice, well before the time-to-live', async () => {
    await organization();
    await h.database.db
      .updateTable('organization_settings')
      .set({ business_profile: JSON.stringify({ displayName: 'Edited by hand' }) })
      .where('organization_id', '=', organizationId)
      .execute();
    await expect
      .poll(async () => (await organization()).displayName, { timeout: 5_000, interval: 20 })
      .toBe('Edited by hand');

    await h.database.db
      .updateTable('organizations')
      .set({ status: 'SUSPENDED' })
      .where('id', '=', organizationId)
      .execute();
    await expect.poll(async () => (await read({})).status, { timeout: 5_000, interval: 20 }).toBe(404);
  });
});
