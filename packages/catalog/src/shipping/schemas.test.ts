import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, isCountryCode } from './countries.ts';
import {
  countriesSchema,
  countryCodeSchema,
  createShippingRateInputSchema,
  createShippingZoneInputSchema,
  publicShippingRateSchema,
  publicShippingZoneSchema,
  shippingRateSchema,
  shippingZoneSchema,
  updateShippingRateInputSchema,
  updateShippingZoneInputSchema,
} from './schemas.ts';

const accepts = (schema: { safeParse(value: unknown): { success: boolean } }, value: unknown) =>
  schema.safeParse(value).success;

describe('COUNTRY_CODES', () => {
  it('holds the 249 assigned ISO 3166-1 alpha-2 codes, each once, sorted, each one ICU can name', () => {
    expect(COUNTRY_CODES).toHaveLength(249);
    expect(new Set(COUNTRY_CODES).size).toBe(249);
    expect([...COUNTRY_CODES].sort()).toEqual(COUNTRY_CODES);
    const names = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });
    for (const code of COUNTRY_CODES) {
      expect(code).toMatch(/^[A-Z]{2}$/);
      expect(names.of(code), code).toBeTruthy();
    }
  });

  it('leaves out codes that are user-assigned, reserved or withdrawn', () => {
    for (const code of ['XK', 'EU', 'UN', 'ZZ', 'UK', 'AN', 'CS', 'YU', 'EZ', 'QO', 'AA', 'XX']) {
      expect(isCountryCode(code), code).toBe(false);
    }
    for (const code of ['US', 'DE', 'GB', 'JP', 'AX', 'SS', 'BQ', 'CW', 'SX', 'PS', 'TW', 'ZW']) {
      expect(isCountryCode(code), code).toBe(true);
    }
  });
});

describe('countryCodeSchema and countriesSchema', () => {
  it('accepts any case and answers upper case', () => {
    expect(countryCodeSchema.parse('us')).toBe('US');
    expect(countryCodeSchema.parse('De')).toBe('DE');
    expect(countryCodeSchema.parse('GB')).toBe('GB');
  });

  it('refuses unassigned codes and anything that is not two letters', () => {
    for (const bad of ['xk', 'EU', 'ZZ', 'USA', 'U', '', ' us', 'us ', 'U1', '12', 840, null]) {
      expect(accepts(countryCodeSchema, bad), String(bad)).toBe(false);
    }
  });

  it('deduplicates across cases, keeping the first appearance in order, and accepts an empty list', () => {
    expect(countriesSchema.parse(['us', 'DE', 'US', 'de', 'fr'])).toEqual(['US', 'DE', 'FR']);
    expect(countriesSchema.parse([])).toEqual([]);
    expect(countriesSchema.parse([...COUNTRY_CODES])).toEqual(COUNTRY_CODES);
  });

  it('caps the list at 249 entries and names the bad entry', () => {
    expect(accepts(countriesSchema, [...COUNTRY_CODES, 'US'])).toBe(false);
    const result = countriesSchema.safeParse(['US', 'XX']);
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((issue) => issue.path.join('.'))).toEqual(['1']);
  });
});

describe('zone bodies', () => {
  it('trims the name, bounds it to 1 to 200 characters and rejects unknown keys', () => {
    expect(createShippingZoneInputSchema.parse({ name: '  Domestic ', countries: ['us'] })).toEqual({
      name: 'Domestic',
      countries: ['US'],
    });
    expect(accepts(createShippingZoneInputSchema, { name: 'x'.repeat(200), countries: [] })).toBe(true);
    expect(accepts(createShippingZoneInputSchema, { name: 'x'.repeat(201), countries: [] })).toBe(false);
    expect(accepts(createShippingZoneInputSchema, { name: '   ', countries: [] })).toBe(false);
    expect(accepts(createShippingZoneInputSchema, { name: 'EU' })).toBe(false);
    expect(accepts(createShippingZoneInputSchema, { name: 'EU', countries: [], taxRate: 20 })).toBe(false);
    expect(accepts(createShippingZoneInputSchema, { name: 'EU', countries: [], sortOrder: 1.5 })).toBe(false);
    expect(accepts(createShippingZoneInputSchema, { name: 'EU', countries: [], sortOrder: -3 })).toBe(true);
    expect(accepts(createShippingZoneInputSchema, { name: 'EU', countries: 'US' })).toBe(false);
  });

  it('takes every zone field as optional on update, but still validates them', () => {
    expect(updateShippingZoneInputSchema.parse({ id: 'shz_1' })).toEqual({ id: 'shz_1' });
    expect(updateShippingZoneInputSchema.parse({ id: 'shz_1', countries: ['fr', 'FR'] })).toEqual({
      id: 'shz_1',
      countries: ['FR'],
    });
    expect(accepts(updateShippingZoneInputSchema, { id: 'shz_1', countries: ['FX'] })).toBe(false);
    expect(accepts(updateShippingZoneInputSchema, { id: 'shz_1', name: '' })).toBe(false);
    expect(accepts(updateShippingZoneInputSchema, { id: 'shz_1', rates: [] })).toBe(false);
  });
});

describe('rate bodies', () => {
  const rate = { id: 'shz_1', name: 'Standard', priceInCents: 500 };

  it('needs a name and a non-negative integer price; the rest is optional', () => {
    expect(accepts(createShippingRateInputSchema, rate)).toBe(true);
    expect(
      accepts(createShippingRateInputSchema, {
        ...rate,
        minimumSubtotalInCents: 5000,
        estimatedDelivery: '3 to 5 business days',
        sortOrder: 2,
      }),
    ).toBe(true);
    expect(accepts(createShippingRateInputSchema, { ...rate, minimumSubtotalInCents: null })).toBe(true);
    expect(accepts(createShippingRateInputSchema, { ...rate, priceInCents: 0 })).toBe(true);
    for (const bad of [
      { id: 'shz_1', name: 'Standard' },
      { ...rate, priceInCents: -1 },
      { ...rate, priceInCents: 1.5 },
      { ...rate, priceInCents: '500' },
      { ...rate, priceInCents: 2_147_483_648 },
      { ...rate, minimumSubtotalInCents: -1 },
      { ...rate, estimatedDelivery: 'x'.repeat(201) },
      { ...rate, name: 'x'.repeat(201) },
      { ...rate, taxable: true },
      { ...rate, taxInCents: 10 },
    ]) {
      expect(accepts(createShippingRateInputSchema, bad), JSON.stringify(bad)).toBe(false);
    }
  });

  it('lets an update clear the gate and the delivery copy with null, but not the price', () => {
    expect(
      updateShippingRateInputSchema.parse({
        rateId: 'shr_1',
        minimumSubtotalInCents: null,
        estimatedDelivery: null,
      }),
    ).toEqual({ rateId: 'shr_1', minimumSubtotalInCents: null, estimatedDelivery: null });
    expect(accepts(updateShippingRateInputSchema, { rateId: 'shr_1', priceInCents: null })).toBe(false);
    expect(accepts(updateShippingRateInputSchema, { rateId: 'shr_1', name: null })).toBe(false);
  });
});

describe('read schemas', () => {
  it('carry no tax fields', () => {
    for (const schema of [
      shippingZoneSchema,
      shippingRateSchema,
      publicShippingZoneSchema,
      publicShippingRateSchema,
    ]) {
      for (const key of Object.keys(schema.shape)) expect(key.toLowerCase()).not.toContain('tax');
    }
  });
});
