import { IDEMPOTENT_REPLAYED_HEADER, type MerchantUser, readIdempotencyKey } from '@commerce/db';
import {
  acknowledgeRetiredPostage,
  cancelPreparedShipment,
  cancelPreparedShipmentInputSchema,
  carrierCheckInputSchema,
  checkCarrierForCancellation,
  fulfillmentSchema,
  retiredPostageAcknowledgementInputSchema,
  type ShipmentCancellationContext,
} from '@commerce/fulfillment';
import type { ApiContext } from '../../context.ts';
import { merchantProcedureFor, merchantProcedureWith, router } from '../../trpc.ts';

const TAGS = ['Merchant: fulfillments'];
const BASE = '/merchant/orders/{orderId}/fulfillments/{fulfillmentId}';

/** Cancel-prepared-shipment needs `fulfillment:operate`; checks and acknowledgements Owner or Admin (13.1). */
const operator = merchantProcedureWith('fulfillment:operate');
const ownerOrAdmin = merchantProcedureFor('Owner', 'Admin');

function cancellationContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): ShipmentCancellationContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    clock: ctx.clock,
    carrier: ctx.services.carrier,
  };
}

const ADDRESSING =
  '`{orderId}` is the order (`ord_…`) or its sales record (`sal_…`); an unknown or foreign id, or a fulfillment of another order, is the neutral `404 RESOURCE_NOT_FOUND`.';
const OWNER_OR_ADMIN = 'Owner or Admin; Staff get `403 FORBIDDEN` whatever their groups.';

export const merchantShipmentCancellationsRouter = router({
  cancelPreparedShipment: operator
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
    }),

  carrierCheck: ownerOrAdmin
    .meta({
      openapi: {
        method: 'POST',
        path: `${BASE}/cancel-prepared-shipment/carrier-check`,
        tags: TAGS,
        summary: 'Ask the carrier about an exhausted void',
        description: `${OWNER_OR_ADMIN} ${ADDRESSING} Body \`{}\`. For the fulfillment's \`EXHAUSTED\` cancellation, at most once a minute, else \`409 CARRIER_CHECK_NOT_ALLOWED\` (\`details { status, allowedAfter }\`). Reads the label's status once (never requests a void): voided is evidence (\`CARRIER_CHECK\`) and closes it \`VOIDED\`; active or void rejected closes it \`REJECTED\` with the label back \`ACTIVE\`; still pending is appended to \`checks[]\`; a failed read is \`503 PROVIDER_UNAVAILABLE\` (it counts as the minute's check). Audited as \`shipping_label.carrier_checked\` (\`result\`). Answers \`200\` with the fulfillment.`,
      },
      errors: ['CARRIER_CHECK_NOT_ALLOWED', 'PROVIDER_UNAVAILABLE'],
    })
    .input(carrierCheckInputSchema)
    .output(fulfillmentSchema)
    .mutation(({ ctx, input }) => checkCarrierForCancellation(ctx.db, cancellationContext(ctx), input)),

  acknowledgeRetiredPostage: ownerOrAdmin
    .meta({
      openapi: {
        method: 'POST',
        path: `${BASE}/retired-postage-acknowledgement`,
        tags: TAGS,
        summary: 'Retire external or legacy postage by acknowledgement',
        description: `${OWNER_OR_ADMIN} ${ADDRESSING} Body \`{ reason (1 to 500), acknowledge: true }\`. The \`READY\` fulfillment's current \`EXTERNAL\` or \`LEGACY\` postage in \`ACTIVE\` becomes \`RETIRED\` with \`retirementEvidence { source: MERCHANT_ACKNOWLEDGEMENT, actorUserId, reason, at }\`; no provider is called and the fulfillment stays \`READY\` (handoff is then \`409 HANDOFF_BLOCKED\` \`POSTAGE_RETIRED\` until it gets new postage or is cancelled). Native postage, or none current, is \`409 POSTAGE_NOT_RETIRABLE\`; a fulfillment not \`READY\` \`409 INVALID_STATE_TRANSITION\`. Audited as \`shipping_label.retirement_acknowledged\`. Answers \`200\` with the fulfillment.`,
      },
      errors: ['INVALID_STATE_TRANSITION', 'POSTAGE_NOT_RETIRABLE'],
    })
    .input(retiredPostageAcknowledgementInputSchema)
    .output(fulfillmentSchema)
    .mutation(({ ctx, input }) => acknowledgeRetiredPostage(ctx.db, cancellationContext(ctx), input)),
});
