import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '@commerce/db';
import {
  cancelPreparedShipment,
  cancelPreparedShipmentInputSchema,
  fulfillmentSchema,
} from '@commerce/fulfillment';
import { merchantProcedureWith } from '../../../trpc.ts';
import { cancellationContext } from './cancellation-access.ts';
import { ADDRESSING, BASE, TAGS } from './docs.ts';

/** Cancel-prepared-shipment needs `fulfillment:operate`; checks and acknowledgements Owner or Admin. */
const operator = merchantProcedureWith('fulfillment:operate');

export const cancelPreparedShipmentProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: `${BASE}/cancel-prepared-shipment`,
      tags: TAGS,
      summary: "Void a READY package's native label",
      description: [
        'An open cancellation is answered as it is. Otherwise the fulfillment must be `READY` with active native postage (external postage: cancel the fulfillment; legacy postage: acknowledge it). With the optional `x-idempotency-key` a replay never requests a void again.',
        `The postage awaits its void (handoff blocked) while the carrier is asked once. Voided: the refund is recorded and the fulfillment may be cancelled, relabelled or given other postage. Refused or not reached: the label stands and a new request may send one new void. The worker reads a pending void for 72 hours, then the cancellation is \`EXHAUSTED\`. ${ADDRESSING} Needs \`fulfillment:operate\`.`,
      ].join('\n\n'),
    },
    errors: [
      'IDEMPOTENCY_KEY_REUSED',
      'INVALID_STATE_TRANSITION',
      'POSTAGE_NOT_VOIDABLE',
      'PROVIDER_UNAVAILABLE',
    ],
  })
  .input(cancelPreparedShipmentInputSchema)
  .output(fulfillmentSchema)
  .mutation(async ({ ctx, input }) => {
    const key = readIdempotencyKey(ctx.request.headers);
    const { body, replayed } = await cancelPreparedShipment(ctx.db, cancellationContext(ctx), input, key);
    if (replayed) ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return body;
  });
