import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import {
  ACTORS,
  type Actor,
  createRoleFixture,
  expectedStatus,
  MEMBER_ACTORS,
  type RoleFixture,
} from '../support/roles.ts';

let h: Harness;
let shop: RoleFixture;

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'settings-shop', ['settings:manage']);
});
afterAll(async () => {
  await h.close();
});

interface Settings {
  businessProfile: Record<string, unknown>;
  checkoutSettings: Record<string, unknown>;
  apiSettings: Record<string, unknown>;
  notifications: Record<string, unknown>;
}

const DEFAULTS: Settings = {
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

const settingsAudits = (organizationId: string) =>
  h.database.db
    .selectFrom('audit_logs')
    .select(['actor_user_id', 'actor_email', 'target_type', 'target_id', 'metadata'])
    .where('organization_id', '=', organizationId)
    .where('action', '=', 'settings.updated')
    .orderBy('created_at')
    .orderBy('id')
    .execute();

describe('GET /merchant/settings', () => {
  const allowed: readonly Actor[] = MEMBER_ACTORS;
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, allowed, 200);
    it(`answers ${status} to ${actor}`, async () => {
      const response = await shop.call(actor, 'GET', '/merchant/settings');
      if (status === 200) {
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual(DEFAULTS);
      } else {
        await expectError(response, status, status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');
      }
    });
  }

  it('creates exactly one row under 20 concurrent first reads', async () => {
    const fresh = await createRoleFixture(h, 'settings-fresh');
    const responses = await Promise.all(
      Array.from({ length: 20 }, () => fresh.call('staffWithout', 'GET', '/merchant/settings')),
    );
    for (const response of responses) {
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(DEFAULTS);
    }
    const rows = await h.database.db
      .selectFrom('organization_settings')
      .select('organization_id')
      .where('organization_id', '=', fresh.organizationId)
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('needs the tenant header and a known organization', async () => {
    const token = shop.users.owner.token;
    await expectError(
      await h.app.request('/api/v1/merchant/settings', { headers: { authorization: `Bearer ${token}` } }),
      400,
      'TENANT_REQUIRED',
    );
    await expectError(
      await h.app.request('/api/v1/merchant/settings', {
        headers: { authorization: `Bearer ${token}`, 'x-organization-slug': 'no-such-shop' },
      }),
      404,
      'RESOURCE_NOT_FOUND',
    );
  });
});

describe('PATCH /merchant/settings', () => {
  const allowed: readonly Actor[] = ['owner', 'admin', 'staffWith'];
  for (const actor of ACTORS) {
    const status = expectedStatus(actor, allowed, 200);
    it(`answers ${status} to ${actor}`, async () => {
      const displayName = `Named by ${actor}`;
      h.clock.advance(1000);
      const before = await settingsAudits(shop.organizationId);

      const response = await shop.call(actor, 'PATCH', '/merchant/settings', {
        businessProfile: { displayName },
      });

      const read = (await (await shop.call('owner', 'GET', '/merchant/settings')).json()) as Settings;
      const after = await settingsAudits(shop.organizationId);
      if (status === 200) {
        expect(response.status).toBe(200);
        const body = (await response.json()) as Settings;
        expect(body.businessProfile.displayName).toBe(displayName);
        expect(body).toEqual(read);
        expect(after).toHaveLength(before.length + 1);
        expect(after.at(-1)).toEqual({
          actor_user_id: shop.users[actor as 'owner'].userId,
          actor_email: shop.users[actor as 'owner'].email,
          target_type: 'settings',
          target_id: shop.organizationId,
          metadata: { categories: ['businessProfile'] },
        });
      } else {
        await expectError(response, status, status === 401 ? 'UNAUTHENTICATED' : 'FORBIDDEN');
        expect(read.businessProfile.displayName).not.toBe(displayName);
        expect(after).toHaveLength(before.length);
      }
    });
  }

  it('shallow-merges each category sent, clears keys set to null and leaves the rest', async () => {
    h.clock.advance(1000);
    const first = await shop.call('owner', 'PATCH', '/merchant/settings', {
      businessProfile: { displayName: 'Corner Shop', supportEmail: 'help@corner.example' },
      checkoutSettings: { currency: 'EUR', termsUrl: 'https://corner.example/terms' },
      apiSettings: { publicOrderReadsEnabled: true, allowedOrigins: ['https://Corner.Example/'] },
      notifications: { notifyOnLowStock: true, lowStockThreshold: 3 },
    });
    expect(first.status).toBe(200);
    h.clock.advance(1000);

    const second = await shop.call('admin', 'PATCH', '/merchant/settings', {
      businessProfile: { legalName: 'Corner Shop LLC', supportEmail: null },
      checkoutSettings: { currency: null },
    });

    expect(second.status).toBe(200);
    const expected: Settings = {
      businessProfile: { displayName: 'Corner Shop', legalName: 'Corner Shop LLC', locale: 'en-US' },
      checkoutSettings: { ...DEFAULTS.checkoutSettings, termsUrl: 'https://corner.example/terms' },
      apiSettings: { publicOrderReadsEnabled: true, allowedOrigins: ['https://corner.example'] },
      notifications: { ...DEFAULTS.notifications, notifyOnLowStock: true, lowStockThreshold: 3 },
    };
    expect(await second.json()).toEqual(expected);
    expect(await (await shop.call('staffWithout', 'GET', '/merchant/settings')).json()).toEqual(expected);
    const audits = await settingsAudits(shop.organizationId);
    expect(audits.slice(-2).map((audit) => audit.metadata)).toEqual([
      { categories: ['businessProfile', 'checkoutSettings', 'apiSettings', 'notifications'] },
      { categories: ['businessProfile', 'checkoutSettings'] },
    ]);
  });

  it('reads the store locale as en-US until set, stores a valid tag canonical and clears it with null', async () => {
    const fresh = await createRoleFixture(h, 'locale-shop', ['settings:manage']);
    const read = async () =>
      ((await (await fresh.call('owner', 'GET', '/merchant/settings')).json()) as Settings).businessProfile;
    expect((await read()).locale).toBe('en-US');
    const patched = await fresh.call('owner', 'PATCH', '/merchant/settings', {
      businessProfile: { locale: 'de-de' },
    });
    expect(patched.status).toBe(200);
    expect(((await patched.json()) as Settings).businessProfile.locale).toBe('de-DE');
    expect((await read()).locale).toBe('de-DE');
    expect(
      (await fresh.call('owner', 'PATCH', '/merchant/settings', { businessProfile: { locale: null } }))
        .status,
    ).toBe(200);
    expect((await read()).locale).toBe('en-US');
  });

  it('answers 200 with the settings and records no audit for a patch that changes nothing', async () => {
    const before = await settingsAudits(shop.organizationId);
    const current = await (await shop.call('owner', 'GET', '/merchant/settings')).json();

    for (const body of [{}, { notifications: {} }, { businessProfile: { legalName: 'Corner Shop LLC' } }]) {
      const response = await shop.call('owner', 'PATCH', '/merchant/settings', body);
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual(current);
    }
    // A body-less PATCH reads as `{}`.
    expect((await shop.call('owner', 'PATCH', '/merchant/settings')).status).toBe(200);
    expect(await settingsAudits(shop.organizationId)).toHaveLength(before.length);
  });

  it('answers 400 VALIDATION_FAILED in the error envelope for an unknown category', async () => {
    const error = await expectError(
      await shop.call('owner', 'PATCH', '/merchant/settings', { shipping: { free: true } }),
      400,
      'VALIDATION_FAILED',
    );
    expect(error.details?.issues).toEqual([{ path: '', message: expect.stringContaining('shipping') }]);
  });

  it('answers 400 for an unknown key and for each invalid value, changing nothing', async () => {
    const before = await (await shop.call('owner', 'GET', '/merchant/settings')).json();
    const cases: [unknown, string][] = [
      [{ businessProfile: { nickname: 'x' } }, 'businessProfile'],
      [{ notifications: { sms: true } }, 'notifications'],
      [{ businessProfile: { supportEmail: 'not-an-email' } }, 'businessProfile.supportEmail'],
      [{ businessProfile: { websiteUrl: 'javascript:alert(1)' } }, 'businessProfile.websiteUrl'],
      [{ businessProfile: { displayName: 'x'.repeat(201) } }, 'businessProfile.displayName'],
      [{ checkoutSettings: { currency: 'XXY' } }, 'checkoutSettings.currency'],
      [{ checkoutSettings: { currency: 'usd' } }, 'checkoutSettings.currency'],
      [{ checkoutSettings: { taxIncludedInPrices: 'yes' } }, 'checkoutSettings.taxIncludedInPrices'],
      [{ apiSettings: { publicOrderReadsEnabled: 1 } }, 'apiSettings.publicOrderReadsEnabled'],
      [{ apiSettings: { allowedOrigins: ['https://x.example/path'] } }, 'apiSettings.allowedOrigins.0'],
      [{ notifications: { lowStockThreshold: -1 } }, 'notifications.lowStockThreshold'],
      [{ businessProfile: null }, 'businessProfile'],
      [{ businessProfile: { locale: 'not a locale' } }, 'businessProfile.locale'],
      [{ businessProfile: { locale: 'en_US' } }, 'businessProfile.locale'],
      [{ businessProfile: { locale: 'xx-YY' } }, 'businessProfile.locale'],
      [{ businessProfile: { locale: `de-${'x'.repeat(40)}` } }, 'businessProfile.locale'],
      [{ businessProfile: { locale: 49 } }, 'businessProfile.locale'],
    ];
    for (const [body, path] of cases) {
      const error = await expectError(
        await shop.call('owner', 'PATCH', '/merchant/settings', body),
        400,
        'VALIDATION_FAILED',
      );
      expect(
        error.details?.issues?.map((issue) => issue.path),
        JSON.stringify(body),
      ).toContain(path);
    }
    expect(await (await shop.call('owner', 'GET', '/merchant/settings')).json()).toEqual(before);
  });

  it('answers 400 for a body that is not a JSON object', async () => {
    const headers = {
      authorization: `Bearer ${shop.users.owner.token}`,
      'x-organization-slug': shop.slug,
      'content-type': 'application/json',
    };
    for (const body of ['[]', '"x"', '{not json']) {
      await expectError(
        await h.app.request('/api/v1/merchant/settings', { method: 'PATCH', headers, body }),
        400,
        'VALIDATION_FAILED',
      );
    }
  });

  it("changes only the caller's organization", async () => {
    const other = await createRoleFixture(h, 'settings-other');
    await other.call('owner', 'PATCH', '/merchant/settings', { businessProfile: { displayName: 'Other' } });

    // A member of one organization cannot write another's settings.
    await expectError(
      await h.app.request('/api/v1/merchant/settings', {
        method: 'PATCH',
        headers: {
          authorization: `Bearer ${shop.users.owner.token}`,
          'x-organization-slug': other.slug,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ businessProfile: { displayName: 'Hijacked' } }),
      }),
      403,
      'FORBIDDEN',
    );
    const read = (await (await other.call('owner', 'GET', '/merchant/settings')).json()) as Settings;
    expect(read.businessProfile).toEqual({ displayName: 'Other', locale: 'en-US' });
    const mine = (await (await shop.call('owner', 'GET', '/merchant/settings')).json()) as Settings;
    expect(mine.businessProfile.displayName).not.toBe('Other');
  });
});

describe('OpenAPI document', () => {
  it('documents both settings routes under their tag, with every key described', async () => {
    const document = (await (await h.app.request('/api/v1/openapi.json')).json()) as {
      paths: Record<string, Record<string, { tags: string[]; summary: string; description: string }>>;
      components: { schemas: Record<string, { properties: Record<string, { description?: string }> }> };
    };
    const route = document.paths['/merchant/settings']!;
    for (const method of ['get', 'patch']) {
      expect(route[method]?.tags).toEqual(['Merchant: settings']);
      expect(route[method]?.summary).toBeTruthy();
    }
    expect(route.patch!.description).toContain('settings:manage');
    for (const name of [
      'BusinessProfile',
      'CheckoutSettings',
      'ApiSettings',
      'NotificationSettings',
      'BusinessProfilePatch',
      'CheckoutSettingsPatch',
      'ApiSettingsPatch',
      'NotificationSettingsPatch',
    ]) {
      const properties = document.components.schemas[name]?.properties ?? {};
      expect(Object.keys(properties).length, name).toBeGreaterThan(0);
      for (const [key, property] of Object.entries(properties)) {
        expect(property.description, `${name}.${key}`).toBeTruthy();
      }
    }
  });
});
