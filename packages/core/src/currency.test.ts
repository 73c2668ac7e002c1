import { describe, expect, it } from 'vitest';
import { currencyExponent, formatMoney } from './currency.ts';

describe('currencyExponent', () => {
  it.each([
    ['USD', 2],
    ['EUR', 2],
    ['JPY', 0],
    ['KRW', 0],
    ['ISK', 0],
    ['KWD', 3],
    ['BHD', 3],
    ['CLF', 4],
    // ISO 4217 says 2 where the runtime's CLDR data formats without decimals.
    ['HUF', 2],
    ['IDR', 2],
  ])('%s has %i', (currency, exponent) => {
    expect(currencyExponent(currency)).toBe(exponent);
  });

  it('refuses a code that is not three upper-case letters', () => {
    expect(() => currencyExponent('usd')).toThrow(TypeError);
    expect(() => currencyExponent('US')).toThrow(TypeError);
  });
});

describe('formatMoney', () => {
  it.each([
    [12_800, 'USD', '$128.00'],
    [1_280, 'JPY', '¥1,280'],
    [12_345, 'KWD', 'KWD\u00a012.345'],
    [14_690, 'BHD', 'BHD\u00a014.690'],
    [123_450, 'HUF', 'HUF\u00a01,234.50'],
    [500, 'ISK', 'ISK\u00a0500'],
  ])('formats %i %s as %s', (amount, currency, formatted) => {
    expect(formatMoney(amount, currency)).toBe(formatted);
  });
});
