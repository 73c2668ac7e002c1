import {
  labelReconcileResultSchema,
  reconcileLabelPurchase,
  reconcileLabelPurchaseInputSchema,
} from '@commerce/orders';
import { ADDRESSING, RECONCILIATION, TAGS } from './docs.ts';
import { labelContext, operator } from './label-access.ts';

export const reconcilePurchaseProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/orders/{orderId}/shipping-label/purchases/{purchaseId}/reconcile',
      tags: TAGS,
      summary: 'Ask the carrier what became of an unsettled label purchase',
      description: [
        `${ADDRESSING} Needs \`fulfillment:operate\`. Body \`{}\`; \`x-idempotency-key\` is ignored: the purchase's state guards the route.`,
        `Unless its reconciliation is \`allowed\`, \`409 RECONCILE_NOT_ALLOWED\` (\`details.reconciliation\`). The attempt is recorded (a reconcile then waits 30 s, answered or not) and the carrier is asked once whether it sold a label under the purchase id; it never buys. Sold: the purchase settles \`PURCHASED\` as a purchase would, \`200 { purchase, fulfillment }\`, and a retry of the purchase with its key replays the \`201\`. Not sold: \`FAILED\` (\`NOT_PURCHASED\`), its units and key released, \`200 { purchase }\`. A carrier that cannot say, or cannot be read, changes nothing: \`503 PROVIDER_UNAVAILABLE\`. Audited as \`shipping_label.reconciled\` (\`outcome\`).`,
        RECONCILIATION,
      ].join('\n\n'),
    },
    errors: ['PROVIDER_UNAVAILABLE', 'RECONCILE_NOT_ALLOWED'],
  })
  .input(reconcileLabelPurchaseInputSchema)
  .output(labelReconcileResultSchema)
  .mutation(({ ctx, input }) => reconcileLabelPurchase(ctx.db, labelContext(ctx), input));
