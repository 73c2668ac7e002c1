import { deliverFulfillment, deliverFulfillmentInputSchema, fulfillmentSchema } from '@commerce/orders';
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
      description: [
        `${OPERATOR} ${ADDRESSING} \`x-idempotency-key\` is ignored: the state guards the route.`,
        'Body `{ deliveredAt? }`: ISO 8601 with an offset, not in the future, not before the fulfillment’s `shippedAt` (else `400` at `deliveredAt`); default now.',
        '`SHIPPED` → `DELIVERED`; any other state, a second delivery included, is `409 INVALID_STATE_TRANSITION`. Counters and `fulfillmentStatus` stay; no email. Audited as `fulfillment.delivered`. Answers `200` with the fulfillment.',
      ].join('\n\n'),
    },
    errors: ['INVALID_STATE_TRANSITION'],
  })
  .input(deliverFulfillmentInputSchema)
  .output(fulfillmentSchema)
  .mutation(({ ctx, input }) => deliverFulfillment(ctx.db, emailingWriteContext(ctx), input));
