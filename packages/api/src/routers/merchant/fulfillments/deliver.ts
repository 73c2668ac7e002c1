import { deliverFulfillment, deliverFulfillmentInputSchema, fulfillmentSchema } from '@commerce/fulfillment';
import { emailingWriteContext } from '../../../write-context.ts';
import { ADDRESSING, BASE, OPERATOR, TAGS } from './docs.ts';
import { operator } from './fulfillment-access.ts';

export const deliverProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: `${BASE}/fulfillments/{fulfillmentId}/deliver`,
      tags: TAGS,
      summary: 'Mark a shipment delivered',
      description: `\`SHIPPED\` → \`DELIVERED\`; counters and \`fulfillmentStatus\` stay, no email. ${OPERATOR} ${ADDRESSING}`,
    },
    errors: ['INVALID_STATE_TRANSITION'],
  })
  .input(deliverFulfillmentInputSchema)
  .output(fulfillmentSchema)
  .mutation(({ ctx, input }) => deliverFulfillment(ctx.db, emailingWriteContext(ctx), input));
