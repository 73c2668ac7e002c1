import { booleanQuerySchema, cursorSchema, limitSchema } from '@commerce/core';
import { z } from 'zod';
import { instantSchema, MAX_PARTY_SIZE, parseInstant } from '../availability/schemas.ts';
import { deliveryInputSchema } from '../delivery/schemas.ts';
import { BOOKING_STATUSES, bookingStatusSchema } from './booking-read.ts';

/** The most users a booking is assigned to. */
export const MAX_ASSIGNEES = 20;

/** Inputs and list shapes of the merchant booking routes. */

const id = (describe: string) => z.string().min(1).max(64).describe(describe);
const reasonSchema = z.string().trim().min(1).max(500).describe('At most 500 characters');

export const resourceSelectionsSchema = z
  .array(
    z.strictObject({
      requirementId: z.string().min(1).max(64),
      resourceId: z.string().min(1).max(64),
      quantity: z.number().int().min(1).max(10_000),
    }),
  )
  .max(20)
  .describe(
    "Chosen resources per requirement (at most 20), as for holds; requirements without one keep the booking's resources or are assigned automatically",
  );

function intervalRefinement(input: { startsAt: string; endsAt: string }, ctx: z.RefinementCtx) {
  const startsAt = parseInstant(input.startsAt);
  const endsAt = parseInstant(input.endsAt);
  if (startsAt !== null && endsAt !== null && endsAt <= startsAt) {
    ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'must be after startsAt' });
  }
}

export const bookingIdInputSchema = z.strictObject({ id: id('Booking id (`bkg_…`)') });

export const createMerchantBookingInputSchema = z
  .strictObject({
    serviceId: id('The booking service (`bks_…`), `ACTIVE` or `DRAFT`'),
    startsAt: instantSchema,
    endsAt: instantSchema,
    quantity: z.number().int().min(1).max(MAX_PARTY_SIZE).describe("The party size, within the service's"),
    resourceSelections: resourceSelectionsSchema.optional(),
    customer: z.strictObject({
      name: z.string().trim().min(1).max(200),
      email: z.email().max(320),
      phone: z.string().trim().min(1).max(50).nullish(),
    }),
    delivery: deliveryInputSchema.describe(
      "As for holds: `{ method: PICKUP }`, `null` or absent for pickup (services `PICKUP_ONLY` and `OPTIONAL`); `{ method: DELIVERY, destinationAddress }` for delivery (services `OPTIONAL` and `REQUIRED`), rated against the service's delivery settings whatever `ignoreRules`; the snapshot and fee are frozen on the booking",
    ),
    ignoreRules: z
      .boolean()
      .default(false)
      .describe('Skip hours, closures, lead time and maximum advance; never capacity nor delivery'),
  })
  .superRefine(intervalRefinement);
export type CreateMerchantBookingInput = z.output<typeof createMerchantBookingInputSchema>;

export const approveBookingInputSchema = z.strictObject({
  id: id('Booking id (`bkg_…`)'),
  resourceSelections: resourceSelectionsSchema.optional(),
  note: reasonSchema.optional().describe('A note to the customer, also kept in history; at most 500'),
});

export const decideBookingInputSchema = z.strictObject({
  id: id('Booking id (`bkg_…`)'),
  reason: reasonSchema.optional(),
  notifyCustomer: z.boolean().default(true).describe('Email the customer (default true)'),
});

export const rescheduleBookingInputSchema = z
  .strictObject({
    id: id('Booking id (`bkg_…`)'),
    startsAt: instantSchema,
    endsAt: instantSchema,
    resourceSelections: resourceSelectionsSchema.optional(),
    ignoreRules: z.boolean().default(false),
    notifyCustomer: z.boolean().default(true),
  })
  .superRefine(intervalRefinement);

export const changeRequestActionInputSchema = z.strictObject({
  id: id('Booking id (`bkg_…`)'),
  changeRequestId: id('Change request id (`bcr_…`)'),
});
export const declineChangeRequestInputSchema = changeRequestActionInputSchema.extend({
  reason: reasonSchema.optional(),
});

export const assigneesInputSchema = z.strictObject({
  id: id('Booking id (`bkg_…`)'),
  userIds: z
    .array(z.string().min(1).max(64))
    .max(MAX_ASSIGNEES)
    .describe('At most 20 user ids of active members; replaces the list'),
});

const statusListSchema = z
  .string()
  .max(200)
  .transform((value, ctx) => {
    const statuses = value
      .split(',')
      .map((status) => status.trim())
      .filter((status) => status.length > 0);
    for (const status of statuses) {
      if (!(BOOKING_STATUSES as readonly string[]).includes(status)) {
        ctx.addIssue({ code: 'custom', message: `unknown status ${status}` });
        return z.NEVER;
      }
    }
    return [...new Set(statuses)] as z.infer<typeof bookingStatusSchema>[];
  })
  .describe('Comma list of statuses');

export const merchantBookingListQuerySchema = z
  .strictObject({
    status: statusListSchema.optional(),
    serviceId: id('Only bookings of this service').optional(),
    resourceId: id('Only bookings given this resource').optional(),
    customerEmail: z.string().max(320).optional().describe('Exact, case-insensitive'),
    from: instantSchema
      .optional()
      .describe('With `to`: bookings overlapping `[from, to)`; alone: ending after it'),
    to: instantSchema.optional().describe('Bookings starting before it'),
    groupRef: z
      .string()
      .max(64)
      .optional()
      .describe('A group `publicRef` or id: matches nothing until booking groups exist'),
    hasPendingChangeRequest: booleanQuerySchema.optional(),
    order: z.enum(['asc', 'desc']).default('asc').describe('By `startsAt`, then `id`'),
    limit: limitSchema,
    cursor: cursorSchema.optional(),
  })
  .superRefine((query, ctx) => {
    if (query.from !== undefined && query.to !== undefined) {
      const from = parseInstant(query.from);
      const to = parseInstant(query.to);
      if (from !== null && to !== null && to <= from) {
        ctx.addIssue({ code: 'custom', path: ['to'], message: 'must be after from' });
      }
    }
  });
export type MerchantBookingListQuery = z.output<typeof merchantBookingListQuerySchema>;

export const merchantBookingSummarySchema = z
  .object({
    id: z.string(),
    code: z.string(),
    status: bookingStatusSchema,
    service: z.object({ id: z.string(), name: z.string() }),
    timezone: z.string(),
    startsAt: z.string(),
    endsAt: z.string(),
    quantity: z.number().int(),
    customer: z.object({ name: z.string(), email: z.string(), phone: z.string().nullable() }),
    totalInCents: z.number().int(),
    currency: z.string(),
    assigneeUserIds: z.array(z.string()),
    hasPendingChangeRequest: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'MerchantBookingSummary' });
export type MerchantBookingSummary = z.infer<typeof merchantBookingSummarySchema>;
