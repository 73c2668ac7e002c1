import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '@commerce/db';
import {
  labelPurchaseResultSchema,
  purchaseShippingLabel,
  purchaseShippingLabelInputSchema,
} from '@commerce/fulfillment';
import { ADDRESSING, TAGS } from './docs.ts';
import { labelContext, operator } from './label-access.ts';

export const purchaseProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/orders/{orderId}/shipping-label',
      tags: TAGS,
      summary: 'Buy a shipping label',
      description: [
        "The `x-idempotency-key` is required. The selection is recomputed as the quote computes it: a fingerprint that no longer matches is `409 QUOTE_FINGERPRINT_MISMATCH` with a fresh quote; the quote's blockers, a missing acknowledgement or reason, or funds (the balance less unsettled charges) short of the charge are `409` too.",
        'The purchase is claimed `PENDING` (its units allocated) in one transaction, then the carrier is asked once, outside it. Sold: `201` with the `READY` fulfillment and its postage; the label document is stored, retried by the worker. Refused or unreachable: the purchase fails and its units and key are released. No answer: `503 LABEL_PURCHASE_UNCERTAIN`, everything kept until a reconcile.',
        `The same key never calls the carrier twice: in flight \`409 LABEL_PURCHASE_IN_PROGRESS\`, uncertain \`503\`, bought the \`201\` replayed. After a failure the key is free. ${ADDRESSING} Needs \`fulfillment:operate\`.`,
      ].join('\n\n'),
    },
    successStatus: 201,
    idempotencyKey: 'required',
    errors: [
      'IDEMPOTENCY_KEY_REUSED',
      'INSUFFICIENT_POSTAGE_FUNDS',
      'INVALID_STATE_TRANSITION',
      'LABEL_ACKNOWLEDGEMENT_REQUIRED',
      'LABEL_NOT_PURCHASABLE',
      'LABEL_PURCHASE_IN_PROGRESS',
      'LABEL_PURCHASE_UNCERTAIN',
      'LABEL_PURCHASE_UNSETTLED',
      'ORDER_NOT_FULFILLABLE',
      'OVER_FULFILLMENT',
      'PAID_POSTAGE_ACTIVE',
      'PROVIDER_ERROR',
      'PROVIDER_UNAVAILABLE',
      'QUOTE_FINGERPRINT_MISMATCH',
      'STALE_STATE',
    ],
  })
  .input(purchaseShippingLabelInputSchema)
  .output(labelPurchaseResultSchema)
  .mutation(async ({ ctx, input }) => {
    const key = readIdempotencyKey(ctx.request.headers, { required: true });
    const { body, replayed } = await purchaseShippingLabel(ctx.db, labelContext(ctx), input, key);
    if (replayed) ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return body;
  });
