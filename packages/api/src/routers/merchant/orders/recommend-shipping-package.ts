import {
  recommendShippingPackage,
  recommendShippingPackageInputSchema,
  shippingPackageRecommendationSchema,
} from '@commerce/fulfillment';
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
        "Writes nothing and calls no provider. Without `lines`, every product line at its quantity left. A unit's dimensions come from its variant when it has all four, else its item; nothing is estimated.",
        'A box preset fits when the units and its tare stay within its load and a packing on its inner dimensions is proven (axis-aligned only); the smallest inner volume wins. `reason` says why there is no recommendation. `{id}` is the order or its sales record.',
      ].join('\n\n'),
    },
  })
  .input(recommendShippingPackageInputSchema)
  .output(shippingPackageRecommendationSchema)
  .mutation(({ ctx, input }) => recommendShippingPackage(ctx.db, ctx.tenant.organizationId, input));
