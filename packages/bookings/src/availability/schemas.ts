import { z } from 'zod';

/**
 * The rule-shaped fields of a booking service (period mode, durations, fixed
 * slots, availability, party size, pricing) with their limits. Every object
 * is strict: an unknown key is a 400. Rules that join several fields (a period mode and its
 * durations, a duration table and the durations it prices) are in
 * `checkServiceRules`, because a PATCH replaces top-level keys one by one and
 * the merged service must be checked again.
 */

export const WEEKDAYS = ['MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT', 'SUN'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

export const PERIOD_MODES = ['EXACT_RANGE', 'FIXED_DURATION', 'FIXED_SLOT'] as const;
export type PeriodMode = (typeof PERIOD_MODES)[number];

export const HOURS_POLICIES = ['WITHIN_HOURS', 'HANDOVER_WITHIN_HOURS'] as const;
export type HoursPolicy = (typeof HOURS_POLICIES)[number];

export const PRICING_BASES = ['FLAT', 'PER_PERIOD', 'DURATION_TABLE'] as const;
export const PRICING_PERIODS = ['HOUR', 'DAY', 'WEEK'] as const;
export type PricingPeriod = (typeof PRICING_PERIODS)[number];

export const MINUTES_PER_DAY = 1_440;
export const MAX_RANGES_PER_DAY = 10;
export const MAX_EXCEPTIONS = 500;
export const MAX_EXCEPTION_NOTE_LENGTH = 500;
export const MAX_LEAD_TIME_MINUTES = 525_600;
export const MAX_ADVANCE_DAYS = 730;
export const DEFAULT_MAX_ADVANCE_DAYS = 365;
export const MAX_BUFFER_MINUTES = 1_440;
export const MAX_DURATION_CHOICES = 20;
export const MAX_FIXED_SLOTS = 100;
export const MAX_PARTY_SIZE = 1_000;
export const DEFAULT_START_INTERVAL_MINUTES = 30;
/** The longest bookable duration: one year of minutes, the same bound as the lead time. */
export const MAX_DURATION_MINUTES = 525_600;
/** Amounts are stored as int4. */
export const MAX_AMOUNT_IN_CENTS = 2_147_483_647;

const TIME_ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/**
 * The runtime's canonical spelling of an IANA zone name, or null when its zone
 * data does not know it. Case is normalised (`america/new_york`), aliases are
 * kept as sent (`Asia/Calcutta`); offsets such as `+01:00` are not zone names.
 */
export function canonicalTimeZone(name: string): string | null {
  if (!TIME_ZONE_NAME.test(name)) return null;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  return resolved.toLowerCase() === name.toLowerCase() ? resolved : name;
}

export const timezoneSchema = z
  .string()
  .min(1)
  .max(64)
  .transform((name, ctx) => {
    const canonical = canonicalTimeZone(name);
    if (canonical === null) {
      ctx.addIssue({ code: 'custom', message: 'must be an IANA time zone name, e.g. Europe/Berlin' });
      return z.NEVER;
    }
    return canonical;
  })
  .describe('IANA time zone name, e.g. `Europe/Berlin`');

const INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(Z|([+-])(\d{2}):(\d{2}))$/;

/** The years an instant may name: from the epoch to 2200. */
export const MIN_YEAR = 1970;
export const MAX_YEAR = 2200;

/**
 * Epoch milliseconds of an ISO 8601 instant with an offset on a whole minute,
 * or null when it is not one: no offset, a second or fraction other
 * than zero, or a date that does not exist.
 */
export function parseInstant(value: string): number | null {
  const match = INSTANT.exec(value);
  if (!match) return null;
  const [, y, mo, d, h, mi, s, fraction, zone, sign, offH, offM] = match;
  if ((s !== undefined && s !== '00') || (fraction !== undefined && !/^0+$/.test(fraction))) return null;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  // Years the claims' tstzrange and integer epoch minutes hold; a merchant's `ignoreRules` skips the
  // maximum-advance rule that otherwise bounds them.
  if (year < MIN_YEAR || year > MAX_YEAR) return null;
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59) return null;
  if (day > new Date(Date.UTC(year, month, 0)).getUTCDate()) return null;
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const hours = Number(offH);
    const minutes = Number(offM);
    if (hours > 23 || minutes > 59) return null;
    offsetMinutes = (sign === '-' ? -1 : 1) * (hours * 60 + minutes);
  }
  const utc = new Date(0);
  utc.setUTCFullYear(year, month - 1, day);
  utc.setUTCHours(hour, minute, 0, 0);
  return utc.getTime() - offsetMinutes * 60_000;
}

export const instantSchema = z
  .string()
  .max(40)
  .refine((value) => parseInstant(value) !== null, {
    message: 'must be an ISO 8601 date-time with an offset on a whole minute, e.g. 2026-07-01T09:00:00+01:00',
  })
  .describe(
    'ISO 8601 date-time with an offset (`Z` or `±HH:MM`), on a whole minute, in the years 1970 to 2200',
  );

/** Minutes since local midnight of "HH:MM", or null. `24:00` only where `allowEndOfDay`. */
export function parseLocalTime(value: string, allowEndOfDay = false): number | null {
  const match = /^(\d{2}):(\d{2})$/.exec(value);
  if (!match) return null;
  const hours = Number(match[1]);
  const minutes = Number(match[2]);
  if (allowEndOfDay && hours === 24 && minutes === 0) return MINUTES_PER_DAY;
  if (hours > 23 || minutes > 59) return null;
  return hours * 60 + minutes;
}

export const localTimeSchema = z
  .string()
  .refine((value) => parseLocalTime(value) !== null, {
    message: 'must be a local time "HH:MM", 00:00 to 23:59',
  })
  .describe('Local wall time "HH:MM"');

const rangeEndSchema = z
  .string()
  .refine((value) => parseLocalTime(value, true) !== null, {
    message: 'must be a local time "HH:MM", 00:01 to 24:00',
  })
  .describe('Local wall time "HH:MM"; `24:00` is the end of the day and joins a range at 00:00 the next day');

export const hoursRangeSchema = z
  .strictObject({ start: localTimeSchema, end: rangeEndSchema })
  .superRefine((range, ctx) => {
    const start = parseLocalTime(range.start);
    const end = parseLocalTime(range.end, true);
    if (start !== null && end !== null && end <= start) {
      ctx.addIssue({ code: 'custom', path: ['end'], message: 'must be after start' });
    }
  });
export type HoursRange = z.output<typeof hoursRangeSchema>;

/** Sorted, non-overlapping (touching is fine), at most 10. */
const dayRangesSchema = z
  .array(hoursRangeSchema)
  .max(MAX_RANGES_PER_DAY, `must have at most ${MAX_RANGES_PER_DAY} ranges a day`)
  .superRefine((ranges, ctx) => {
    for (let index = 1; index < ranges.length; index++) {
      const previousEnd = parseLocalTime(ranges[index - 1]?.end ?? '', true);
      const start = parseLocalTime(ranges[index]?.start ?? '');
      if (previousEnd !== null && start !== null && start < previousEnd) {
        ctx.addIssue({
          code: 'custom',
          path: [index, 'start'],
          message: 'ranges must be sorted by start and must not overlap',
        });
      }
    }
  })
  .describe('Open ranges of one day, sorted by start, not overlapping, at most 10');

export const weeklyHoursSchema = z
  .strictObject({
    MON: dayRangesSchema.default([]),
    TUE: dayRangesSchema.default([]),
    WED: dayRangesSchema.default([]),
    THU: dayRangesSchema.default([]),
    FRI: dayRangesSchema.default([]),
    SAT: dayRangesSchema.default([]),
    SUN: dayRangesSchema.default([]),
  })
  .describe('Open ranges per weekday, read in the service timezone; a day not sent is closed');
export type WeeklyHours = z.output<typeof weeklyHoursSchema>;

/** Whether "YYYY-MM-DD" names a date of the proleptic Gregorian calendar. */
export function isLocalDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1) return false;
  return day <= new Date(Date.UTC(Number(match[1]), month, 0)).getUTCDate();
}

export const localDateSchema = z
  .string()
  .refine(isLocalDate, { message: 'must be a date "YYYY-MM-DD"' })
  .describe('Local date "YYYY-MM-DD" in the service timezone');

const closedDateSchema = z.strictObject({ type: z.literal('CLOSED_DATE'), date: localDateSchema });
const hoursDateSchema = z.strictObject({
  type: z.literal('HOURS_DATE'),
  date: localDateSchema,
  ranges: dayRangesSchema.describe('Replacement hours of that date; empty closes it'),
});
const closedWindowSchema = z
  .strictObject({
    type: z.literal('CLOSED_WINDOW'),
    startsAt: instantSchema,
    endsAt: instantSchema,
    note: z.string().max(MAX_EXCEPTION_NOTE_LENGTH).optional().describe('Merchant note, never public'),
  })
  .superRefine((window, ctx) => {
    const startsAt = parseInstant(window.startsAt);
    const endsAt = parseInstant(window.endsAt);
    if (startsAt !== null && endsAt !== null && endsAt <= startsAt) {
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'must be after startsAt' });
    }
  });

export const availabilityExceptionSchema = z.discriminatedUnion('type', [
  closedDateSchema,
  hoursDateSchema,
  closedWindowSchema,
]);
export type AvailabilityException = z.output<typeof availabilityExceptionSchema>;

export const exceptionsSchema = z
  .array(availabilityExceptionSchema)
  .max(MAX_EXCEPTIONS, `must have at most ${MAX_EXCEPTIONS} exceptions`)
  .superRefine((exceptions, ctx) => {
    const hoursDates = new Set<string>();
    exceptions.forEach((exception, index) => {
      if (exception.type !== 'HOURS_DATE') return;
      if (hoursDates.has(exception.date)) {
        ctx.addIssue({ code: 'custom', path: [index, 'date'], message: 'has HOURS_DATE twice' });
      }
      hoursDates.add(exception.date);
    });
  })
  .describe(
    'At most 500: `CLOSED_DATE` closes a local date, `HOURS_DATE` replaces its hours, `CLOSED_WINDOW` closes an absolute interval',
  );

export const hoursPolicySchema = z
  .enum(HOURS_POLICIES)
  .describe(
    '`WITHIN_HOURS`: the whole interval in open time; `HANDOVER_WITHIN_HOURS`: only its start and end',
  );

const bufferSchema = z.number().int().min(0).max(MAX_BUFFER_MINUTES);

export const availabilityRulesSchema = z.strictObject({
  weeklyHours: weeklyHoursSchema.default({ MON: [], TUE: [], WED: [], THU: [], FRI: [], SAT: [], SUN: [] }),
  exceptions: exceptionsSchema.default([]),
  hoursPolicy: hoursPolicySchema.default('WITHIN_HOURS'),
  leadTimeMinutes: z
    .number()
    .int()
    .min(0)
    .max(MAX_LEAD_TIME_MINUTES)
    .default(0)
    .describe('A slot starts at or after now + this, and after now; 0 to 525,600'),
  maxAdvanceDays: z
    .number()
    .int()
    .min(1)
    .max(MAX_ADVANCE_DAYS)
    .default(DEFAULT_MAX_ADVANCE_DAYS)
    .describe('A slot starts before now + this many days; 1 to 730'),
  bufferBeforeMinutes: bufferSchema
    .default(0)
    .describe('Turnaround claimed before every booking; 0 to 1,440'),
  bufferAfterMinutes: bufferSchema.default(0).describe('Turnaround claimed after every booking; 0 to 1,440'),
});
export type AvailabilityRules = z.output<typeof availabilityRulesSchema>;

export const periodModeSchema = z
  .enum(PERIOD_MODES)
  .describe(
    '`FIXED_SLOT`, `FIXED_DURATION` (a start and a duration choice) or `EXACT_RANGE` (any start and end)',
  );

const durationMinutesSchema = z.number().int().min(1).max(MAX_DURATION_MINUTES);

export const durationsSchema = z
  .strictObject({
    choicesMinutes: z
      .array(durationMinutesSchema)
      .min(1)
      .max(MAX_DURATION_CHOICES)
      .refine((choices) => new Set(choices).size === choices.length, { message: 'must not repeat a choice' })
      .optional()
      .describe('FIXED_DURATION: 1 to 20 distinct choices in minutes'),
    minMinutes: durationMinutesSchema.optional().describe('EXACT_RANGE: shortest duration'),
    maxMinutes: durationMinutesSchema.optional().describe('EXACT_RANGE: longest duration'),
    startIntervalMinutes: z
      .number()
      .int()
      .min(1)
      .max(MINUTES_PER_DAY)
      .refine((minutes) => MINUTES_PER_DAY % minutes === 0, { message: 'must divide 1440' })
      .default(DEFAULT_START_INTERVAL_MINUTES)
      .describe('Grid of starts (and EXACT_RANGE ends) from local midnight; divides 1,440; default 30'),
  })
  .superRefine((durations, ctx) => {
    if (
      durations.minMinutes !== undefined &&
      durations.maxMinutes !== undefined &&
      durations.minMinutes > durations.maxMinutes
    ) {
      ctx.addIssue({ code: 'custom', path: ['maxMinutes'], message: 'must be at least minMinutes' });
    }
  });
export type Durations = z.output<typeof durationsSchema>;

export const fixedSlotSchema = z.strictObject({
  weekdays: z
    .array(z.enum(WEEKDAYS))
    .min(1)
    .max(7)
    .refine((days) => new Set(days).size === days.length, { message: 'must not repeat a weekday' }),
  startTime: localTimeSchema,
  durationMinutes: durationMinutesSchema,
});
export type FixedSlot = z.output<typeof fixedSlotSchema>;

export const fixedSlotsSchema = z
  .array(fixedSlotSchema)
  .min(1)
  .max(MAX_FIXED_SLOTS)
  .describe('FIXED_SLOT only: 1 to 100 slots, each on its weekdays at its local start time');

export const partySizeSchema = z
  .strictObject({
    min: z.number().int().min(1).max(MAX_PARTY_SIZE),
    max: z.number().int().min(1).max(MAX_PARTY_SIZE),
  })
  .refine((size) => size.min <= size.max, { path: ['max'], message: 'must be at least min' })
  .describe('The `quantity` of searches and holds: 1 ≤ min ≤ max ≤ 1,000');
export type PartySize = z.output<typeof partySizeSchema>;
export const DEFAULT_PARTY_SIZE: PartySize = { min: 1, max: 1 };

const amountInCentsSchema = z.number().int().min(0).max(MAX_AMOUNT_IN_CENTS);
const pricingCommon = {
  perParticipant: z.boolean().default(false).describe('Times `quantity`'),
  minimumInCents: amountInCentsSchema
    .nullable()
    .default(null)
    .describe('Floor of the subtotal; null for none'),
};

export const pricingSchema = z
  .discriminatedUnion('basis', [
    z.strictObject({
      basis: z.literal('FLAT'),
      amountInCents: amountInCentsSchema.describe('Per booking'),
      ...pricingCommon,
    }),
    z.strictObject({
      basis: z.literal('PER_PERIOD'),
      amountInCents: amountInCentsSchema.describe('Per started period'),
      period: z
        .enum(PRICING_PERIODS)
        .describe('`HOUR` (60 elapsed minutes), `DAY` or `WEEK` (local calendar days)'),
      ...pricingCommon,
    }),
    z.strictObject({
      basis: z.literal('DURATION_TABLE'),
      durationPrices: z
        .array(z.strictObject({ durationMinutes: durationMinutesSchema, amountInCents: amountInCentsSchema }))
        .min(1)
        .max(MAX_DURATION_CHOICES + MAX_FIXED_SLOTS)
        .refine((prices) => new Set(prices.map((price) => price.durationMinutes)).size === prices.length, {
          message: 'must not price a duration twice',
        })
        .describe('A price for every duration choice and slot duration'),
      ...pricingCommon,
    }),
  ])
  .describe('Configured pricing; every price before conversion is a preview, `authoritative: false`');
export type Pricing = z.output<typeof pricingSchema>;

/** The rule-shaped fields together, as a service stores them. */
export interface ServiceRules {
  periodMode: PeriodMode;
  timezone: string;
  durations?: Durations | null | undefined;
  fixedSlots?: FixedSlot[] | null | undefined;
  availability: AvailabilityRules;
  partySize: PartySize;
  pricing?: Pricing | null | undefined;
}

export interface RuleIssue {
  path: (string | number)[];
  message: string;
}

/**
 * The rules that join fields, as issues with their paths: FIXED_DURATION needs
 * `durations.choicesMinutes`, EXACT_RANGE `minMinutes` and `maxMinutes`,
 * FIXED_SLOT `fixedSlots` (and only it may have them); a duration table prices
 * fixed durations only. Completeness (hours, a price for every duration) is the
 * activation check's, not this one's: a draft may be incomplete.
 */
export function checkServiceRules(
  rules: Omit<ServiceRules, 'timezone' | 'availability' | 'partySize'>,
): RuleIssue[] {
  const issues: RuleIssue[] = [];
  const durations = rules.durations ?? undefined;
  if (rules.periodMode === 'FIXED_DURATION' && !durations?.choicesMinutes) {
    issues.push({ path: ['durations', 'choicesMinutes'], message: 'is required for FIXED_DURATION' });
  }
  if (rules.periodMode === 'EXACT_RANGE') {
    if (durations?.minMinutes === undefined) {
      issues.push({ path: ['durations', 'minMinutes'], message: 'is required for EXACT_RANGE' });
    }
    if (durations?.maxMinutes === undefined) {
      issues.push({ path: ['durations', 'maxMinutes'], message: 'is required for EXACT_RANGE' });
    }
    if (rules.pricing?.basis === 'DURATION_TABLE') {
      issues.push({
        path: ['pricing', 'basis'],
        message: 'DURATION_TABLE is for FIXED_DURATION and FIXED_SLOT services',
      });
    }
  }
  if (rules.periodMode === 'FIXED_SLOT' && !rules.fixedSlots?.length) {
    issues.push({ path: ['fixedSlots'], message: 'is required for FIXED_SLOT' });
  }
  if (rules.periodMode !== 'FIXED_SLOT' && rules.fixedSlots?.length) {
    issues.push({ path: ['fixedSlots'], message: 'is for FIXED_SLOT services only' });
  }
  return issues;
}

/** The durations a service sells: its choices, or its fixed slots' durations. */
export function fixedDurationsOf(
  rules: Pick<ServiceRules, 'periodMode' | 'durations' | 'fixedSlots'>,
): number[] {
  if (rules.periodMode === 'FIXED_DURATION') return [...(rules.durations?.choicesMinutes ?? [])];
  if (rules.periodMode === 'FIXED_SLOT') {
    return [...new Set((rules.fixedSlots ?? []).map((slot) => slot.durationMinutes))];
  }
  return [];
}

/**
 * Pricing gaps for the activation check (an active service needs
 * complete pricing): none set, or a duration table missing a price for a
 * choice or slot duration.
 */
export function findPricingGaps(
  rules: Pick<ServiceRules, 'periodMode' | 'durations' | 'fixedSlots' | 'pricing'>,
): RuleIssue[] {
  if (!rules.pricing) return [{ path: ['pricing'], message: 'is required to activate' }];
  if (rules.pricing.basis !== 'DURATION_TABLE') return [];
  const priced = new Set(rules.pricing.durationPrices.map((price) => price.durationMinutes));
  return fixedDurationsOf(rules)
    .filter((minutes) => !priced.has(minutes))
    .map((minutes) => ({
      path: ['pricing', 'durationPrices'],
      message: `has no price for ${minutes} minutes`,
    }));
}

/** Adds the issues of `checkServiceRules` to a zod refinement context. */
export function refineServiceRules(
  rules: Omit<ServiceRules, 'timezone' | 'availability' | 'partySize'>,
  ctx: z.RefinementCtx,
): void {
  for (const issue of checkServiceRules(rules)) {
    ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  }
}
