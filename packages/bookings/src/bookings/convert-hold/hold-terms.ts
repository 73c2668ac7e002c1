import { AppError } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Selectable } from 'kysely';
import { z } from 'zod';
import { type DeliverySnapshot, parseDeliverySnapshot } from '../../delivery/schemas.ts';

/**
 * What a conversion reads of the hold and its service: the hold's frozen
 * snapshot, the service's stored checkout and agreement terms, each read back
 * defensively (a row that does not parse ends the hold, never a guess).
 */

export type HoldRow = Selectable<Database['booking_holds']>;
export type ServiceRow = Selectable<Database['booking_services']>;

/** What a hold froze (holds.ts), read back defensively. */
export const holdSnapshotSchema = z
  .object({
    timezone: z.string().min(1),
    allocations: z
      .array(
        z
          .object({
            requirementId: z.string().min(1),
            resourceId: z.string().min(1),
            quantity: z.number().int().min(1),
            selection: z.enum(['AUTO', 'OPTIONAL', 'REQUIRED']),
          })
          .loose(),
      )
      .min(1),
    claim: z.object({ startMinute: z.number().int(), endMinute: z.number().int() }),
  })
  .loose();
export type HoldSnapshot = z.output<typeof holdSnapshotSchema>;

export const storedCheckoutSchema = z
  .object({
    approvalMode: z.enum(['AUTOMATIC', 'MANUAL']).catch('AUTOMATIC'),
    paymentMode: z.enum(['PAY_NOW', 'DEPOSIT', 'PAY_LATER']),
    deposit: z.union([z.object({ percent: z.number() }), z.object({ amountInCents: z.number() })]).nullish(),
    paymentWindowMinutes: z.number().int().min(1).catch(30),
    requestExpiryHours: z.number().int().min(1).catch(72),
  })
  .loose();
export type StoredCheckout = z.output<typeof storedCheckoutSchema>;

export const storedAgreementSchema = z.object({ title: z.string(), bodyText: z.string() }).loose().nullable();

export type ConversionDeliverySnapshot = DeliverySnapshot;

/** The service's delivery mode as stored (`PICKUP_ONLY` when it says none). */
export function deliveryModeOf(service: Pick<ServiceRow, 'delivery'>): string {
  const mode = z.object({ mode: z.string() }).loose().safeParse(service.delivery);
  return mode.success ? mode.data.mode : 'PICKUP_ONLY';
}

/**
 * The hold's frozen delivery, read with `parseDeliverySnapshot`: a missing or
 * malformed one is 409 STALE_STATE (`DELIVERY_SNAPSHOT_INVALID`), never a
 * fallback to pickup; a `REQUIRED` service needs a delivery. Pickup is null
 * on the booking.
 */
export function holdDelivery(snapshot: unknown, deliveryMode: string): ConversionDeliverySnapshot | null {
  const parsed = parseDeliverySnapshot(snapshot);
  if (deliveryMode === 'REQUIRED' && parsed.method !== 'DELIVERY') {
    throw new AppError('STALE_STATE', 'The hold’s delivery snapshot is missing or malformed', {
      reason: 'DELIVERY_SNAPSHOT_INVALID',
    });
  }
  return parsed.method === 'PICKUP' ? null : parsed;
}
