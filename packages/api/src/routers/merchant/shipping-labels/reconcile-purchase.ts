import {
  labelReconcileResultSchema,
  reconcileLabelPurchase,
  reconcileLabelPurchaseInputSchema,
} from '@commerce/fulfillment';
import { ADDRESSING, TAGS } from './docs.ts';
import { labelContext, operator } from './label-access.ts';

export const reconcilePurchaseProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/orders/{orderId}/shipping-label/purchases/{purchaseId}/reconcile',
      tags: TAGS,
      summary: 'Ask the carrier what became of an unsettled label purchase',
      description: `Only when the purchase's reconciliation is \`allowed\` (else \`409 RECONCILE_NOT_ALLOWED\`). Asks the carrier once whether it sold a label under the purchase id; it never buys. Sold: the purchase settles as a purchase would, and the purchase's key replays its \`201\`. Not sold: the purchase fails, its units and key released. A carrier that cannot say changes nothing (\`503\`). ${ADDRESSING} Needs \`fulfillment:operate\`.`,
    },
    errors: ['PROVIDER_UNAVAILABLE', 'RECONCILE_NOT_ALLOWED'],
  })
  .input(reconcileLabelPurchaseInputSchema)
  .output(labelReconcileResultSchema)
  .mutation(({ ctx, input }) => reconcileLabelPurchase(ctx.db, labelContext(ctx), input));
