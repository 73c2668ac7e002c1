import {
  attachExternalPostage,
  attachExternalPostageInputSchema,
  fulfillmentSchema,
} from '@commerce/fulfillment';
import { emailingWriteContext } from '../../../write-context.ts';
import { ADDRESSING, BASE, FULFILLABLE, OPERATOR, TAGS } from './docs.ts';
import { operator } from './fulfillment-access.ts';

export const attachExternalPostageProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: `${BASE}/fulfillments/{fulfillmentId}/external-postage`,
      tags: TAGS,
      summary: 'Record a label bought elsewhere',
      description: `\`PLANNED\` → \`READY\` with external postage (no label document). A fulfillment with current paid native postage is \`409 PAID_POSTAGE_ACTIVE\` (void it first); one an unsettled label purchase holds, \`409 LABEL_PURCHASE_UNSETTLED\`. ${FULFILLABLE} ${OPERATOR} ${ADDRESSING}`,
    },
    errors: [
      'INVALID_STATE_TRANSITION',
      'LABEL_PURCHASE_UNSETTLED',
      'ORDER_NOT_FULFILLABLE',
      'PAID_POSTAGE_ACTIVE',
    ],
  })
  .input(attachExternalPostageInputSchema)
  .output(fulfillmentSchema)
  .mutation(({ ctx, input }) => attachExternalPostage(ctx.db, emailingWriteContext(ctx), input));
