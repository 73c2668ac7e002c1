import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

/** GET /public/organization: how a store presents itself on its hosted pages. */
let h: Harness;
let shop: RoleFixture;

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'presented-shop', ['settings:manage']);
});
afterAll(async () => h.close());

const read = async () => {
  const response = await h.app.request('/api/v1/public/organization', {
    headers: { 'x-organization-slug': shop.slug },
  });
  expect(response.status).toBe(200);
  return response.json();
};

describe('GET /public/organization', () => {
  it('answers the profile fields as null while the business profile is unset', async () => {
    expect(await read()).toEqual({
      id: shop.organizationId,
      slug: shop.slug,
      name: expect.any(String),
      displayName: null,
      logoUrl: null,
      websiteUrl: null,
      locale: 'en-US',
    });
  });

  it("answers the profile's display name, logo and website once set, and null for a cleared one", async () => {
    const profile = {
      displayName: 'Northwind Goods',
      logoUrl: 'https://cdn.northwind.example/logo.svg',
      websiteUrl: 'https://northwind.example',
    };
    const patched = await shop.call('owner', 'PATCH', '/merchant/settings', { businessProfile: profile });
    expect(patched.status).toBe(200);
    expect(await read()).toEqual({
      id: shop.organizationId,
      slug: shop.slug,
      name: expect.any(String),
      locale: 'en-US',
      ...profile,
    });

    await shop.call('owner', 'PATCH', '/merchant/settings', { businessProfile: { logoUrl: null } });
    expect(await read()).toMatchObject({ displayName: 'Northwind Goods', logoUrl: null });
  });

  it("answers the store's locale once set, at once: the read is never cached, so it has no tag to go stale", async () => {
    const first = await h.app.request('/api/v1/public/organization', {
      headers: { 'x-organization-slug': shop.slug },
    });
    expect(first.headers.get('etag')).toBeNull();
    expect(first.headers.get('cache-control')).toBe('private, no-store');
    const patched = await shop.call('owner', 'PATCH', '/merchant/settings', {
      businessProfile: { locale: 'de-DE' },
    });
    expect(patched.status).toBe(200);
    expect(await read()).toMatchObject({ locale: 'de-DE' });
    const invalid = await shop.call('owner', 'PATCH', '/merchant/settings', {
      businessProfile: { locale: 'de_DE' },
    });
    expect(invalid.status).toBe(400);
    expect(await read()).toMatchObject({ locale: 'de-DE' });
    await shop.call('owner', 'PATCH', '/merchant/settings', { businessProfile: { locale: null } });
    expect(await read()).toMatchObject({ locale: 'en-US' });
  });

  it('documents the new fields in the OpenAPI document', async () => {
    const document = (await (await h.app.request('/api/v1/openapi.json')).json()) as {
      components: { schemas: Record<string, { properties: Record<string, unknown>; required?: string[] }> };
    };
    const schema = document.components.schemas.PublicOrganization!;
    expect(Object.keys(schema.properties)).toEqual([
      'id',
      'slug',
      'name',
      'displayName',
      'logoUrl',
      'websiteUrl',
      'locale',
    ]);
    expect(schema.required).toEqual(['id', 'slug', 'name', 'displayName', 'logoUrl', 'websiteUrl', 'locale']);
  });
});
