import { cursorSchema, limitSchema } from '@commerce/core';
import { z } from 'zod';
import { instantSchema, parseInstant } from '../availability/schemas.ts';
import { BOOKING_STATUSES, bookingDetailSchema, bookingStatusSchema } from './booking-read.ts';
import { reasonSchema } from './customer-action-schemas.ts';

export {
  type CancelRequestInput,
  cancelRequestInputSchema,
  MAX_REASON_LENGTH,
} from './customer-action-schemas.ts';

/** Customer and guest booking routes (docs/bookings.md "Customer and guest routes"). */

const statusListSchema = z
  .string()
  .max(200)
  .transform((value, ctx) => {
    const statuses = [...new Set(value.split(',').map((entry) => entry.trim()))];
    for (const status of statuses) {
      if (!(BOOKING_STATUSES as readonly string[]).includes(status)) {
        ctx.addIssue({ code: 'custom', message: `must be a comma list of ${BOOKING_STATUSES.join(', ')}` });
        return z.NEVER;
      }
    }
    return statuses as (typeof BOOKING_STATUSES)[number][];
  })
  .describe(`A comma list of ${BOOKING_STATUSES.join(', ')}`);

export const customerBookingListQuerySchema = z.strictObject({
  limit: limitSchema,
  cursor: cursorSchema.optional(),
  status: statusListSchema.optional(),
  timeframe: z
    .enum(['UPCOMING', 'PAST'])
    .optional()
    .describe(
      '`UPCOMING`: ending after now, `startsAt` ascending; `PAST`: ended, `startsAt` descending; absent: all, `startsAt` descending',
    ),
});
export type CustomerBookingListQuery = z.output<typeof customerBookingListQuerySchema>;

export const rescheduleRequestInputSchema = z
  .strictObject({
    startsAt: instantSchema,
    endsAt: instantSchema.describe(
      'The booked duration after `startsAt`: a booking of whole local days keeps its wall times, any other its elapsed minutes',
    ),
    reason: reasonSchema,
  })
  .superRefine((input, ctx) => {
    const startsAt = parseInstant(input.startsAt);
    const endsAt = parseInstant(input.endsAt);
    if (startsAt !== null && endsAt !== null && endsAt <= startsAt) {
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'must be after startsAt' });
    }
  });
export type RescheduleRequestInput = z.output<typeof rescheduleRequestInputSchema>;

export const customerBookingIdInputSchema = z.strictObject({
  id: z.string().max(64).describe('Booking id (`bkg_…`)'),
});

export const guestTokenInputSchema = z.strictObject({
  token: z.string().max(100).describe('The `m1_` management token of the booking’s emails'),
});

export const customerActionResultSchema = z
  .object({
    outcome: z
      .enum(['APPLIED', 'REQUESTED'])
      .describe('`APPLIED`: done at once; `REQUESTED`: a `PENDING` change request awaits the merchant'),
    booking: bookingDetailSchema,
  })
  .meta({ id: 'CustomerBookingActionResult' });
export type CustomerActionResult = z.output<typeof customerActionResultSchema>;

/** One booking of the customer's list: the detail's summary fields, in one query for the page. */
export const customerBookingSummarySchema = z
  .object({
    id: z.string(),
    code: z.string(),
    status: bookingStatusSchema,
    service: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
    timezone: z.string(),
    startsAt: z.string(),
    endsAt: z.string(),
    quantity: z.number().int(),
    price: z.object({ currency: z.string(), totalInCents: z.number().int() }),
    actions: bookingDetailSchema.shape.actions,
    hasPendingChangeRequest: z.boolean(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'CustomerBookingSummary' });
export type CustomerBookingSummary = z.output<typeof customerBookingSummarySchema>;
