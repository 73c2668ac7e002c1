import { AppError } from '@commerce/core';
import { describe, expect, it } from 'vitest';
import { bookingOfFlow, flowOf, freezeAmounts } from './conversion-amounts.ts';
import type { ConversionDeliverySnapshot, StoredCheckout } from './hold-terms.ts';

const hold = {
  starts_at: new Date('2026-06-01T10:00:00Z'),
  ends_at: new Date('2026-06-01T12:00:00Z'),
  quantity: 2,
};
const snapshot = { timezone: 'Europe/Berlin' };
const flat = { pricing: { basis: 'FLAT', amountInCents: 5000, perParticipant: true, minimumInCents: null } };
const terms = (over: Partial<StoredCheckout> = {}): StoredCheckout => ({
  approvalMode: 'AUTOMATIC',
  paymentMode: 'PAY_NOW',
  paymentWindowMinutes: 30,
  requestExpiryHours: 72,
  ...over,
});
const delivery = { feeInCents: 700 } as ConversionDeliverySnapshot;

describe('freezeAmounts', () => {
  it('prices the hold at the pricing in force, plus its delivery fee; PAY_NOW is due in full', () => {
    expect(freezeAmounts(flat, hold, snapshot, delivery, terms(), 'EUR')).toEqual({
      currency: 'EUR',
      subtotalInCents: 10_000,
      deliveryFeeInCents: 700,
      taxInCents: 0,
      totalInCents: 10_700,
      amountDueNowInCents: 10_700,
    });
  });

  it('takes a deposit of the total, and nothing now when paid later', () => {
    const deposit = terms({ paymentMode: 'DEPOSIT', deposit: { percent: 20 } });
    expect(freezeAmounts(flat, hold, snapshot, null, deposit, 'EUR')?.amountDueNowInCents).toBe(2000);
    const later = terms({ paymentMode: 'PAY_LATER' });
    expect(freezeAmounts(flat, hold, snapshot, null, later, 'EUR')?.amountDueNowInCents).toBe(0);
  });

  it('adds a quoted tax unless it is included, and refuses a quote of another price', () => {
    const tax = { subtotalInCents: 10_000, deliveryFeeInCents: 0, taxInCents: 1900, included: false };
    expect(freezeAmounts(flat, hold, snapshot, null, terms(), 'EUR', tax)).toMatchObject({
      taxInCents: 1900,
      totalInCents: 11_900,
    });
    const included = { ...tax, included: true };
    expect(freezeAmounts(flat, hold, snapshot, null, terms(), 'EUR', included)?.totalInCents).toBe(10_000);
    expect(() => freezeAmounts(flat, hold, snapshot, delivery, terms(), 'EUR', tax)).toThrow(AppError);
  });

  it('is free without pricing, and null when the stored pricing no longer parses', () => {
    expect(freezeAmounts({ pricing: null }, hold, snapshot, null, terms(), 'EUR')?.totalInCents).toBe(0);
    expect(freezeAmounts({ pricing: { basis: 'NONE' } }, hold, snapshot, null, terms(), 'EUR')).toBeNull();
  });
});

describe('flowOf', () => {
  const paid = { totalInCents: 1000, amountDueNowInCents: 1000 };
  const free = { totalInCents: 0, amountDueNowInCents: 0 };

  it.each([
    ['a manual approval is a request', terms({ approvalMode: 'MANUAL' }), free, 'REQUEST'],
    ['pay later with something to pay is a request', terms({ paymentMode: 'PAY_LATER' }), paid, 'REQUEST'],
    ['pay later with nothing to pay is confirmed', terms({ paymentMode: 'PAY_LATER' }), free, 'CONFIRMED'],
    ['something due now is a payment', terms(), paid, 'PAYMENT'],
    ['nothing due now is confirmed', terms(), free, 'CONFIRMED'],
  ] as const)('%s', (_name, checkout, amounts, flow) => {
    expect(flowOf(checkout, amounts)).toBe(flow);
  });
});

describe('bookingOfFlow', () => {
  const at = new Date('2026-06-01T08:00:00Z');
  const farStart = new Date('2026-06-10T10:00:00Z');

  it('gives a payment its window and a request its expiry, each never after the start', () => {
    expect(bookingOfFlow('PAYMENT', terms(), at, farStart)).toEqual({
      status: 'PENDING_PAYMENT',
      paymentExpiresAt: new Date('2026-06-01T08:30:00Z'),
      requestExpiresAt: null,
    });
    expect(bookingOfFlow('REQUEST', terms(), at, farStart)).toEqual({
      status: 'REQUESTED',
      paymentExpiresAt: null,
      requestExpiresAt: new Date('2026-06-04T08:00:00Z'),
    });
    const soon = new Date('2026-06-01T08:10:00Z');
    expect(bookingOfFlow('PAYMENT', terms(), at, soon).paymentExpiresAt).toEqual(soon);
    expect(bookingOfFlow('REQUEST', terms(), at, soon).requestExpiresAt).toEqual(soon);
  });

  it('confirms with no deadline', () => {
    expect(bookingOfFlow('CONFIRMED', terms(), at, farStart)).toEqual({
      status: 'CONFIRMED',
      paymentExpiresAt: null,
      requestExpiresAt: null,
    });
  });
});
