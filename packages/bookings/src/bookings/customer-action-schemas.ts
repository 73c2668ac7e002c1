import { z } from 'zod';

/**
 * The customer's cancel body: a pure module, which the hosted app's browser
 * bundle imports too.
 */

/** A reason is at most 500 characters. */
export const MAX_REASON_LENGTH = 500;

export const reasonSchema = z
  .string()
  .trim()
  .max(MAX_REASON_LENGTH)
  .optional()
  .describe('At most 500 characters');

export const cancelRequestInputSchema = z.strictObject({ reason: reasonSchema });
export type CancelRequestInput = z.output<typeof cancelRequestInputSchema>;
