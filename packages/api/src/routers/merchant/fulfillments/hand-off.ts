import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '@commerce/db';
import { fulfillmentSchema, handOffFulfillment, handOffFulfillmentInputSchema } from '@commerce/fulfillment';
import { emailingWriteContext } from '../../../write-context.ts';
import { ADDRESSING, BASE, FULFILLABLE, OPERATOR, TAGS } from './docs.ts';
import { operator } from './fulfillment-access.ts';

export const handOffProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: `${BASE}/fulfillments/{fulfillmentId}/handoff`,
      tags: TAGS,
      summary: 'Hand a READY package to the carrier',
      description: `\`READY\` with active postage → \`SHIPPED\`: the allocated units become shipped, tracked stock is consumed once and \`notifyCustomer\` decides the shipped email. An open shipment cancellation, postage awaiting a void, or no current postage is \`409 HANDOFF_BLOCKED\`. With the optional \`x-idempotency-key\` a replay consumes nothing again. ${FULFILLABLE} ${OPERATOR} ${ADDRESSING}`,
    },
    // Tracked stock consumed: its items' `inStock` on the public reads.
    purges: 'shipped-stock',
    errors: [
      'HANDOFF_BLOCKED',
      'IDEMPOTENCY_KEY_REUSED',
      'INVALID_STATE_TRANSITION',
      'ORDER_NOT_FULFILLABLE',
    ],
  })
  .input(handOffFulfillmentInputSchema)
  .output(fulfillmentSchema)
  .mutation(async ({ ctx, input }) => {
    const key = readIdempotencyKey(ctx.request.headers);
    const { body, replayed } = await handOffFulfillment(ctx.db, emailingWriteContext(ctx), input, key);
    if (replayed) ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return body;
  });
