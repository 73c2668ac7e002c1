import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '@commerce/db';
import { fulfillmentSchema, handOffFulfillment, handOffFulfillmentInputSchema } from '@commerce/orders';
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
      description: [
        `${OPERATOR} ${ADDRESSING} Header \`x-idempotency-key\` is optional (malformed: \`400\`): the same key and body replay the recorded answer (\`idempotent-replayed: true\`) and consume nothing again; another body is \`409 IDEMPOTENCY_KEY_REUSED\`. Kept 30 days.`,
        'Body: `notifyCustomer` (boolean, required, no default), `shippedAt?` (ISO 8601 with an offset, not in the future, not before the order was created; default now).',
        `\`READY\` with \`ACTIVE\` postage → \`SHIPPED\`: the allocated units become shipped, \`fulfillmentStatus\` is rewritten on the record and its order, tracked stock is consumed once, the notification decision is recorded (\`true\` queues one \`ORDER_SHIPPED\`). Any other state, a second handoff included, is \`409 INVALID_STATE_TRANSITION\`; a \`READY\` one with an open shipment cancellation (\`PENDING\` or \`EXHAUSTED\`) or postage awaiting a void is \`409 HANDOFF_BLOCKED\` \`VOID_PENDING\`, one without current postage (voided or retired) \`POSTAGE_RETIRED\`. ${FULFILLABLE} Audited as \`fulfillment.handed_off\`. Answers \`200\` with the fulfillment.`,
      ].join('\n\n'),
    },
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
