import { z } from 'zod';

/** Conversion of a hold into a booking (docs/bookings.md "Conversion"). */

const text = (min: number, max: number) => z.string().trim().min(min).max(max);

export const billingAddressSchema = z
  .strictObject({
    line1: text(1, 300),
    line2: text(1, 300).nullable().optional(),
    city: text(1, 200),
    state: text(1, 200).nullable().optional(),
    postalCode: text(1, 32),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, 'must be an uppercase ISO 3166-1 alpha-2 country code, e.g. PT')
      .describe('ISO 3166-1 alpha-2, uppercase'),
  })
  .describe('The address shape: `line1`, `line2?`, `city`, `state?`, `postalCode`, `country`');

export const agreementAcceptanceSchema = z
  .strictObject({
    version: z.number().int().min(1).max(1_000_000).describe('The service agreement’s current `version`'),
    signerName: text(1, 200),
    accepted: z.literal(true),
  })
  .describe('Acceptance of the service agreement: its current `version`, the signer, `accepted: true`');

export const convertHoldInputSchema = z
  .object({
    customerName: text(1, 200),
    customerEmail: z
      .email()
      .max(320)
      .describe('The hold’s `customerEmail` (compared case-insensitively), else `400`'),
    customerPhone: text(1, 50).optional(),
    billingAddress: billingAddressSchema.optional(),
    customerNote: text(1, 2_000).optional(),
    agreement: agreementAcceptanceSchema.optional(),
    delivery: z.never({ error: 'delivery is chosen on the hold, not at conversion' }).optional(),
  })
  .strict();
export type ConvertHoldInput = z.output<typeof convertHoldInputSchema>;

export const convertHoldPathSchema = z.strictObject({
  id: z.string().min(1).max(64).describe('Hold id (`hld_…`)'),
});

export const CONVERSION_FLOWS = ['TERMINAL', 'REQUEST', 'PAYMENT', 'CONFIRMED'] as const;
export type ConversionFlow = (typeof CONVERSION_FLOWS)[number];

export const TERMINAL_REASONS = [
  'HOLD_EXPIRED',
  'HOLD_RELEASED',
  'SERVICE_UNAVAILABLE',
  'CAPACITY_LOST',
  'BOOKING_DECLINED',
  'BOOKING_CANCELLED',
  'BOOKING_EXPIRED',
] as const;
export type TerminalReason = (typeof TERMINAL_REASONS)[number];

export const conversionSchema = z
  .object({
    flow: z.enum(CONVERSION_FLOWS),
    bookingId: z.string().nullable().describe('Null when no booking was made'),
    bookingStatus: z
      .enum(['REQUESTED', 'PENDING_PAYMENT', 'CONFIRMED', 'DECLINED', 'CANCELLED', 'EXPIRED'])
      .nullable(),
    checkoutToken: z
      .string()
      .nullable()
      .describe(
        '`PAYMENT` only: `c1_…` for the `payment-session` step of the checkout bound to the amount due; a credential, shown only here (a replay gets a new one for the same checkout)',
      ),
    paymentExpiresAt: z.iso
      .datetime()
      .nullable()
      .describe('`PAYMENT` only: when the claim and the checkout lapse'),
    amountDueNowInCents: z.number().int(),
    remainingBalanceInCents: z.number().int(),
    totalInCents: z.number().int(),
    currency: z.string(),
    terminalReason: z.enum(TERMINAL_REASONS).nullable().describe('`TERMINAL` only'),
  })
  .meta({ id: 'BookingConversion' });
export type ConversionRead = z.infer<typeof conversionSchema>;
