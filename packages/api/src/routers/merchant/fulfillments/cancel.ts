import { cancelFulfillment, cancelFulfillmentInputSchema, fulfillmentSchema } from '@commerce/orders';
import { emailingWriteContext } from '../../../write-context.ts';
import { ADDRESSING, BASE, OPERATOR, TAGS } from './docs.ts';
import { operator } from './fulfillment-access.ts';

export const cancelProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: `${BASE}/fulfillments/{fulfillmentId}/cancel`,
      tags: TAGS,
      summary: 'Cancel a planned or ready fulfillment',
      description: [
        `${OPERATOR} ${ADDRESSING} \`x-idempotency-key\` is ignored: the state guards the route. Allowed whatever the order's state.`,
        'Body `{ reason? }`: 1 to 500 characters after trimming.',
        '`PLANNED`, or `READY` without current paid native postage, → `CANCELLED`: its allocation is released once (a second cancel is `409 INVALID_STATE_TRANSITION`); no stock is restored, none was consumed. `READY` with current paid native postage is `409 PAID_POSTAGE_ACTIVE` (void it with `cancel-prepared-shipment` first); a fulfillment an unsettled label purchase holds is `409 LABEL_PURCHASE_UNSETTLED` (`details.purchaseId`: reconcile it first). `SHIPPED`, `DELIVERED` and `CANCELLED` are `409 INVALID_STATE_TRANSITION`. Audited as `fulfillment.cancelled`. Answers `200` with the fulfillment.',
      ].join('\n\n'),
    },
    errors: ['INVALID_STATE_TRANSITION', 'LABEL_PURCHASE_UNSETTLED', 'PAID_POSTAGE_ACTIVE'],
  })
  .input(cancelFulfillmentInputSchema)
  .output(fulfillmentSchema)
  .mutation(({ ctx, input }) => cancelFulfillment(ctx.db, emailingWriteContext(ctx), input));
