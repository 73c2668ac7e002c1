import { z } from 'zod';

/**
 * The customer's cancel body (CONTRACT-bookings.md 14.17): a pure module, which the hosted
 * app's browser bundle imports too.
 */

/** Reasons (14.23). */
export const MAX_REASON_LENGTH = 500;

export const reasonSchema = z
  .string()
  .trim()
  .max(MAX_REASON_LENGTH)
  .optional()
  .describe('At most 500 characters');

export const cancelRequestInputSchema = z.strictObject({ reason: reasonSchema });
export type CancelRequestInput = z.output<typeof cancelRequestInputSchema>;
