import { cancelFulfillment, cancelFulfillmentInputSchema, fulfillmentSchema } from '@commerce/fulfillment';
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
      description: `Allowed whatever the order's state. A \`PLANNED\` or \`READY\` fulfillment releases its allocation once; no stock is restored (none was consumed). Current paid native postage is \`409 PAID_POSTAGE_ACTIVE\` (void it with \`cancel-prepared-shipment\` first); a fulfillment an unsettled label purchase holds, \`409 LABEL_PURCHASE_UNSETTLED\`. ${OPERATOR} ${ADDRESSING}`,
    },
    errors: ['INVALID_STATE_TRANSITION', 'LABEL_PURCHASE_UNSETTLED', 'PAID_POSTAGE_ACTIVE'],
  })
  .input(cancelFulfillmentInputSchema)
  .output(fulfillmentSchema)
  .mutation(({ ctx, input }) => cancelFulfillment(ctx.db, emailingWriteContext(ctx), input));
