import { AppError } from '@commerce/core';
import { z } from 'zod';

/** Delivery of a booking (docs/bookings.md "Hold delivery"). */

const required = (max: number) => z.string().trim().min(1).max(max);
/** Optional lines: absent, null or blank after trimming are all null. */
const optional = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullable()
    .optional()
    .transform((value) => (value === undefined || value === null || value === '' ? null : value));

/** Upper case, runs of white space as one space: `  sw1a   1aa ` is `SW1A 1AA`. */
export function normalizePostalCode(value: string): string {
  return value.trim().replace(/\s+/g, ' ').toUpperCase();
}

export const destinationAddressSchema = z
  .strictObject({
    line1: required(300),
    line2: optional(300),
    city: required(200),
    state: optional(200),
    postalCode: required(32).transform(normalizePostalCode),
    country: z
      .string()
      .trim()
      .regex(/^[A-Za-z]{2}$/, 'must be an ISO 3166-1 alpha-2 country code, e.g. PT')
      .transform((value) => value.toUpperCase()),
  })
  .describe(
    'Trimmed; `line2` and `state` optional (blank is null); `postalCode` upper-cased with single spaces; `country` upper-cased',
  );
export type DeliveryAddress = z.output<typeof destinationAddressSchema>;

export const deliveryInputSchema = z
  .discriminatedUnion('method', [
    z.strictObject({
      method: z.literal('PICKUP'),
      destinationAddress: z
        .undefined({ error: 'pickup takes no destinationAddress' })
        .optional()
        .describe('Never sent with `PICKUP`'),
    }),
    z.strictObject({ method: z.literal('DELIVERY'), destinationAddress: destinationAddressSchema }),
  ])
  .nullable()
  .optional()
  .describe(
    '`{ method: PICKUP }`, `null` or absent for pickup (services `PICKUP_ONLY` and `OPTIONAL`); `{ method: DELIVERY, destinationAddress }` for delivery (services `OPTIONAL` and `REQUIRED`)',
  );
export type DeliveryInput = z.output<typeof deliveryInputSchema>;

const bandSchema = z.object({ label: z.string(), maxDistanceMeters: z.number().int() });

const addressReadSchema = z.object({
  line1: z.string(),
  line2: z.string().nullable(),
  city: z.string(),
  state: z.string().nullable(),
  postalCode: z.string(),
  country: z.string(),
});

export const deliveryReadSchema = z
  .object({
    method: z.enum(['PICKUP', 'DELIVERY']),
    destinationAddress: addressReadSchema.nullable().describe('The normalized address; null for pickup'),
    distanceMeters: z
      .number()
      .int()
      .min(0)
      .nullable()
      .describe('Null for pickup and for a flat fee (no distance is evaluated)'),
    band: bandSchema
      .nullable()
      .describe('The band the distance fell in (its label is the area); null unless rated'),
    feeInCents: z.number().int().min(0).describe('0 for pickup'),
  })
  .meta({ id: 'BookingDelivery' });
export type DeliveryRead = z.infer<typeof deliveryReadSchema>;

/**
 * What a hold freezes of its delivery for conversion, the booking and
 * reschedules: read back with `parseDeliverySnapshot`, never trusted as is.
 */
export const deliverySnapshotSchema = z
  .strictObject({
    method: z.enum(['PICKUP', 'DELIVERY']),
    address: addressReadSchema.strict().nullable(),
    /** `city, postalCode, country`. */
    addressSummary: z.string().min(1).nullable(),
    distanceMeters: z.number().int().min(0).nullable(),
    band: bandSchema.strict().nullable(),
    /** The band's label. */
    area: z.string().nullable(),
    feeInCents: z.number().int().min(0),
    evaluatedAt: z.iso.datetime(),
  })
  .superRefine((snapshot, ctx) => {
    const isPickup = snapshot.method === 'PICKUP';
    const consistent = isPickup
      ? snapshot.address === null &&
        snapshot.addressSummary === null &&
        snapshot.distanceMeters === null &&
        snapshot.band === null &&
        snapshot.area === null &&
        snapshot.feeInCents === 0
      : snapshot.address !== null &&
        snapshot.addressSummary !== null &&
        // Rated: distance, band and area together; flat: none of them.
        (snapshot.band === null
          ? snapshot.distanceMeters === null && snapshot.area === null
          : snapshot.distanceMeters !== null &&
            snapshot.area === snapshot.band.label &&
            snapshot.distanceMeters <= snapshot.band.maxDistanceMeters);
    if (!consistent) ctx.addIssue({ code: 'custom', message: `inconsistent ${snapshot.method} snapshot` });
  });
export type DeliverySnapshot = z.output<typeof deliverySnapshotSchema>;

/**
 * The delivery a hold froze, from the hold's `snapshot` column. A missing or
 * malformed one is `409 STALE_STATE` with `details.reason`
 * `DELIVERY_SNAPSHOT_INVALID`: conversion must fail closed, never fall back
 * to pickup.
 */
export function parseDeliverySnapshot(holdSnapshot: unknown): DeliverySnapshot {
  const delivery =
    holdSnapshot !== null && typeof holdSnapshot === 'object'
      ? (holdSnapshot as { delivery?: unknown }).delivery
      : undefined;
  const parsed = deliverySnapshotSchema.safeParse(delivery);
  if (!parsed.success) {
    throw new AppError('STALE_STATE', 'The hold’s delivery snapshot is missing or malformed', {
      reason: 'DELIVERY_SNAPSHOT_INVALID',
    });
  }
  return parsed.data;
}

/** The response form of a frozen delivery. */
export function toDeliveryRead(snapshot: DeliverySnapshot): DeliveryRead {
  return {
    method: snapshot.method,
    destinationAddress: snapshot.address,
    distanceMeters: snapshot.distanceMeters,
    band: snapshot.band,
    feeInCents: snapshot.feeInCents,
  };
}
