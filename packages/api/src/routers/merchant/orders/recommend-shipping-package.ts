import {
  recommendShippingPackage,
  recommendShippingPackageInputSchema,
  shippingPackageRecommendationSchema,
} from '@commerce/orders';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const recommendShippingPackageProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/orders/{id}/shipping-package/recommendation',
      tags: TAGS,
      summary: 'Recommend a proven-fit box preset for the order',
      description: [
        'Open to any member. `{id}` is the order id (`ord_…`) or its sales record id (`sal_…`); an unknown id, another prefix or another organization’s order is `404`. Writes nothing, calls no provider, and answers the same for the same order, catalog and presets.',
        "Body `{ lines? }`: 1 to 100 distinct `{ lineId, quantity }` (quantity 1 to 100000) of the order's PRODUCT lines, at most each line's available quantity (else `400` naming `lines.N.lineId` or `lines.N.quantity`). Without `lines`, every PRODUCT line at its available quantity (ordered, less shipped and allocated units; lines with none left are skipped). An empty body is accepted; unknown keys are `400`.",
        "Each unit's dimensions come from its variant when it has all four shipping values, else from its item; nothing is estimated. Candidates are the active box presets; a preset fits when the units plus its tare stay within its `maxLoadGrams` and a proof on its inner dimensions holds with axis-aligned orientations only: `SINGLE_UNIT`, `GRID` (one unit shape) or `STACK` (along `stackAxis`). The smallest inner volume wins, then the lighter tare, `sortOrder`, `id`.",
        'Answers `200 { recommendation, reason, missing, unitCount, catalogWeightGrams, evaluatedPresetCount }`; `reason` (`NO_PRODUCT_UNITS`, `TOO_MANY_UNITS` over 1000 units, `MISSING_DIMENSIONS` with `missing[]`, `NO_ACTIVE_PRESETS`, `NO_PROVEN_FIT`) is null exactly when `recommendation` is not.',
      ].join('\n\n'),
    },
  })
  .input(recommendShippingPackageInputSchema)
  .output(shippingPackageRecommendationSchema)
  .mutation(({ ctx, input }) => recommendShippingPackage(ctx.db, ctx.tenant.organizationId, input));
