import { describe, expect, it } from 'vitest';
import { MAX_ALLOWED_ORIGINS, updateSettingsInputSchema } from './schemas.ts';

const parse = (body: unknown) => updateSettingsInputSchema.safeParse(body);
const accepts = (body: unknown) => parse(body).success;
const issuePaths = (body: unknown) => {
  const result = parse(body);
  if (result.success) throw new Error(`accepted ${JSON.stringify(body)}`);
  return result.error.issues.map((issue) => issue.path.join('.'));
};

describe('updateSettingsInputSchema: the body', () => {
  it('accepts an empty body and empty categories', () => {
    expect(accepts({})).toBe(true);
    expect(accepts({ businessProfile: {}, checkoutSettings: {}, apiSettings: {}, notifications: {} })).toBe(
      true,
    );
  });

  it('rejects an unknown category, a null or non-object category and an unknown key in each category', () => {
    expect(accepts({ shipping: {} })).toBe(false);
    expect(accepts({ businessProfile: null })).toBe(false);
    expect(accepts({ businessProfile: 'x' })).toBe(false);
    expect(accepts({ apiSettings: [] })).toBe(false);
    for (const category of ['businessProfile', 'checkoutSettings', 'apiSettings', 'notifications']) {
      expect(issuePaths({ [category]: { somethingElse: 'x' } })).toEqual([category]);
    }
  });

  it('accepts null for every known key (null clears it)', () => {
    const cleared = parse({
      businessProfile: {
        displayName: null,
        legalName: null,
        supportEmail: null,
        supportPhone: null,
        websiteUrl: null,
        logoUrl: null,
        locale: null,
        address: null,
        shipFromAddress: null,
      },
      checkoutSettings: {
        currency: null,
        taxIncludedInPrices: null,
        requirePhone: null,
        termsUrl: null,
        privacyPolicyUrl: null,
        refundPolicyUrl: null,
      },
      apiSettings: { publicOrderReadsEnabled: null, allowedOrigins: null },
      notifications: {
        orderNotificationEmail: null,
        notifyOnNewOrder: null,
        notifyOnNewBooking: null,
        notifyOnReturnRequested: null,
        notifyOnLowStock: null,
        lowStockThreshold: null,
      },
    });
    expect(cleared.success).toBe(true);
  });
});

describe('updateSettingsInputSchema: businessProfile', () => {
  it('trims and bounds the text keys and refuses empty strings', () => {
    expect(parse({ businessProfile: { displayName: '  Corner Shop ' } }).data).toEqual({
      businessProfile: { displayName: 'Corner Shop' },
    });
    for (const [name, max] of [
      ['displayName', 200],
      ['legalName', 200],
      ['supportPhone', 50],
    ] as const) {
      expect(accepts({ businessProfile: { [name]: 'x'.repeat(max) } })).toBe(true);
      expect(issuePaths({ businessProfile: { [name]: 'x'.repeat(max + 1) } })).toEqual([
        `businessProfile.${name}`,
      ]);
      expect(accepts({ businessProfile: { [name]: '   ' } })).toBe(false);
      expect(accepts({ businessProfile: { [name]: 42 } })).toBe(false);
    }
  });

  it('needs supportEmail to be an email of at most 320 characters', () => {
    expect(accepts({ businessProfile: { supportEmail: 'help@shop.example' } })).toBe(true);
    for (const bad of [
      'not-an-email',
      'help@',
      '@shop.example',
      'a b@shop.example',
      `${'a'.repeat(310)}@shop.example`,
    ]) {
      expect(issuePaths({ businessProfile: { supportEmail: bad } })).toEqual([
        'businessProfile.supportEmail',
      ]);
    }
  });

  it('needs websiteUrl and logoUrl to be absolute http or https URLs', () => {
    for (const name of ['websiteUrl', 'logoUrl']) {
      expect(accepts({ businessProfile: { [name]: 'https://shop.example/logo.png' } })).toBe(true);
      expect(accepts({ businessProfile: { [name]: 'http://shop.example' } })).toBe(true);
      for (const bad of [
        'ftp://shop.example',
        'javascript:alert(1)',
        'data:image/png;base64,AAAA',
        '/relative/logo.png',
        'shop.example',
        `https://shop.example/${'a'.repeat(2048)}`,
      ]) {
        expect(issuePaths({ businessProfile: { [name]: bad } })).toEqual([`businessProfile.${name}`]);
      }
    }
  });

  it('takes locale as a supported BCP 47 tag, stored canonical, at most 35 characters', () => {
    const locale = (value: unknown) => parse({ businessProfile: { locale: value } });
    expect(locale('de-DE').data).toEqual({ businessProfile: { locale: 'de-DE' } });
    expect(locale(' de-de ').data).toEqual({ businessProfile: { locale: 'de-DE' } });
    expect(locale('fr').data).toEqual({ businessProfile: { locale: 'fr' } });
    expect(locale('zh-hant-tw').data).toEqual({ businessProfile: { locale: 'zh-Hant-TW' } });
    for (const bad of [
      'not a locale',
      'en_US',
      'e',
      '',
      '   ',
      'xx-YY',
      'qqq',
      `en-${'a'.repeat(40)}`,
      'de-DE-'.repeat(8),
      42,
    ]) {
      expect(issuePaths({ businessProfile: { locale: bad } }), String(bad)).toEqual([
        'businessProfile.locale',
      ]);
    }
  });

  it('takes address as a strict object with bounded lines and an uppercase country code', () => {
    const address = { line1: '1 Main St', city: 'Springfield', country: 'US' };
    expect(accepts({ businessProfile: { address } })).toBe(true);
    expect(
      accepts({
        businessProfile: { address: { ...address, line2: 'Unit 4', state: 'IL', postalCode: '62701' } },
      }),
    ).toBe(true);
    expect(accepts({ businessProfile: { address: { city: 'Springfield', country: 'US' } } })).toBe(false);
    expect(accepts({ businessProfile: { address: { ...address, country: 'us' } } })).toBe(false);
    expect(accepts({ businessProfile: { address: { ...address, country: 'USA' } } })).toBe(false);
    expect(accepts({ businessProfile: { address: { ...address, line1: 'x'.repeat(301) } } })).toBe(false);
    expect(accepts({ businessProfile: { address: { ...address, postalCode: 'x'.repeat(33) } } })).toBe(false);
    expect(accepts({ businessProfile: { address: { ...address, county: 'Sangamon' } } })).toBe(false);
  });

  it('takes shipFromAddress with the delivery-destination limits, trimmed, the country upper-cased', () => {
    const from = {
      name: 'Warehouse',
      line1: '1 Dock Rd',
      city: 'Porto',
      postalCode: '4000-001',
      country: 'pt',
    };
    const parsed = parse({
      businessProfile: {
        shipFromAddress: { ...from, name: ' Warehouse ', line2: '  ', company: 'Acme', phone: '+351 1' },
      },
    });
    expect(parsed.success && parsed.data.businessProfile?.shipFromAddress).toEqual({
      name: 'Warehouse',
      company: 'Acme',
      line1: '1 Dock Rd',
      city: 'Porto',
      postalCode: '4000-001',
      country: 'PT',
      phone: '+351 1',
    });
    const cases: [Record<string, unknown>, string][] = [
      [{ line1: 'x'.repeat(301) }, 'line1'],
      [{ line2: 'x'.repeat(301) }, 'line2'],
      [{ city: 'x'.repeat(201) }, 'city'],
      [{ state: 'x'.repeat(201) }, 'state'],
      [{ postalCode: 'x'.repeat(33) }, 'postalCode'],
      [{ postalCode: '   ' }, 'postalCode'],
      [{ country: 'PRT' }, 'country'],
      [{ country: '1A' }, 'country'],
      [{ name: '' }, 'name'],
      [{ phone: 'x'.repeat(51) }, 'phone'],
      [{ county: 'Porto' }, ''],
    ];
    for (const [changes, path] of cases) {
      expect(issuePaths({ businessProfile: { shipFromAddress: { ...from, ...changes } } }), path).toEqual([
        `businessProfile.shipFromAddress${path ? `.${path}` : ''}`,
      ]);
    }
    const { name: _name, ...nameless } = from;
    expect(issuePaths({ businessProfile: { shipFromAddress: nameless } })).toEqual([
      'businessProfile.shipFromAddress.name',
    ]);
  });
});

describe('updateSettingsInputSchema: checkoutSettings', () => {
  it('accepts ISO 4217 currencies known to Intl and nothing else', () => {
    for (const code of ['USD', 'EUR', 'JPY', 'GBP', 'CHF', 'BHD']) {
      expect(accepts({ checkoutSettings: { currency: code } }), code).toBe(true);
    }
    for (const bad of ['usd', 'Usd', 'US', 'USDX', 'ABC', 'ZZZ', '123', '', 840]) {
      expect(issuePaths({ checkoutSettings: { currency: bad } }), String(bad)).toEqual([
        'checkoutSettings.currency',
      ]);
    }
  });

  it('takes booleans as booleans only and policy links as http or https URLs', () => {
    expect(accepts({ checkoutSettings: { taxIncludedInPrices: true, requirePhone: false } })).toBe(true);
    expect(accepts({ checkoutSettings: { taxIncludedInPrices: 'true' } })).toBe(false);
    expect(accepts({ checkoutSettings: { requirePhone: 1 } })).toBe(false);
    for (const name of ['termsUrl', 'privacyPolicyUrl', 'refundPolicyUrl']) {
      expect(accepts({ checkoutSettings: { [name]: 'https://shop.example/policies' } })).toBe(true);
      expect(accepts({ checkoutSettings: { [name]: 'javascript:alert(1)' } })).toBe(false);
    }
  });
  it('takes returnWindowDays as a whole number of days from 0 to 365', () => {
    for (const days of [0, 1, 30, 365]) {
      expect(accepts({ checkoutSettings: { returnWindowDays: days } }), String(days)).toBe(true);
    }
    for (const bad of [-1, 366, 1.5, '30', true]) {
      expect(issuePaths({ checkoutSettings: { returnWindowDays: bad } }), String(bad)).toEqual([
        'checkoutSettings.returnWindowDays',
      ]);
    }
  });
});

describe('updateSettingsInputSchema: apiSettings', () => {
  it('takes publicOrderReadsEnabled as a boolean', () => {
    expect(accepts({ apiSettings: { publicOrderReadsEnabled: true } })).toBe(true);
    expect(accepts({ apiSettings: { publicOrderReadsEnabled: 'yes' } })).toBe(false);
  });

  it('normalises allowedOrigins to serialized origins and drops duplicates', () => {
    expect(
      parse({
        apiSettings: {
          allowedOrigins: [
            'https://Shop.Example.com/',
            'https://shop.example.com',
            'https://shop.example.com:443',
            'http://localhost:5173',
          ],
        },
      }).data,
    ).toEqual({ apiSettings: { allowedOrigins: ['https://shop.example.com', 'http://localhost:5173'] } });
    expect(accepts({ apiSettings: { allowedOrigins: [] } })).toBe(true);
  });

  it('refuses anything that is not an origin, and more than the maximum', () => {
    for (const bad of [
      '*',
      'shop.example.com',
      'https://shop.example.com/path',
      'https://shop.example.com?x=1',
      'https://shop.example.com#top',
      'https://user:pass@shop.example.com',
      'ftp://shop.example.com',
      'null',
      `https://${'a'.repeat(300)}.example`,
    ]) {
      expect(issuePaths({ apiSettings: { allowedOrigins: [bad] } }), bad).toEqual([
        'apiSettings.allowedOrigins.0',
      ]);
    }
    const many = Array.from({ length: MAX_ALLOWED_ORIGINS + 1 }, (_, index) => `https://s${index}.example`);
    expect(accepts({ apiSettings: { allowedOrigins: many.slice(0, MAX_ALLOWED_ORIGINS) } })).toBe(true);
    expect(issuePaths({ apiSettings: { allowedOrigins: many } })).toEqual(['apiSettings.allowedOrigins']);
    expect(accepts({ apiSettings: { allowedOrigins: 'https://shop.example.com' } })).toBe(false);
  });
});

describe('updateSettingsInputSchema: notifications', () => {
  it('needs orderNotificationEmail to be an email', () => {
    expect(accepts({ notifications: { orderNotificationEmail: 'orders@shop.example' } })).toBe(true);
    expect(issuePaths({ notifications: { orderNotificationEmail: 'orders' } })).toEqual([
      'notifications.orderNotificationEmail',
    ]);
  });

  it('takes the switches as booleans and the threshold as an integer from 0 to 1,000,000', () => {
    expect(
      accepts({
        notifications: {
          notifyOnNewOrder: false,
          notifyOnNewBooking: false,
          notifyOnReturnRequested: false,
          notifyOnLowStock: true,
          lowStockThreshold: 0,
        },
      }),
    ).toBe(true);
    expect(accepts({ notifications: { lowStockThreshold: 1_000_000 } })).toBe(true);
    for (const bad of [-1, 1.5, 1_000_001, '5']) {
      expect(issuePaths({ notifications: { lowStockThreshold: bad } })).toEqual([
        'notifications.lowStockThreshold',
      ]);
    }
    expect(accepts({ notifications: { notifyOnLowStock: 'false' } })).toBe(false);
  });
});
