import { metafieldsSchema, sortOrderSchema } from '@commerce/catalog';
import { booleanQuerySchema, cursorSchema, limitSchema } from '@commerce/core';
import { z } from 'zod';
import {
  availabilityRulesSchema,
  durationsSchema,
  fixedSlotSchema,
  fixedSlotsSchema,
  MAX_AMOUNT_IN_CENTS,
  partySizeSchema,
  periodModeSchema,
  pricingSchema,
  timezoneSchema,
} from '../availability/schemas.ts';

/**
 * Inputs and reads of booking services and their requirements.
 * The rule-shaped fields come from `availability/schemas.ts`; the checkout,
 * policies, delivery, agreement and requirement shapes are declared here.
 * Create and update share each field; the update schema has no defaults, so
 * a key not sent is never rewritten, and a key sent replaces that key whole.
 */

export const SERVICE_STATUSES = ['ACTIVE', 'DRAFT', 'ARCHIVED'] as const;
export const WRITABLE_SERVICE_STATUSES = ['ACTIVE', 'DRAFT'] as const;
export const MAX_REQUIREMENTS = 10;
export const MAX_POOL_RESOURCES = 200;
export const MAX_AGREEMENT_BODY_LENGTH = 20_000;
export const MAX_SERVICE_DESCRIPTION_LENGTH = 5_000;
export const MAX_CUTOFF_MINUTES = 525_600;
export const MAX_DELIVERY_BANDS = 20;

export const serviceIdSchema = z.string().min(1).max(64).describe('Booking service id (`bks_…`)');

const slugSchema = z
  .string()
  .max(100, 'must be at most 100 characters')
  .regex(
    /^[a-z0-9]+(?:-[a-z0-9]+)*$/,
    'must be lowercase letters and digits in words joined by single hyphens',
  )
  .describe(
    'Unique per organization: lowercase letters and digits, words joined by single hyphens, at most 100',
  );
const nameSchema = z.string().trim().min(1).max(200).describe('1 to 200 characters, trimmed');
const descriptionSchema = z
  .string()
  .max(MAX_SERVICE_DESCRIPTION_LENGTH)
  .nullable()
  .describe('At most 5,000 characters; null clears it');
const writableStatusSchema = z
  .enum(WRITABLE_SERVICE_STATUSES, {
    error: 'must be ACTIVE or DRAFT; archive a service with POST /merchant/booking-services/{id}/archive',
  })
  .describe(
    '`ACTIVE` or `DRAFT`; `ACTIVE` needs the activation check. `ARCHIVED` only through the archive route',
  );
const itemIdSchema = z
  .string()
  .min(1)
  .max(64)
  .nullable()
  .describe('Optional catalog item of type `SERVICE` or `RENTAL`, for display only; null for none');

const unitsSchema = z
  .discriminatedUnion('mode', [
    z.strictObject({ mode: z.literal('PER_BOOKING'), count: z.number().int().min(1).max(100) }),
    z.strictObject({ mode: z.literal('PER_PARTICIPANT') }),
  ])
  .describe(
    '`{ mode: PER_BOOKING, count }` (1 to 100 units per booking) or `{ mode: PER_PARTICIPANT }` (the party size)',
  );

export const requirementInputSchema = z.strictObject({
  id: z
    .string()
    .min(1)
    .max(64)
    .optional()
    .describe('On PATCH: an existing requirement of this service, which keeps its id; omit for a new one'),
  name: nameSchema,
  resourceIds: z
    .array(z.string().min(1).max(64))
    .min(1)
    .max(MAX_POOL_RESOURCES)
    .refine((ids) => new Set(ids).size === ids.length, { message: 'must not repeat a resource' })
    .describe('The pool: 1 to 200 ACTIVE resources of the organization, in preference order'),
  units: unitsSchema,
  selection: z
    .enum(['AUTO', 'OPTIONAL', 'REQUIRED'])
    .default('AUTO')
    .describe(
      '`AUTO`: the server assigns (the pool is not public); `OPTIONAL`: the customer may choose; `REQUIRED`: must',
    ),
  allowSplit: z
    .boolean()
    .default(false)
    .describe('Whether units may come from several resources; default false'),
});
export type RequirementInput = z.output<typeof requirementInputSchema>;

const requirementsSchema = z
  .array(requirementInputSchema)
  .min(1)
  .max(MAX_REQUIREMENTS)
  .superRefine((requirements, ctx) => {
    const ids = new Set<string>();
    requirements.forEach((requirement, index) => {
      if (requirement.id === undefined) return;
      if (ids.has(requirement.id))
        ctx.addIssue({ code: 'custom', path: [index, 'id'], message: 'is repeated' });
      ids.add(requirement.id);
    });
  })
  .describe('1 to 10 requirements: what a booking takes from each pool of resources');

const windowMinutes = (min: number, max: number, fallback: number) =>
  z.number().int().min(min).max(max).default(fallback);

export const checkoutSettingsSchema = z
  .strictObject({
    approvalMode: z.enum(['AUTOMATIC', 'MANUAL']).default('AUTOMATIC'),
    paymentMode: z.enum(['PAY_NOW', 'DEPOSIT', 'PAY_LATER']).default('PAY_NOW'),
    deposit: z
      .union([
        z.strictObject({ percent: z.number().int().min(1).max(100) }),
        z.strictObject({ amountInCents: z.number().int().min(1).max(MAX_AMOUNT_IN_CENTS) }),
      ])
      .nullable()
      .default(null)
      .describe('`DEPOSIT` only, and required there: `{ percent }` 1 to 100 or `{ amountInCents }` ≥ 1'),
    holdMinutes: windowMinutes(5, 30, 30).describe('5 to 30; default 30'),
    paymentWindowMinutes: windowMinutes(10, 1_440, 30).describe('10 to 1,440; default 30'),
    approvedPaymentWindowHours: windowMinutes(1, 168, 24).describe('1 to 168; default 24'),
    requestExpiryHours: windowMinutes(1, 720, 72).describe('1 to 720; default 72'),
  })
  .superRefine((checkout, ctx) => {
    if (checkout.paymentMode === 'DEPOSIT' && checkout.deposit === null) {
      ctx.addIssue({ code: 'custom', path: ['deposit'], message: 'is required with paymentMode DEPOSIT' });
    }
    if (checkout.paymentMode !== 'DEPOSIT' && checkout.deposit !== null) {
      ctx.addIssue({ code: 'custom', path: ['deposit'], message: 'is for paymentMode DEPOSIT only' });
    }
  });
export type CheckoutSettings = z.output<typeof checkoutSettingsSchema>;

const policySchema = z.strictObject({
  mode: z.enum(['SELF_SERVICE', 'REQUEST', 'NONE']).describe('Self-service, by request, or not at all'),
  cutoffMinutes: z
    .number()
    .int()
    .min(0)
    .max(MAX_CUTOFF_MINUTES)
    .default(0)
    .describe('0 to 525,600; default 0'),
});
export const policiesSchema = z.strictObject({
  cancellation: policySchema.default({ mode: 'REQUEST', cutoffMinutes: 0 }),
  reschedule: policySchema.default({ mode: 'REQUEST', cutoffMinutes: 0 }),
});
export type Policies = z.output<typeof policiesSchema>;

const text = (max: number) => z.string().trim().min(1).max(max);
export const originAddressSchema = z
  .strictObject({
    line1: text(300),
    line2: text(300).nullable().optional(),
    city: text(200),
    state: text(200).nullable().optional(),
    postalCode: text(32),
    country: z
      .string()
      .regex(/^[A-Z]{2}$/, 'must be an uppercase ISO 3166-1 alpha-2 country code, e.g. PT')
      .describe('ISO 3166-1 alpha-2, uppercase'),
  })
  .describe('Where deliveries start; public reads show only `city` and `country`');

export const deliverySettingsSchema = z
  .strictObject({
    mode: z.enum(['PICKUP_ONLY', 'OPTIONAL', 'REQUIRED']).default('PICKUP_ONLY'),
    originAddress: originAddressSchema.nullable().default(null),
    flatFeeInCents: z.number().int().min(0).max(MAX_AMOUNT_IN_CENTS).nullable().default(null),
    bands: z
      .array(
        z.strictObject({
          label: text(100),
          maxDistanceMeters: z.number().int().min(1).max(10_000_000),
          feeInCents: z.number().int().min(0).max(MAX_AMOUNT_IN_CENTS),
        }),
      )
      .max(MAX_DELIVERY_BANDS)
      .nullable()
      .default(null)
      .describe('Ascending by `maxDistanceMeters`: the fee of the first band at or above the distance'),
  })
  .superRefine((delivery, ctx) => {
    if (delivery.flatFeeInCents !== null && delivery.bands !== null) {
      ctx.addIssue({ code: 'custom', path: ['bands'], message: 'give flatFeeInCents or bands, not both' });
    }
    if (delivery.mode !== 'PICKUP_ONLY') {
      if (delivery.originAddress === null) {
        ctx.addIssue({
          code: 'custom',
          path: ['originAddress'],
          message: `is required with mode ${delivery.mode}`,
        });
      }
      if (delivery.flatFeeInCents === null && (delivery.bands === null || delivery.bands.length === 0)) {
        ctx.addIssue({
          code: 'custom',
          path: ['flatFeeInCents'],
          message: 'give flatFeeInCents or bands to deliver',
        });
      }
    }
    delivery.bands?.forEach((band, index) => {
      const previous = delivery.bands?.[index - 1];
      if (previous && band.maxDistanceMeters <= previous.maxDistanceMeters) {
        ctx.addIssue({
          code: 'custom',
          path: ['bands', index, 'maxDistanceMeters'],
          message: 'bands must ascend by maxDistanceMeters',
        });
      }
    });
  });
export type DeliverySettings = z.output<typeof deliverySettingsSchema>;

export const agreementInputSchema = z
  .strictObject({
    title: nameSchema,
    bodyText: z.string().trim().min(1).max(MAX_AGREEMENT_BODY_LENGTH).describe('1 to 20,000 characters'),
  })
  .nullable()
  .describe(
    'Null, or `{ title, bodyText }`; `version` is set by the server and grows by one per text change',
  );

const serviceFields = {
  slug: slugSchema,
  name: nameSchema,
  description: descriptionSchema,
  status: writableStatusSchema,
  itemId: itemIdSchema,
  periodMode: periodModeSchema,
  timezone: timezoneSchema,
  durations: durationsSchema,
  fixedSlots: fixedSlotsSchema.nullable(),
  availability: availabilityRulesSchema,
  partySize: partySizeSchema,
  requirements: requirementsSchema,
  pricing: pricingSchema.nullable(),
  checkout: checkoutSettingsSchema,
  policies: policiesSchema,
  delivery: deliverySettingsSchema,
  agreement: agreementInputSchema,
  sortOrder: sortOrderSchema,
  metafields: metafieldsSchema,
};

export const createServiceInputSchema = z.strictObject({
  slug: serviceFields.slug,
  name: serviceFields.name,
  description: serviceFields.description.optional(),
  status: serviceFields.status.default('DRAFT'),
  itemId: serviceFields.itemId.optional(),
  periodMode: serviceFields.periodMode,
  timezone: serviceFields.timezone,
  durations: serviceFields.durations.optional(),
  fixedSlots: serviceFields.fixedSlots.optional(),
  availability: serviceFields.availability.optional(),
  partySize: serviceFields.partySize.optional(),
  requirements: serviceFields.requirements,
  pricing: serviceFields.pricing.optional(),
  checkout: serviceFields.checkout.optional(),
  policies: serviceFields.policies.optional(),
  delivery: serviceFields.delivery.optional(),
  agreement: serviceFields.agreement.optional(),
  sortOrder: serviceFields.sortOrder.optional(),
  metafields: serviceFields.metafields.optional(),
});
export type CreateServiceInput = z.output<typeof createServiceInputSchema>;

export const updateServiceChangesSchema = z.strictObject(
  Object.fromEntries(Object.entries(serviceFields).map(([key, schema]) => [key, schema.optional()])) as {
    [K in keyof typeof serviceFields]: z.ZodOptional<(typeof serviceFields)[K]>;
  },
);
export type UpdateServiceChanges = z.output<typeof updateServiceChangesSchema>;
export const updateServiceInputSchema = updateServiceChangesSchema.extend({ id: serviceIdSchema });

export const serviceIdInputSchema = z.object({ id: serviceIdSchema });
export const serviceActionInputSchema = z.strictObject({ id: serviceIdSchema });
export const serviceSlugInputSchema = z.object({ slug: z.string().min(1).max(200) });

export const serviceListQuerySchema = z.object({
  search: z
    .string()
    .trim()
    .max(200)
    .optional()
    .describe('Case-insensitive substring of the name or description (at most 200); empty means no filter'),
  status: z
    .enum(SERVICE_STATUSES)
    .optional()
    .describe('`ARCHIVED` lists only archived services, whatever `archived` says'),
  archived: booleanQuerySchema
    .optional()
    .describe('Archived services are hidden unless `true` (true/1/yes, false/0/no, case-insensitive)'),
  limit: limitSchema,
  cursor: cursorSchema
    .optional()
    .describe('The `nextCursor` of the previous page (the id of its last service)'),
});
export type ServiceListQuery = z.output<typeof serviceListQuerySchema>;

export const publicServiceListQuerySchema = z.object({
  limit: limitSchema,
  cursor: cursorSchema.optional().describe('The `nextCursor` of the previous page'),
});
export type PublicServiceListQuery = z.output<typeof publicServiceListQuerySchema>;

const requirementReadSchema = z.object({
  id: z.string(),
  name: z.string(),
  resourceIds: z.array(z.string()),
  units: unitsSchema,
  selection: z.enum(['AUTO', 'OPTIONAL', 'REQUIRED']),
  allowSplit: z.boolean(),
});

const pricingPreview = {
  authoritative: z.literal(false),
  currency: z.string().describe('checkoutSettings.currency'),
};
const pricingReadSchema = z
  .discriminatedUnion('basis', [
    pricingSchema.options[0].extend(pricingPreview),
    pricingSchema.options[1].extend(pricingPreview),
    pricingSchema.options[2].extend(pricingPreview),
  ])
  .nullable()
  .describe('Configured pricing, `authoritative: false`, in the store currency; null until set');

export const serviceSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    description: z.string().nullable(),
    status: z.enum(SERVICE_STATUSES),
    itemId: z.string().nullable(),
    periodMode: periodModeSchema,
    timezone: z.string(),
    durations: durationsSchema,
    fixedSlots: z.array(fixedSlotSchema).nullable().describe('FIXED_SLOT only; null otherwise'),
    availability: availabilityRulesSchema,
    partySize: partySizeSchema,
    requirements: z.array(requirementReadSchema),
    requiresResourceSelection: z.boolean().describe('True when a requirement is `REQUIRED`'),
    pricing: pricingReadSchema,
    checkout: checkoutSettingsSchema,
    policies: policiesSchema,
    delivery: deliverySettingsSchema,
    agreement: z.object({ title: z.string(), version: z.number().int(), bodyText: z.string() }).nullable(),
    sortOrder: z.number().int(),
    metafields: z.record(z.string(), z.unknown()),
    archivedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'BookingService' });
export type ServiceRead = z.infer<typeof serviceSchema>;

export const publicServiceSchema = serviceSchema
  .omit({ sortOrder: true, metafields: true, requirements: true, delivery: true, archivedAt: true })
  .extend({
    requirements: z
      .array(
        requirementReadSchema.omit({ resourceIds: true }).extend({
          resources: z
            .array(z.object({ id: z.string(), name: z.string() }))
            .optional()
            .describe('The ACTIVE resources a customer may choose from; absent for `AUTO` requirements'),
        }),
      )
      .describe('Every requirement; `AUTO` pools are not shown'),
    delivery: z.object({
      mode: z.enum(['PICKUP_ONLY', 'OPTIONAL', 'REQUIRED']),
      origin: z.object({ city: z.string(), country: z.string() }).nullable(),
      flatFeeInCents: z.number().int().nullable(),
      bands: z
        .array(
          z.object({ label: z.string(), maxDistanceMeters: z.number().int(), feeInCents: z.number().int() }),
        )
        .nullable(),
    }),
  })
  .meta({ id: 'PublicBookingService' });
export type PublicServiceRead = z.infer<typeof publicServiceSchema>;
