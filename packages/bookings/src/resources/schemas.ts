import { metafieldsSchema } from '@commerce/catalog';
import { cursorSchema, limitSchema } from '@commerce/core';
import { z } from 'zod';
import { instantSchema, parseInstant } from '../availability/schemas.ts';

/** Inputs and reads of resources and blackouts. */

export const RESOURCE_KINDS = ['STAFF', 'SPACE', 'EQUIPMENT', 'VEHICLE', 'OTHER'] as const;
export const RESOURCE_STATUSES = ['ACTIVE', 'ARCHIVED'] as const;
export const MAX_RESOURCE_CAPACITY = 10_000;
export const MAX_BLACKOUT_REASON_LENGTH = 500;
export const MAX_RESOURCE_SEARCH_LENGTH = 200;

export const resourceIdSchema = z.string().min(1).max(64).describe('Resource id (`brs_…`)');
const nameSchema = z.string().trim().min(1).max(200).describe('1 to 200 characters, trimmed');
const kindSchema = z.enum(RESOURCE_KINDS).describe('`STAFF`, `SPACE`, `EQUIPMENT`, `VEHICLE` or `OTHER`');
const capacitySchema = z
  .number()
  .int()
  .min(1)
  .max(MAX_RESOURCE_CAPACITY)
  .describe('Units in use at one instant, shared by every service using the resource: 1 to 10,000');
const userIdSchema = z
  .string()
  .min(1)
  .max(64)
  .nullable()
  .describe('STAFF only: the user id of an active member of the organization, for assignment; null for none');

export const createResourceInputSchema = z.strictObject({
  name: nameSchema,
  kind: kindSchema,
  capacity: capacitySchema.default(1).describe('1 to 10,000; default 1'),
  userId: userIdSchema.optional(),
  metafields: metafieldsSchema.optional(),
});
export type CreateResourceInput = z.output<typeof createResourceInputSchema>;

export const updateResourceChangesSchema = z.strictObject({
  name: nameSchema.optional(),
  kind: kindSchema.optional(),
  capacity: capacitySchema.optional(),
  userId: userIdSchema.optional(),
  metafields: metafieldsSchema.optional(),
});
export type UpdateResourceChanges = z.output<typeof updateResourceChangesSchema>;
export const updateResourceInputSchema = updateResourceChangesSchema.extend({ id: resourceIdSchema });

export const resourceIdInputSchema = z.object({ id: resourceIdSchema });
export const resourceActionInputSchema = z.strictObject({ id: resourceIdSchema });

export const resourceListQuerySchema = z.object({
  limit: limitSchema,
  cursor: cursorSchema
    .optional()
    .describe('The `nextCursor` of the previous page (the id of its last resource)'),
  status: z
    .enum(RESOURCE_STATUSES)
    .optional()
    .describe('Exactly this status; without it, every resource (archived ones included)'),
  kind: kindSchema.optional(),
  search: z
    .string()
    .trim()
    .max(MAX_RESOURCE_SEARCH_LENGTH)
    .optional()
    .describe('Case-insensitive substring of the name (at most 200 characters); empty means no filter'),
});
export type ResourceListQuery = z.output<typeof resourceListQuerySchema>;

export const resourceSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    kind: z.enum(RESOURCE_KINDS),
    capacity: z.number().int(),
    userId: z.string().nullable(),
    status: z.enum(RESOURCE_STATUSES),
    metafields: z.record(z.string(), z.unknown()),
    archivedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'BookingResource' });
export type ResourceRead = z.infer<typeof resourceSchema>;

export const blackoutInputSchema = z
  .strictObject({
    id: resourceIdSchema,
    startsAt: instantSchema,
    endsAt: instantSchema,
    reason: z.string().trim().max(MAX_BLACKOUT_REASON_LENGTH).nullable().optional().describe('At most 500'),
  })
  .superRefine((input, ctx) => {
    const startsAt = parseInstant(input.startsAt);
    const endsAt = parseInstant(input.endsAt);
    if (startsAt !== null && endsAt !== null && endsAt <= startsAt) {
      ctx.addIssue({ code: 'custom', path: ['endsAt'], message: 'must be after startsAt' });
    }
  });
export type BlackoutInput = z.output<typeof blackoutInputSchema>;

export const blackoutPathInputSchema = z.strictObject({
  id: resourceIdSchema,
  blackoutId: z.string().min(1).max(64).describe('Blackout id (`bbo_…`)'),
});

export const blackoutSchema = z
  .object({
    id: z.string(),
    resourceId: z.string(),
    startsAt: z.iso.datetime(),
    endsAt: z.iso.datetime(),
    reason: z.string().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'BookingBlackout' });
export type BlackoutRead = z.infer<typeof blackoutSchema>;
