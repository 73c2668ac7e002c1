import type { BookingRequirement } from '../src/availability/assign.ts';
import type { ClaimArrays } from '../src/availability/capacity.ts';
import type { BookableService } from '../src/availability/rules.ts';
import { availabilityRulesSchema } from '../src/availability/schemas.ts';

/** Epoch minutes of an ISO 8601 instant. */
export function at(iso: string): number {
  return Date.parse(iso) / 60_000;
}

type ServiceOverrides = Partial<Omit<BookableService, 'availability'>> & {
  availability?: Record<string, unknown>;
};

/** A bookable service with the schema defaults, one room of capacity 1, priced 1,000 per booking. */
export function bookableService(overrides: ServiceOverrides = {}): BookableService {
  const { availability, ...rest } = overrides;
  return {
    periodMode: 'FIXED_DURATION',
    timezone: 'UTC',
    durations: { choicesMinutes: [60], startIntervalMinutes: 30 },
    fixedSlots: null,
    partySize: { min: 1, max: 10 },
    requirements: [requirement('room', ['room-a'])],
    pricing: { basis: 'FLAT', amountInCents: 1000, perParticipant: false, minimumInCents: null },
    checkout: { paymentMode: 'PAY_NOW' },
    currency: 'EUR',
    ...rest,
    availability: availabilityRulesSchema.parse(availability ?? {}),
  };
}

export function requirement(
  id: string,
  resourceIds: string[],
  options: Partial<Omit<BookingRequirement, 'id' | 'resourceIds'>> = {},
): BookingRequirement {
  return {
    id,
    resourceIds,
    units: { mode: 'PER_BOOKING', count: 1 },
    selection: 'AUTO',
    allowSplit: false,
    ...options,
  };
}

/** Claims of one resource from `[startsAt, endsAt, quantity]` in ISO 8601. */
export function claims(capacity: number, rows: [string, string, number][] = []): ClaimArrays {
  return {
    capacity,
    startMinutes: rows.map((row) => at(row[0])),
    endMinutes: rows.map((row) => at(row[1])),
    quantities: rows.map((row) => row[2]),
  };
}

export const EVERY_DAY_ALL_DAY = Object.fromEntries(
  ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'].map((day) => [day, [{ start: '00:00', end: '24:00' }]]),
);
