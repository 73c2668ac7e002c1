import { z } from 'zod';
import { MAX_RECOMMENDATION_UNITS } from './recommend-package.ts';

/** The recommendation route's body and answer (docs/fulfillment.md "Package recommendation"). */

export const MAX_SELECTED_LINES = 100;
export const MAX_SELECTED_LINE_QUANTITY = 100_000;

const lineIdSchema = z.string().min(1).max(64).describe('A PRODUCT line of the order (`sli_…`)');

export const recommendShippingPackageInputSchema = z.strictObject({
  id: z.string().min(1).max(64).describe('The order id (`ord_…`) or the id of its sales record (`sal_…`)'),
  lines: z
    .array(
      z.strictObject({
        lineId: lineIdSchema,
        quantity: z
          .number()
          .int()
          .min(1)
          .max(MAX_SELECTED_LINE_QUANTITY)
          .describe("Units of the line to pack: 1 to 100000, at most the line's available quantity"),
      }),
    )
    .min(1)
    .max(MAX_SELECTED_LINES)
    .superRefine((lines, ctx) => {
      const seen = new Set<string>();
      lines.forEach((line, index) => {
        if (seen.has(line.lineId)) {
          ctx.addIssue({ code: 'custom', path: [index, 'lineId'], message: 'is selected twice' });
        }
        seen.add(line.lineId);
      });
    })
    .optional()
    .describe(
      "1 to 100 distinct PRODUCT lines with quantities. Absent: each PRODUCT line's available quantity (ordered, less shipped and allocated units)",
    ),
});
export type RecommendShippingPackageInput = z.output<typeof recommendShippingPackageInputSchema>;

const boxSchema = z.object({
  lengthMm: z.number().int(),
  widthMm: z.number().int(),
  heightMm: z.number().int(),
});

export const RECOMMENDATION_REASONS = [
  'NO_PRODUCT_UNITS',
  'TOO_MANY_UNITS',
  'MISSING_DIMENSIONS',
  'NO_ACTIVE_PRESETS',
  'NO_PROVEN_FIT',
] as const;

export const shippingPackageRecommendationSchema = z
  .object({
    recommendation: z
      .object({
        boxPresetId: z.string(),
        boxPresetRevision: z.number().int().describe("The preset's revision the proof was made against"),
        name: z.string(),
        inner: boxSchema,
        outer: boxSchema.describe('For rating'),
        loadedWeightGrams: z.number().int().describe("The units' catalog weight plus the box's tare"),
        proof: z.enum(['SINGLE_UNIT', 'GRID', 'STACK']),
        stackAxis: z
          .enum(['LENGTH', 'WIDTH', 'HEIGHT'])
          .nullable()
          .describe('The inner axis the units stack along (`STACK` only); null otherwise'),
      })
      .nullable()
      .describe('The proven-fit preset; null when none is proven (see `reason`)'),
    reason: z
      .enum(RECOMMENDATION_REASONS)
      .nullable()
      .describe('Why there is no recommendation; null exactly when there is one'),
    missing: z
      .array(
        z.object({
          lineId: z.string(),
          itemId: z.string().nullable(),
          variantId: z.string().nullable(),
          fields: z
            .array(z.enum(['shippingWeightGrams', 'shippingLengthMm', 'shippingWidthMm', 'shippingHeightMm']))
            .describe(
              "The dimensions to fill in: the variant's when it has some set, else the item's (a unit takes all four from one of them)",
            ),
        }),
      )
      .describe('With `MISSING_DIMENSIONS`, each line whose units lack dimensions; otherwise empty'),
    unitCount: z.number().int().describe(`Units to pack (at most ${MAX_RECOMMENDATION_UNITS} are evaluated)`),
    catalogWeightGrams: z
      .number()
      .int()
      .nullable()
      .describe("The units' catalog weight; null when not known (`TOO_MANY_UNITS`, `MISSING_DIMENSIONS`)"),
    evaluatedPresetCount: z.number().int().describe('Active presets considered (0 before that step)'),
  })
  .meta({ id: 'ShippingPackageRecommendation' });
export type ShippingPackageRecommendationRead = z.infer<typeof shippingPackageRecommendationSchema>;
