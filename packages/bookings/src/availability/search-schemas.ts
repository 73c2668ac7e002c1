import { z } from 'zod';
import { addLocalDays } from '../time/zone.ts';
import {
  instantSchema,
  MAX_DURATION_MINUTES,
  MAX_PARTY_SIZE,
  parseInstant,
  timezoneSchema,
} from './schemas.ts';

/** The search range: 31 calendar days in the request timezone. */
export const MAX_SEARCH_DAYS = 31;
export const MAX_SLOTS = 1_000;
export const MAX_RESOURCE_OPTIONS = 20_000;

/** `POST /public/booking-availability/search`; the service-dependent rules are `validateSearch`'s. */
export const availabilitySearchRequestSchema = z
  .strictObject({
    serviceId: z
      .string()
      .min(1)
      .max(64)
      .optional()
      .describe('Booking service id (`bks_…`); or `serviceSlug`'),
    serviceSlug: z.string().min(1).max(100).optional().describe('Booking service slug; or `serviceId`'),
    startsAt: instantSchema.describe('Candidates starting at or after this instant'),
    endsAt: instantSchema.describe(
      'Candidates starting before this instant; at most 31 calendar days after `startsAt` in `timezone`',
    ),
    timezone: timezoneSchema.describe('IANA zone of the response offsets and of the 31-day limit'),
    quantity: z
      .number()
      .int()
      .min(1)
      .max(MAX_PARTY_SIZE)
      .describe('Party size, within the service `partySize`'),
    durationMinutes: z
      .number()
      .int()
      .min(1)
      .max(MAX_DURATION_MINUTES)
      .optional()
      .describe(
        'FIXED_SLOT: absent. FIXED_DURATION: a choice, required when several. EXACT_RANGE: within min and max, on the grid; absent, the window itself is tested',
      ),
    selection: z
      .strictObject({
        requirementId: z.string().min(1).max(64),
        resourceId: z.string().min(1).max(64),
        quantity: z.number().int().min(1).max(10_000),
      })
      .optional()
      .describe('Only slots where this resource has these units free'),
    limit: z
      .number()
      .int()
      .min(1)
      .max(MAX_SLOTS)
      .optional()
      .describe(
        'At most this many slots (1 to 1,000; absent: 1,000). With `limit`, the answer also has `nextStartsAt`: the next page is the same search from there',
      ),
  })
  .superRefine((request, ctx) => {
    if ((request.serviceId === undefined) === (request.serviceSlug === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['serviceId'],
        message: 'send exactly one of serviceId and serviceSlug',
      });
    }
    const startsAt = parseInstant(request.startsAt);
    const endsAt = parseInstant(request.endsAt);
    if (startsAt === null || endsAt === null) return;
    if (endsAt <= startsAt) {
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'must be after startsAt' });
      return;
    }
    const limit = addLocalDays(request.timezone, startsAt / 60_000, MAX_SEARCH_DAYS) * 60_000;
    if (endsAt > limit) {
      ctx.addIssue({
        code: 'custom',
        path: ['endsAt'],
        message: `must be at most ${MAX_SEARCH_DAYS} calendar days after startsAt in timezone`,
      });
    }
  });
export type AvailabilitySearchRequest = z.output<typeof availabilitySearchRequestSchema>;

export const slotPricingSchema = z
  .object({
    authoritative: z.literal(false),
    currency: z.string(),
    subtotalInCents: z.number().int(),
    depositInCents: z.number().int().nullable().describe('The deposit of `DEPOSIT` services; null otherwise'),
  })
  .describe('A preview without delivery or tax; conversion freezes the price');

export const resourceOptionSchema = z.object({
  requirementId: z.string(),
  resourceId: z.string(),
  available: z.number().int().describe('Free units of this resource over the slot, buffers included'),
});

export const availabilitySlotSchema = z
  .object({
    startsAt: z.string().describe('ISO 8601 with the request timezone offset'),
    endsAt: z.string(),
    pricing: slotPricingSchema,
    resourceOptions: z
      .array(resourceOptionSchema)
      .describe('Resources with enough free units, for OPTIONAL and REQUIRED requirements'),
  })
  .meta({ id: 'BookingAvailabilitySlot' });
export type AvailabilitySlot = z.output<typeof availabilitySlotSchema>;

export const availabilitySearchResultSchema = z
  .object({
    serviceId: z.string(),
    slots: z.array(availabilitySlotSchema).describe('Sorted by startsAt; at most 1,000'),
    truncated: z
      .boolean()
      .describe('More slots exist than 1,000 slots or 20,000 resourceOptions allow: narrow the window'),
    nextStartsAt: z
      .string()
      .nullable()
      .optional()
      .describe(
        'Only when the request set `limit`: the start of the first slot left out (`truncated`), else null. Search again with it as `startsAt` for the next page',
      ),
  })
  .meta({ id: 'BookingAvailabilitySearchResult' });
