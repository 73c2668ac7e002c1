import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '@commerce/db';
import {
  cancelPreparedShipment,
  cancelPreparedShipmentInputSchema,
  fulfillmentSchema,
} from '@commerce/orders';
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
        `${ADDRESSING} Needs \`fulfillment:operate\`. Header \`x-idempotency-key\` is optional (malformed: \`400\`): the same key and body replay the recorded answer (read now, \`idempotent-replayed: true\`) and never request a void again; another body is \`409 IDEMPOTENCY_KEY_REUSED\`. Body \`{ reason? }\` (1 to 500).`,
        'An open cancellation (`PENDING` or `EXHAUSTED`) is answered as it is, nothing sent. Otherwise the fulfillment must be `READY` with postage `NATIVE ACTIVE`: external postage is `409 POSTAGE_NOT_VOIDABLE` (`details.reason: NOT_NATIVE`: cancel the fulfillment instead), legacy postage too (`NO_PROVIDER_REFERENCE`: acknowledge it), any other state `409 INVALID_STATE_TRANSITION`.',
        'The cancellation opens `PENDING` and the postage becomes `VOID_PENDING` (handoff blocked); then the carrier is asked once to void the label. Evidence that it is voided closes it `VOIDED` (the postage `VOIDED`, the refund recorded; the fulfillment may then be cancelled, relabelled or given external postage, and handoff is `409 HANDOFF_BLOCKED` `POSTAGE_RETIRED`). A refusal closes it `REJECTED` and a carrier not reached `NOT_SENT` (`503 PROVIDER_UNAVAILABLE`): the label stands (`ACTIVE`), handoff is allowed, and a new request may send one new void. A pending or unanswered void is read by the worker 1 min, 5 min, 30 min, 2 h, 6 h, 24 h and 72 h after the request, then `EXHAUSTED`. Answers `200` with the fulfillment (still `READY`, its `cancellation` the latest). Audited as `shipping_label.void_requested`, then `.voided` or `.void_rejected`.',
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
