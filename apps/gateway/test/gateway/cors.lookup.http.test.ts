import * as admin from '@commerce/admin';
import { signInForTest } from '@commerce/customers/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { createHarness, type Harness } from '../support/harness.ts';

// Counts the tenant lookups a request makes, through the real functions.
vi.mock('@commerce/admin', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@commerce/admin')>();
  return {
    ...actual,
    findTenantBySlug: vi.fn(actual.findTenantBySlug),
    findTenantWithOriginsBySlug: vi.fn(actual.findTenantWithOriginsBySlug),
    findTenantWithProfileBySlug: vi.fn(actual.findTenantWithProfileBySlug),
    getSettings: vi.fn(actual.getSettings),
  };
});

let h: Harness;
let organizationId: string;
beforeAll(async () => {
  h = await createHarness({ env: { HOSTED_CHECKOUT_URL: 'https://checkout.example' } });
  organizationId = (await h.provision('lookups', 'owner@lookups.test')).id;
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => {
  vi.mocked(admin.findTenantBySlug).mockClear();
  vi.mocked(admin.findTenantWithOriginsBySlug).mockClear();
  vi.mocked(admin.findTenantWithProfileBySlug).mockClear();
  vi.mocked(admin.getSettings).mockClear();
});

// A storefront read that resolves the tenant as every tenant route does (the organization read has
// a lookup of its own, with the store's profile: the last test).
const read = (headers: Record<string, string>) =>
  h.app.request('/api/v1/public/pages', { headers: { 'x-organization-slug': 'lookups', ...headers } });

describe('the tenant lookup of a cross-origin request', () => {
  it('is one query, with the origins, which the procedure reuses', async () => {
    const response = await read({ origin: 'https://checkout.example' });
    expect(response.status).toBe(200);
    expect(response.headers.get('access-control-allow-origin')).toBe('https://checkout.example');
    expect(admin.findTenantWithOriginsBySlug).toHaveBeenCalledTimes(1);
    expect(admin.findTenantBySlug).not.toHaveBeenCalled();
  });

  it('is the plain lookup, once, for a request without Origin', async () => {
    expect((await read({})).status).toBe(200);
    expect(admin.findTenantBySlug).toHaveBeenCalledTimes(1);
    expect(admin.findTenantWithOriginsBySlug).not.toHaveBeenCalled();
  });

  it("gives a cookie change's origin check the origins read with the tenant, with no settings read", async () => {
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
    expect(admin.findTenantWithOriginsBySlug).toHaveBeenCalledTimes(1);
    expect(admin.findTenantBySlug).not.toHaveBeenCalled();
    expect(admin.getSettings).not.toHaveBeenCalled();
  });

  it('is one lookup with the profile for the organization read, none of the others', async () => {
    const response = await h.app.request('/api/v1/public/organization', {
      headers: { 'x-organization-slug': 'lookups' },
    });
    expect(response.status).toBe(200);
    expect(admin.findTenantWithProfileBySlug).toHaveBeenCalledTimes(1);
    expect(admin.findTenantBySlug).not.toHaveBeenCalled();
    expect(admin.getSettings).not.toHaveBeenCalled();
  });
});
