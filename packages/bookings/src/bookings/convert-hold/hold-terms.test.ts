import { AppError } from '@commerce/core';
import { describe, expect, it } from 'vitest';
import { deliveryModeOf, holdDelivery } from './hold-terms.ts';

const pickup = {
  method: 'PICKUP',
  address: null,
  addressSummary: null,
  distanceMeters: null,
  band: null,
  area: null,
  feeInCents: 0,
  evaluatedAt: '2026-06-01T08:00:00.000Z',
};

describe('holdDelivery', () => {
  it('is null for a pickup the service allows', () => {
    expect(holdDelivery({ delivery: pickup }, 'OPTIONAL')).toBeNull();
    expect(holdDelivery({ delivery: pickup }, 'PICKUP_ONLY')).toBeNull();
  });

  it('refuses a pickup where delivery is required, and a missing snapshot, as STALE_STATE', () => {
    for (const [snapshot, mode] of [
      [{ delivery: pickup }, 'REQUIRED'],
      [{}, 'PICKUP_ONLY'],
    ] as const) {
      const error = (() => {
        try {
          holdDelivery(snapshot, mode);
        } catch (caught) {
          return caught;
        }
      })();
      expect(error).toBeInstanceOf(AppError);
      expect(error).toMatchObject({ code: 'STALE_STATE', details: { reason: 'DELIVERY_SNAPSHOT_INVALID' } });
    }
  });
});

describe('deliveryModeOf', () => {
  it('reads the stored mode, else pickup only', () => {
    expect(deliveryModeOf({ delivery: { mode: 'REQUIRED', bands: [] } })).toBe('REQUIRED');
    expect(deliveryModeOf({ delivery: {} })).toBe('PICKUP_ONLY');
  });
});
