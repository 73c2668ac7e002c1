import { booleanQuerySchema, cursorSchema, limitSchema } from '@commerce/core/schemas';
import type { AuditActor } from '@commerce/db';
import { z } from 'zod';
import { COUNTRY_CODES, isCountryCode } from './countries.ts';

/** Who changes shipping, in which organization, and when. */
export interface ShippingWriteContext {
  organizationId: string;
  actor: AuditActor;
  at: Date;
}

/** The range of the `integer` columns behind sort orders and amounts. */
const INT32_MAX = 2_147_483_647;
const INT32_MIN = -2_147_483_648;

const nameSchema = z.string().trim().min(1).max(200).describe('1 to 200 characters, trimmed');

const sortOrderSchema = z
  .number()
  .int()
  .min(INT32_MIN)
  .max(INT32_MAX)
  .describe('Lower comes first; ties are ordered by name. Default 0');

const centsSchema = z.number().int().min(0).max(INT32_MAX);

export const countryCodeSchema = z
  .string()
  .regex(/^[A-Za-z]{2}$/, { message: 'must be an ISO 3166-1 alpha-2 country code, e.g. US', abort: true })
  .transform((code) => code.toUpperCase())
  .refine(isCountryCode, 'must be an assigned ISO 3166-1 alpha-2 country code, e.g. US');

const COUNTRIES_NOTE = `ISO 3166-1 alpha-2 codes, at most ${COUNTRY_CODES.length}. Lower case is accepted and stored upper case; a repeated code is kept once, in the order of its first appearance. May be empty while the zone is being configured`;

export const countriesSchema = z
  .array(countryCodeSchema)
  .max(COUNTRY_CODES.length)
  .transform((codes) => [...new Set(codes)]);

const zoneIdSchema = z.string().min(1).max(64).describe('Shipping zone id (`shz_…`)');
const rateIdSchema = z.string().min(1).max(64).describe('Shipping rate id (`shr_…`)');

export const createShippingZoneInputSchema = z
  .strictObject({
    name: nameSchema,
    countries: countriesSchema.describe(COUNTRIES_NOTE),
    sortOrder: sortOrderSchema.optional(),
  })
  .meta({ id: 'ShippingZoneCreate' });
export type CreateShippingZoneInput = z.output<typeof createShippingZoneInputSchema>;

export const shippingZoneChangesSchema = z.strictObject({
  name: nameSchema.optional(),
  countries: countriesSchema.optional().describe(`Replaces the whole list. ${COUNTRIES_NOTE}`),
  sortOrder: sortOrderSchema.optional(),
});
export type ShippingZoneChanges = z.output<typeof shippingZoneChangesSchema>;

/** The PATCH input: the path's `id` beside the body's changes (an empty body changes nothing). */
export const updateShippingZoneInputSchema = shippingZoneChangesSchema.extend({ id: zoneIdSchema });

/** Archive and restore: the path's id, and no body keys. */
export const shippingZoneIdInputSchema = z.strictObject({ id: zoneIdSchema });
/** The detail read: the path's id (query parameters it does not know are ignored). */
export const shippingZoneReadInputSchema = z.object({ id: zoneIdSchema });

const estimatedDeliverySchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe('Checkout copy such as "3 to 5 business days"; at most 200 characters');

const minimumSubtotalSchema = centsSchema.describe(
  'The rate applies only from this cart subtotal on (e.g. free shipping above it); null for no gate',
);

export const shippingRateFieldsSchema = z.strictObject({
  name: nameSchema,
  priceInCents: centsSchema.describe('The flat fee per shipment, in cents'),
  minimumSubtotalInCents: minimumSubtotalSchema.nullable().optional(),
  estimatedDelivery: estimatedDeliverySchema.nullable().optional(),
  sortOrder: sortOrderSchema.optional(),
});

/** The POST input: the path's zone `id` beside the rate body. */
export const createShippingRateInputSchema = shippingRateFieldsSchema.extend({ id: zoneIdSchema });
export type CreateShippingRateInput = z.output<typeof shippingRateFieldsSchema>;

export const shippingRateChangesSchema = z.strictObject({
  name: nameSchema.optional(),
  priceInCents: centsSchema.optional(),
  minimumSubtotalInCents: minimumSubtotalSchema.nullable().optional().describe('`null` removes the gate'),
  estimatedDelivery: estimatedDeliverySchema.nullable().optional().describe('`null` clears it'),
  sortOrder: sortOrderSchema.optional(),
});
export type ShippingRateChanges = z.output<typeof shippingRateChangesSchema>;

export const updateShippingRateInputSchema = shippingRateChangesSchema.extend({ rateId: rateIdSchema });

export const shippingRateIdInputSchema = z.strictObject({ rateId: rateIdSchema });
export const shippingRateReadInputSchema = z.object({ rateId: rateIdSchema });

export const shippingRateSchema = z
  .object({
    id: z.string(),
    zoneId: z.string(),
    name: z.string(),
    priceInCents: z.number().int(),
    minimumSubtotalInCents: z.number().int().nullable(),
    estimatedDelivery: z.string().nullable(),
    sortOrder: z.number().int(),
    archivedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'ShippingRate' });
export type ShippingRateRead = z.infer<typeof shippingRateSchema>;

export const shippingZoneSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    countries: z.array(z.string()).describe('ISO 3166-1 alpha-2 codes, upper case'),
    sortOrder: z.number().int(),
    archivedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
    rates: z
      .array(shippingRateSchema)
      .describe('Ordered by sortOrder, then name. The list filters them with its `archived` flag'),
  })
  .meta({ id: 'ShippingZone' });
export type ShippingZoneRead = z.infer<typeof shippingZoneSchema>;

export const shippingZoneListQuerySchema = z.object({
  limit: limitSchema,
  cursor: cursorSchema.optional().describe('The id of the last zone of the previous page (`nextCursor`)'),
  archived: booleanQuerySchema
    .default(false)
    .describe(
      'Include archived zones and rates (true/1/yes, false/0/no, case-insensitive). Default false: active zones with their active rates',
    ),
});
export type ShippingZoneListQuery = z.output<typeof shippingZoneListQuerySchema>;

export const publicShippingZoneListQuerySchema = z.object({
  limit: limitSchema,
  cursor: cursorSchema.optional().describe('The id of the last zone of the previous page'),
});
export type PublicShippingZoneListQuery = z.output<typeof publicShippingZoneListQuerySchema>;

export const publicShippingRateSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    priceInCents: z.number().int().describe('The flat fee per shipment, in cents'),
    minimumSubtotalInCents: z
      .number()
      .int()
      .nullable()
      .describe('The rate applies only from this cart subtotal on; null for no gate'),
    estimatedDelivery: z.string().nullable(),
    sortOrder: z.number().int(),
  })
  .meta({ id: 'PublicShippingRate' });
export type PublicShippingRateRead = z.infer<typeof publicShippingRateSchema>;

export const publicShippingZoneSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    countries: z.array(z.string()).describe('ISO 3166-1 alpha-2 codes, upper case'),
    rates: z.array(publicShippingRateSchema).describe('Active rates, by sortOrder then name'),
  })
  .meta({ id: 'PublicShippingZone' });
export type PublicShippingZoneRead = z.infer<typeof publicShippingZoneSchema>;
