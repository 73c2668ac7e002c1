import { describe, expect, it } from 'vitest';
import {
  cardBrand,
  cardDigits,
  caretAfterDigits,
  formatCardNumber,
  formatExpiry,
  normalizeExpiry,
} from './card.ts';

describe('cardBrand', () => {
  it.each([
    ['4242 4242 4242 4242', 'Visa'],
    ['5555 5555 5555 4444', 'Mastercard'],
    ['2223 0031 2200 3222', 'Mastercard'],
    ['3782 822463 10005', 'American Express'],
    ['3400', 'American Express'],
    ['6011 1111 1111 1117', 'Discover'],
    ['6445', 'Discover'],
    ['3056 930902 5904', 'Diners Club'],
    ['3566 0020 2036 0505', 'JCB'],
    ['6200 0000 0000 0005', 'UnionPay'],
  ] as const)('names %s as %s', (typed, brand) => {
    expect(cardBrand(typed)).toBe(brand);
  });

  it('names no brand before the prefix tells one, or for an unknown prefix', () => {
    expect(cardBrand('')).toBeUndefined();
    expect(cardBrand('2')).toBeUndefined();
    expect(cardBrand('222')).toBeUndefined();
    expect(cardBrand('2721')).toBeUndefined();
    expect(cardBrand('1234 5678')).toBeUndefined();
  });
});

describe('formatCardNumber', () => {
  it('groups digits as the card prints them and caps them at the brand length', () => {
    expect(formatCardNumber('4242424242424242')).toBe('4242 4242 4242 4242');
    expect(formatCardNumber('424242')).toBe('4242 42');
    expect(formatCardNumber('378282246310005')).toBe('3782 822463 10005');
    expect(formatCardNumber('3782822463100059999')).toBe('3782 822463 10005');
    expect(formatCardNumber('30569309025904')).toBe('3056 930902 5904');
    expect(formatCardNumber('4242-4242 4242x4242 4242 999')).toBe('4242 4242 4242 4242 424');
    expect(formatCardNumber('')).toBe('');
  });

  it('sends digits only', () => {
    expect(cardDigits('4242 4242-4242 4242')).toBe('4242424242424242');
  });
});

describe('formatExpiry', () => {
  it('adds the slash once the month is complete', () => {
    expect(formatExpiry('1')).toBe('1');
    expect(formatExpiry('12')).toBe('12/');
    expect(formatExpiry('4')).toBe('04/');
    expect(formatExpiry('1229')).toBe('12/29');
    expect(formatExpiry('1/29')).toBe('01/29');
    expect(formatExpiry('12/2029')).toBe('12/2029');
    expect(formatExpiry('')).toBe('');
  });

  it('does not put a deleted slash back', () => {
    expect(formatExpiry('12/', true)).toBe('12');
    expect(formatExpiry('12', true)).toBe('12');
    expect(formatExpiry('4', true)).toBe('4');
  });
});

describe('normalizeExpiry', () => {
  it('reads the ways an expiry is typed as MM/YY, and leaves anything else as typed', () => {
    for (const typed of ['1229', '12/29', '12 29', '12-29', '12/2029', ' 12/29 ']) {
      expect(normalizeExpiry(typed)).toBe('12/29');
    }
    expect(normalizeExpiry('1/29')).toBe('01/29');
    expect(normalizeExpiry('12/2')).toBe('12/2');
    expect(normalizeExpiry('soon')).toBe('soon');
  });
});

describe('caretAfterDigits', () => {
  it('keeps the caret after the same digits, past a separator that follows', () => {
    expect(caretAfterDigits('4242 4242', 4)).toBe(5);
    expect(caretAfterDigits('4242 4242', 5)).toBe(6);
    expect(caretAfterDigits('12/29', 2)).toBe(3);
    expect(caretAfterDigits('4242', 9)).toBe(4);
    expect(caretAfterDigits('4242', 0)).toBe(0);
  });
});
