import { z } from 'zod';
import { instantSchema, parseInstant } from '../availability/schemas.ts';

/**
 * The customer's booking change bodies (CONTRACT-bookings.md 14.17): a pure module, which the hosted
 * app's browser bundle imports too.
 */

/** Reasons (14.23). */
export const MAX_REASON_LENGTH = 500;

const reasonSchema = z.string().trim().max(MAX_REASON_LENGTH).optional().describe('At most 500 characters');

export const cancelRequestInputSchema = z.strictObject({ reason: reasonSchema });
export type CancelRequestInput = z.output<typeof cancelRequestInputSchema>;

export const rescheduleRequestInputSchema = z
  .strictObject({
    startsAt: instantSchema,
    endsAt: instantSchema.describe(
      'The booked duration after `startsAt` (14.5): a booking of whole local days keeps its wall times, any other its elapsed minutes',
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
