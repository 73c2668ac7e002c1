import { booleanQuerySchema, cursorSchema, limitSchema } from '@commerce/core';
import type { AuditActor } from '@commerce/db';
import { z } from 'zod';

/** Box presets (docs/fulfillment.md "Box presets"). */

/** Who changes box presets, in which organization, and when. */
export interface BoxPresetWriteContext {
  organizationId: string;
  actor: AuditActor;
  at: Date;
}

export const MAX_BOX_DIMENSION_MM = 3000;
export const MAX_TARE_WEIGHT_GRAMS = 50_000;
export const MAX_LOAD_GRAMS = 150_000;
/** Non-archived presets per tenant. */
export const MAX_ACTIVE_BOX_PRESETS = 200;

const INT32_MAX = 2_147_483_647;
const INT32_MIN = -2_147_483_648;

export const boxPresetIdSchema = z.string().min(1).max(64).describe('Box preset id (`box_…`)');

const nameSchema = z
  .string()
  .trim()
  .min(1)
  .max(200)
  .describe(
    "1 to 200 characters, trimmed; unique (case-insensitive) among the tenant's non-archived presets",
  );
const millimetresSchema = z.number().int().min(1).max(MAX_BOX_DIMENSION_MM);
const innerSchema = (axis: string) =>
  millimetresSchema.describe(`Inner ${axis}: integer millimetres, 1 to 3000`);
const outerSchema = (axis: string) =>
  millimetresSchema
    .nullable()
    .describe(
      `Outer ${axis} (used for rating): integer millimetres, 1 to 3000, at least the inner ${axis}. Absent or null: the same as the inner ${axis}, and it follows it when that changes`,
    );
const tareSchema = z
  .number()
  .int()
  .min(0)
  .max(MAX_TARE_WEIGHT_GRAMS)
  .describe('The empty box: integer grams, 0 to 50000');
const maxLoadSchema = z
  .number()
  .int()
  .min(1)
  .max(MAX_LOAD_GRAMS)
  .nullable()
  .describe(
    'The most the loaded box may weigh (units and tare), integer grams 1 to 150000; null for no limit of its own',
  );
const sortOrderSchema = z
  .number()
  .int()
  .min(INT32_MIN)
  .max(INT32_MAX)
  .describe('Lower comes first; ties are ordered by name, then id. Default 0');

export const BOX_AXES = [
  ['innerLengthMm', 'outerLengthMm'],
  ['innerWidthMm', 'outerWidthMm'],
  ['innerHeightMm', 'outerHeightMm'],
] as const;

/** Each outer dimension sent is at least the inner one sent beside it. */
function outerCoversInner(
  body: Partial<Record<(typeof BOX_AXES)[number][number], number | null | undefined>>,
  ctx: z.RefinementCtx,
): void {
  for (const [inner, outer] of BOX_AXES) {
    const innerValue = body[inner];
    const outerValue = body[outer];
    if (typeof innerValue === 'number' && typeof outerValue === 'number' && outerValue < innerValue) {
      ctx.addIssue({ code: 'custom', path: [outer], message: `must be at least ${inner}` });
    }
  }
}

export const createBoxPresetInputSchema = z
  .strictObject({
    name: nameSchema,
    innerLengthMm: innerSchema('length'),
    innerWidthMm: innerSchema('width'),
    innerHeightMm: innerSchema('height'),
    outerLengthMm: outerSchema('length').optional(),
    outerWidthMm: outerSchema('width').optional(),
    outerHeightMm: outerSchema('height').optional(),
    tareWeightGrams: tareSchema,
    maxLoadGrams: maxLoadSchema.optional(),
    sortOrder: sortOrderSchema.optional(),
  })
  .superRefine(outerCoversInner)
  .meta({ id: 'BoxPresetCreate' });
export type CreateBoxPresetInput = z.output<typeof createBoxPresetInputSchema>;

const boxPresetChangesShape = {
  name: nameSchema.optional(),
  innerLengthMm: innerSchema('length').optional(),
  innerWidthMm: innerSchema('width').optional(),
  innerHeightMm: innerSchema('height').optional(),
  outerLengthMm: outerSchema('length').optional(),
  outerWidthMm: outerSchema('width').optional(),
  outerHeightMm: outerSchema('height').optional(),
  tareWeightGrams: tareSchema.optional(),
  maxLoadGrams: maxLoadSchema.optional(),
  sortOrder: sortOrderSchema.optional(),
  expectedRevision: z
    .number()
    .int()
    .min(1)
    .max(INT32_MAX)
    .optional()
    .describe("The preset's `revision` the change was made against; another is `409 STALE_STATE`"),
};

export const boxPresetChangesSchema = z.strictObject(boxPresetChangesShape).superRefine(outerCoversInner);
export type BoxPresetChanges = z.output<typeof boxPresetChangesSchema>;

/** The PATCH input: the path's `id` beside the body's changes (an empty body changes nothing). */
export const updateBoxPresetInputSchema = z
  .strictObject({ ...boxPresetChangesShape, id: boxPresetIdSchema })
  .superRefine(outerCoversInner);

/** Archive and restore: the path's id, and no body keys. */
export const boxPresetActionInputSchema = z.strictObject({ id: boxPresetIdSchema });
/** The detail read: the path's id. */
export const boxPresetReadInputSchema = z.object({ id: boxPresetIdSchema });

export const boxPresetListQuerySchema = z.object({
  limit: limitSchema,
  cursor: cursorSchema
    .optional()
    .describe('The `nextCursor` of the previous page (the id of its last preset)'),
  archived: booleanQuerySchema
    .default(false)
    .describe(
      'Include archived presets (true/1/yes, false/0/no, case-insensitive). Default false: non-archived presets only',
    ),
});
export type BoxPresetListQuery = z.output<typeof boxPresetListQuerySchema>;

export const boxPresetSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    innerLengthMm: z.number().int(),
    innerWidthMm: z.number().int(),
    innerHeightMm: z.number().int(),
    outerLengthMm: z.number().int().describe('The outer length; the inner one when none was set'),
    outerWidthMm: z.number().int().describe('The outer width; the inner one when none was set'),
    outerHeightMm: z.number().int().describe('The outer height; the inner one when none was set'),
    tareWeightGrams: z.number().int(),
    maxLoadGrams: z.number().int().nullable().describe('Null: no load limit of its own'),
    sortOrder: z.number().int(),
    revision: z.number().int().describe('1 on create, +1 per update that changes something'),
    archivedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .meta({ id: 'BoxPreset' });
export type BoxPresetRead = z.infer<typeof boxPresetSchema>;
