import { describe, expect, it } from 'vitest';
import {
  availabilityRulesSchema,
  checkServiceRules,
  durationsSchema,
  exceptionsSchema,
  findPricingGaps,
  fixedSlotsSchema,
  instantSchema,
  parseInstant,
  partySizeSchema,
  pricingSchema,
  timezoneSchema,
  weeklyHoursSchema,
} from './schemas.ts';

describe('timezoneSchema', () => {
  it('accepts IANA names known to the runtime and normalises their case', () => {
    expect(timezoneSchema.parse('Europe/Berlin')).toBe('Europe/Berlin');
    expect(timezoneSchema.parse('america/new_york')).toBe('America/New_York');
    expect(timezoneSchema.parse('UTC')).toBe('UTC');
    expect(timezoneSchema.parse('Australia/Lord_Howe')).toBe('Australia/Lord_Howe');
  });

  it('refuses unknown names and bare offsets', () => {
    for (const name of ['Europe/Nowhere', '+01:00', 'GMT+1 ', '', 'Europe/../Berlin']) {
      expect(timezoneSchema.safeParse(name).success, name).toBe(false);
    }
  });
});

describe('instantSchema', () => {
  it('accepts an offset or Z on a whole minute, with or without zero seconds', () => {
    for (const value of [
      '2026-07-01T09:00+01:00',
      '2026-07-01T09:00:00+01:00',
      '2026-07-01T09:00:00.000Z',
      '2026-03-09T12:30:00-04:00',
    ]) {
      expect(instantSchema.safeParse(value).success, value).toBe(true);
    }
    expect(parseInstant('2026-03-09T12:30:00-04:00')).toBe(Date.UTC(2026, 2, 9, 16, 30));
    expect(parseInstant('2026-10-26T09:00+01:00')).toBe(Date.UTC(2026, 9, 26, 8, 0));
  });

  it('refuses instants without an offset, off the minute, or not on the calendar', () => {
    for (const value of [
      '2026-07-01T09:00:00',
      '2026-07-01T09:00:30Z',
      '2026-07-01T09:00:00.500Z',
      '2026-02-30T09:00Z',
      '2026-07-01T24:00Z',
      '2026-07-01T09:00+0100',
      '2026-07-01',
      'yesterday',
      // Outside the years a claim can hold (1970 to 2200): 0000 is no PostgreSQL year, 9999 overflows epoch minutes.
      '0000-01-01T00:00Z',
      '1969-12-31T23:59Z',
      '2201-01-01T00:00Z',
      '9999-12-31T23:00Z',
    ]) {
      expect(instantSchema.safeParse(value).success, value).toBe(false);
    }
  });
});

describe('weeklyHoursSchema', () => {
  it('accepts sorted touching ranges and an end of 24:00; a day not sent is closed', () => {
    const hours = weeklyHoursSchema.parse({
      MON: [
        { start: '09:00', end: '12:00' },
        { start: '12:00', end: '24:00' },
      ],
    });
    expect(hours.MON).toHaveLength(2);
    expect(hours.SUN).toEqual([]);
  });

  it('refuses overlapping, unsorted, empty, too many ranges and unknown days or keys', () => {
    const cases = [
      {
        MON: [
          { start: '09:00', end: '12:00' },
          { start: '11:00', end: '13:00' },
        ],
      },
      {
        MON: [
          { start: '13:00', end: '14:00' },
          { start: '09:00', end: '10:00' },
        ],
      },
      { MON: [{ start: '09:00', end: '09:00' }] },
      { MON: [{ start: '24:00', end: '24:00' }] },
      { MON: [{ start: '09:00', end: '24:30' }] },
      {
        MON: Array.from({ length: 11 }, (_, hour) => ({
          start: `0${hour}:00`.slice(-5),
          end: `0${hour}:30`.slice(-5),
        })),
      },
      { MONDAY: [] },
      { MON: [{ start: '09:00', end: '10:00', label: 'x' }] },
    ];
    for (const value of cases) {
      expect(weeklyHoursSchema.safeParse(value).success, JSON.stringify(value)).toBe(false);
    }
  });
});

describe('exceptionsSchema', () => {
  it('accepts the three kinds', () => {
    const parsed = exceptionsSchema.parse([
      { type: 'CLOSED_DATE', date: '2026-12-25' },
      { type: 'HOURS_DATE', date: '2026-12-24', ranges: [{ start: '09:00', end: '12:00' }] },
      {
        type: 'CLOSED_WINDOW',
        startsAt: '2026-12-31T12:00+01:00',
        endsAt: '2027-01-01T12:00+01:00',
        note: 'NYE',
      },
    ]);
    expect(parsed).toHaveLength(3);
  });

  it('refuses bad dates, backwards windows, a date given hours twice, unknown keys and more than 500', () => {
    const cases = [
      [{ type: 'CLOSED_DATE', date: '2026-02-30' }],
      [{ type: 'CLOSED_WINDOW', startsAt: '2026-12-31T12:00Z', endsAt: '2026-12-31T12:00Z' }],
      [
        { type: 'HOURS_DATE', date: '2026-12-24', ranges: [] },
        { type: 'HOURS_DATE', date: '2026-12-24', ranges: [] },
      ],
      [{ type: 'CLOSED_DATE', date: '2026-12-25', note: 'not here' }],
      [{ type: 'OPEN_DATE', date: '2026-12-25' }],
      Array.from({ length: 501 }, () => ({ type: 'CLOSED_DATE', date: '2026-12-25' })),
    ];
    for (const value of cases) {
      expect(exceptionsSchema.safeParse(value).success).toBe(false);
    }
  });
});

describe('availabilityRulesSchema', () => {
  it('fills the defaults', () => {
    expect(availabilityRulesSchema.parse({})).toMatchObject({
      hoursPolicy: 'WITHIN_HOURS',
      leadTimeMinutes: 0,
      maxAdvanceDays: 365,
      bufferBeforeMinutes: 0,
      bufferAfterMinutes: 0,
      exceptions: [],
    });
  });

  it('keeps the limits of lead time, maximum advance and buffers', () => {
    const valid = {
      leadTimeMinutes: 525_600,
      maxAdvanceDays: 730,
      bufferBeforeMinutes: 1440,
      bufferAfterMinutes: 0,
    };
    expect(availabilityRulesSchema.safeParse(valid).success).toBe(true);
    for (const bad of [
      { leadTimeMinutes: 525_601 },
      { leadTimeMinutes: -1 },
      { maxAdvanceDays: 0 },
      { maxAdvanceDays: 731 },
      { bufferAfterMinutes: 1441 },
      { bufferBeforeMinutes: 1.5 },
      { hoursPolicy: 'ANYTIME' },
      { surprise: true },
    ]) {
      expect(availabilityRulesSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('durations, fixed slots and party size', () => {
  it('needs a grid dividing 1440 and distinct choices, 1 to 20', () => {
    expect(durationsSchema.parse({ choicesMinutes: [60, 120] }).startIntervalMinutes).toBe(30);
    expect(durationsSchema.safeParse({ startIntervalMinutes: 45 }).success).toBe(true);
    expect(durationsSchema.safeParse({ startIntervalMinutes: 7 }).success).toBe(false);
    expect(durationsSchema.safeParse({ choicesMinutes: [60, 60] }).success).toBe(false);
    expect(durationsSchema.safeParse({ choicesMinutes: [] }).success).toBe(false);
    expect(
      durationsSchema.safeParse({ choicesMinutes: Array.from({ length: 21 }, (_, i) => i + 1) }).success,
    ).toBe(false);
    expect(durationsSchema.safeParse({ minMinutes: 120, maxMinutes: 60 }).success).toBe(false);
  });

  it('takes 1 to 100 fixed slots with weekdays and a start time', () => {
    const slot = { weekdays: ['MON', 'SAT'], startTime: '09:00', durationMinutes: 180 };
    expect(fixedSlotsSchema.safeParse([slot]).success).toBe(true);
    expect(fixedSlotsSchema.safeParse([]).success).toBe(false);
    expect(fixedSlotsSchema.safeParse(Array.from({ length: 101 }, () => slot)).success).toBe(false);
    expect(fixedSlotsSchema.safeParse([{ ...slot, startTime: '24:00' }]).success).toBe(false);
    expect(fixedSlotsSchema.safeParse([{ ...slot, weekdays: ['MON', 'MON'] }]).success).toBe(false);
  });

  it('bounds the party size 1 ≤ min ≤ max ≤ 1000', () => {
    expect(partySizeSchema.safeParse({ min: 1, max: 1000 }).success).toBe(true);
    expect(partySizeSchema.safeParse({ min: 0, max: 1 }).success).toBe(false);
    expect(partySizeSchema.safeParse({ min: 3, max: 2 }).success).toBe(false);
    expect(partySizeSchema.safeParse({ min: 1, max: 1001 }).success).toBe(false);
  });
});

describe('pricingSchema', () => {
  it('has one shape per basis with defaults', () => {
    expect(pricingSchema.parse({ basis: 'FLAT', amountInCents: 5000 })).toEqual({
      basis: 'FLAT',
      amountInCents: 5000,
      perParticipant: false,
      minimumInCents: null,
    });
    expect(pricingSchema.safeParse({ basis: 'PER_PERIOD', amountInCents: 8900, period: 'DAY' }).success).toBe(
      true,
    );
    expect(
      pricingSchema.safeParse({
        basis: 'DURATION_TABLE',
        durationPrices: [{ durationMinutes: 60, amountInCents: 1 }],
      }).success,
    ).toBe(true);
  });

  it('refuses a missing period, keys of another basis, negative amounts and repeated durations', () => {
    for (const bad of [
      { basis: 'PER_PERIOD', amountInCents: 100 },
      { basis: 'FLAT', amountInCents: 100, period: 'DAY' },
      { basis: 'FLAT', amountInCents: -1 },
      { basis: 'PER_PERIOD', amountInCents: 100, period: 'MONTH' },
      {
        basis: 'DURATION_TABLE',
        durationPrices: [
          { durationMinutes: 60, amountInCents: 1 },
          { durationMinutes: 60, amountInCents: 2 },
        ],
      },
    ]) {
      expect(pricingSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });
});

describe('checkServiceRules and findPricingGaps', () => {
  it('names the fields a period mode needs', () => {
    expect(
      checkServiceRules({ periodMode: 'FIXED_DURATION', durations: { startIntervalMinutes: 30 } }),
    ).toEqual([{ path: ['durations', 'choicesMinutes'], message: 'is required for FIXED_DURATION' }]);
    expect(checkServiceRules({ periodMode: 'EXACT_RANGE' }).map((issue) => issue.path.join('.'))).toEqual([
      'durations.minMinutes',
      'durations.maxMinutes',
    ]);
    expect(checkServiceRules({ periodMode: 'FIXED_SLOT', fixedSlots: [] })).toHaveLength(1);
    const slot = { weekdays: ['MON' as const], startTime: '09:00', durationMinutes: 60 };
    expect(
      checkServiceRules({
        periodMode: 'FIXED_DURATION',
        durations: { choicesMinutes: [60], startIntervalMinutes: 30 },
        fixedSlots: [slot],
      }),
    ).toEqual([{ path: ['fixedSlots'], message: 'is for FIXED_SLOT services only' }]);
    expect(
      checkServiceRules({
        periodMode: 'EXACT_RANGE',
        durations: { minMinutes: 60, maxMinutes: 120, startIntervalMinutes: 30 },
        pricing: {
          basis: 'DURATION_TABLE',
          durationPrices: [{ durationMinutes: 60, amountInCents: 1 }],
          perParticipant: false,
          minimumInCents: null,
        },
      }),
    ).toHaveLength(1);
  });

  it('finds durations without a price and missing pricing', () => {
    const rules = {
      periodMode: 'FIXED_DURATION' as const,
      durations: { choicesMinutes: [60, 120], startIntervalMinutes: 30 },
      pricing: {
        basis: 'DURATION_TABLE' as const,
        durationPrices: [{ durationMinutes: 60, amountInCents: 100 }],
        perParticipant: false,
        minimumInCents: null,
      },
    };
    expect(findPricingGaps(rules)).toEqual([
      { path: ['pricing', 'durationPrices'], message: 'has no price for 120 minutes' },
    ]);
    expect(findPricingGaps({ ...rules, pricing: null })).toHaveLength(1);
  });
});
