import { describe, expect, it } from 'vitest';
import { at } from '../../test/availability.ts';
import type { Pricing } from '../availability/schemas.ts';
import { type CheckoutTerms, depositFor, priceBooking } from './price.ts';

const payNow: CheckoutTerms = { paymentMode: 'PAY_NOW' };
const common = { perParticipant: false, minimumInCents: null };

function subtotal(pricing: Pricing, start: string, end: string, quantity = 1, timeZone = 'Europe/Berlin') {
  return priceBooking({
    pricing,
    checkout: payNow,
    currency: 'EUR',
    timeZone,
    startsAt: at(start),
    endsAt: at(end),
    quantity,
  })?.subtotalInCents;
}

describe('priceBooking', () => {
  const hourly: Pricing = { basis: 'PER_PERIOD', amountInCents: 1000, period: 'HOUR', ...common };
  const daily: Pricing = { basis: 'PER_PERIOD', amountInCents: 8900, period: 'DAY', ...common };
  const weekly: Pricing = { basis: 'PER_PERIOD', amountInCents: 50_000, period: 'WEEK', ...common };

  it.each([
    ['61 minutes at HOUR are 2 hours', hourly, '2026-06-01T10:00Z', '2026-06-01T11:01Z', 2000],
    ['60 minutes at HOUR are 1 hour', hourly, '2026-06-01T10:00Z', '2026-06-01T11:00Z', 1000],
    // Across the start of summer time, 01:00 to 04:00 local is 2 elapsed hours.
    ['HOUR counts elapsed time', hourly, '2026-03-29T01:00+01:00', '2026-03-29T04:00+02:00', 2000],
    [
      'Friday 10:00 to Monday 09:00 local are 3 days',
      daily,
      '2026-06-05T10:00+02:00',
      '2026-06-08T09:00+02:00',
      26_700,
    ],
    [
      'the camper van across the end of summer time',
      daily,
      '2026-10-23T10:00+02:00',
      '2026-10-26T09:00+01:00',
      26_700,
    ],
    ['a 25-hour local day is 1 day', daily, '2026-10-24T10:00+02:00', '2026-10-25T10:00+01:00', 8900],
    ['a minute past a local day is 2', daily, '2026-10-24T10:00+02:00', '2026-10-25T10:01+01:00', 17_800],
    ['8 days are 2 started weeks', weekly, '2026-06-01T10:00+02:00', '2026-06-09T10:00+02:00', 100_000],
    ['7 days are 1 week', weekly, '2026-06-01T10:00+02:00', '2026-06-08T10:00+02:00', 50_000],
    [
      'FLAT is per booking',
      { basis: 'FLAT', amountInCents: 4200, ...common },
      '2026-06-01T10:00Z',
      '2026-06-03T10:00Z',
      4200,
    ],
  ] as const)('%s', (_name, pricing, start, end, expected) => {
    expect(subtotal(pricing, start, end)).toBe(expected);
  });

  it('multiplies by the party size when perParticipant, then applies the minimum', () => {
    const perHead: Pricing = {
      basis: 'FLAT',
      amountInCents: 4500,
      perParticipant: true,
      minimumInCents: 10_000,
    };
    expect(subtotal(perHead, '2026-06-01T10:00Z', '2026-06-01T11:00Z', 4)).toBe(18_000);
    expect(subtotal(perHead, '2026-06-01T10:00Z', '2026-06-01T11:00Z', 2)).toBe(10_000);
    const perPeriodPerHead: Pricing = { ...hourly, perParticipant: true };
    expect(subtotal(perPeriodPerHead, '2026-06-01T10:00Z', '2026-06-01T12:30Z', 3)).toBe(9000);
  });

  it('DURATION_TABLE prices each duration, whole days as local days, and nothing else', () => {
    const table: Pricing = {
      basis: 'DURATION_TABLE',
      durationPrices: [
        { durationMinutes: 60, amountInCents: 3000 },
        { durationMinutes: 120, amountInCents: 5000 },
        { durationMinutes: 1440, amountInCents: 20_000 },
      ],
      ...common,
    };
    expect(subtotal(table, '2026-06-01T10:00Z', '2026-06-01T11:00Z')).toBe(3000);
    expect(subtotal(table, '2026-06-01T10:00Z', '2026-06-01T12:00Z')).toBe(5000);
    expect(subtotal(table, '2026-10-24T10:00+02:00', '2026-10-25T10:00+01:00')).toBe(20_000);
    expect(subtotal(table, '2026-06-01T10:00Z', '2026-06-01T11:30Z')).toBeUndefined();
  });
});

describe('deposits', () => {
  it('is a percent of the total rounded half up, or a fixed amount capped at the total', () => {
    expect(depositFor(1005, { percent: 10 })).toBe(101);
    expect(depositFor(1004, { percent: 10 })).toBe(100);
    expect(depositFor(1, { percent: 50 })).toBe(1);
    expect(depositFor(0, { percent: 100 })).toBe(0);
    expect(depositFor(26_700, { amountInCents: 5000 })).toBe(5000);
    expect(depositFor(3000, { amountInCents: 5000 })).toBe(3000);
  });

  it('comes with DEPOSIT services only', () => {
    const input = {
      pricing: { basis: 'FLAT', amountInCents: 2345, ...common } as Pricing,
      currency: 'USD',
      timeZone: 'UTC',
      startsAt: at('2026-06-01T10:00Z'),
      endsAt: at('2026-06-01T11:00Z'),
      quantity: 1,
    };
    expect(
      priceBooking({ ...input, checkout: { paymentMode: 'DEPOSIT', deposit: { percent: 25 } } }),
    ).toEqual({
      authoritative: false,
      currency: 'USD',
      subtotalInCents: 2345,
      depositInCents: 586,
    });
    expect(priceBooking({ ...input, checkout: { paymentMode: 'PAY_LATER' } })?.depositInCents).toBeNull();
    expect(priceBooking({ ...input, checkout: payNow })?.depositInCents).toBeNull();
  });

  it('takes a hold’s delivery fee into the total the deposit is a percent of', () => {
    const input = {
      pricing: { basis: 'FLAT', amountInCents: 2345, ...common } as Pricing,
      currency: 'USD',
      timeZone: 'UTC',
      startsAt: at('2026-06-01T10:00Z'),
      endsAt: at('2026-06-01T11:00Z'),
      quantity: 1,
      deliveryFeeInCents: 655,
    };
    expect(
      priceBooking({ ...input, checkout: { paymentMode: 'DEPOSIT', deposit: { percent: 25 } } }),
    ).toEqual({
      authoritative: false,
      currency: 'USD',
      subtotalInCents: 2345,
      deliveryFeeInCents: 655,
      totalInCents: 3000,
      depositInCents: 750,
    });
    expect(
      priceBooking({ ...input, checkout: { paymentMode: 'DEPOSIT', deposit: { amountInCents: 5000 } } })
        ?.depositInCents,
    ).toBe(3000);
    expect(priceBooking({ ...input, deliveryFeeInCents: 0, checkout: payNow })).toMatchObject({
      deliveryFeeInCents: 0,
      totalInCents: 2345,
      depositInCents: null,
    });
  });
});
