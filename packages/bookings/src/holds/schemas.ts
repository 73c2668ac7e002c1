import { z } from 'zod';
import { instantSchema, MAX_PARTY_SIZE, parseInstant } from '../availability/schemas.ts';
import { deliveryInputSchema, deliveryReadSchema } from '../delivery/schemas.ts';

/** Holds (docs/bookings.md "Holds"). */

export const MAX_HOLD_SELECTIONS = 20;
/** Active holds per tenant and client address, and per tenant and `customerEmail`. */
export const MAX_ACTIVE_HOLDS = 10;

export const createHoldInputSchema = z
  .strictObject({
    serviceId: z.string().min(1).max(64).describe('An `ACTIVE` booking service (`bks_…`)'),
    startsAt: instantSchema,
    endsAt: instantSchema,
    quantity: z
      .number()
      .int()
      .min(1)
      .max(MAX_PARTY_SIZE)
      .describe('The party size, within the service `partySize`'),
    resourceSelections: z
      .array(
        z.strictObject({
          requirementId: z.string().min(1).max(64),
          resourceId: z.string().min(1).max(64),
          quantity: z.number().int().min(1).max(10_000),
        }),
      )
      .max(MAX_HOLD_SELECTIONS)
      .default([])
      .describe(
        'Chosen resources of `OPTIONAL` and `REQUIRED` requirements (at most 20); a `REQUIRED` one needs its own, summing to its units',
      ),
    customerEmail: z.email().max(320),
    delivery: deliveryInputSchema,
  })
  .superRefine((input, ctx) => {
    const startsAt = parseInstant(input.startsAt);
    const endsAt = parseInstant(input.endsAt);
    if (startsAt !== null && endsAt !== null && endsAt <= startsAt) {
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'must be after startsAt' });
    }
  });
export type CreateHoldInput = z.output<typeof createHoldInputSchema>;

export const holdPathInputSchema = z.strictObject({
  id: z.string().min(1).max(64).describe('Hold id (`hld_…`)'),
});

export const holdSchema = z
  .object({
    id: z.string(),
    status: z.enum(['ACTIVE', 'CONVERTED', 'RELEASED', 'EXPIRED']),
    serverTime: z.iso.datetime(),
    expiresAt: z.iso.datetime(),
    expiresInSeconds: z.number().int().min(0),
    serviceId: z.string(),
    timezone: z.string().describe('The service time zone: `startsAt` and `endsAt` carry its offset'),
    startsAt: z.string(),
    endsAt: z.string(),
    quantity: z.number().int(),
    resources: z
      .array(z.object({ requirementId: z.string(), resourceId: z.string(), quantity: z.number().int() }))
      .describe('The resources held for the `OPTIONAL` and `REQUIRED` requirements'),
    delivery: deliveryReadSchema,
    pricing: z
      .object({
        authoritative: z.literal(false),
        currency: z.string(),
        subtotalInCents: z.number().int(),
        deliveryFeeInCents: z.number().int().describe('The frozen delivery fee; 0 for pickup'),
        totalInCents: z.number().int().describe('Subtotal plus the delivery fee, before tax'),
        depositInCents: z
          .number()
          .int()
          .nullable()
          .describe('`DEPOSIT` services: of the total (percent rounded half up, or the amount capped at it)'),
      })
      .nullable(),
  })
  .meta({ id: 'BookingHold' });
export type HoldRead = z.infer<typeof holdSchema>;

export const holdCheckoutSchema = holdSchema
  .extend({
    serviceName: z.string().describe('The service as it is named now'),
    durationMinutes: z.number().int().describe('From `startsAt` to `endsAt`'),
    resources: z
      .array(
        z.object({
          requirementId: z.string(),
          resourceId: z.string(),
          name: z.string(),
          quantity: z.number().int(),
        }),
      )
      .describe('The resources held for the `OPTIONAL` and `REQUIRED` requirements, named'),
    payment: z
      .object({
        paymentMode: z.enum(['PAY_NOW', 'DEPOSIT', 'PAY_LATER']),
        approvalMode: z.enum(['AUTOMATIC', 'MANUAL']),
        currency: z.string(),
        totalInCents: z.number().int().describe('The price in force plus the delivery fee, before tax'),
        dueNowInCents: z
          .number()
          .int()
          .describe(
            'Paid at checkout: the total (`PAY_NOW`), the deposit (`DEPOSIT`) or nothing (`PAY_LATER`)',
          ),
        dueLaterInCents: z.number().int().describe('The balance after what is due now'),
      })
      .nullable()
      .describe(
        'What booking would cost under the service terms in force, before tax (conversion adds it and freezes the amounts); null when the service no longer prices the interval',
      ),
  })
  .meta({ id: 'BookingHoldCheckout' });
export type HoldCheckoutRead = z.infer<typeof holdCheckoutSchema>;
