import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '@commerce/db';
import {
  labelPurchaseResultSchema,
  purchaseShippingLabel,
  purchaseShippingLabelInputSchema,
} from '@commerce/orders';
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
        `${ADDRESSING} Needs \`fulfillment:operate\`. Header \`x-idempotency-key\` (alias \`Idempotency-Key\`; 16 to 255 of \`A-Z a-z 0-9 _ . : -\`) is required, else \`400\`; kept 30 days; either id of the pair is the same request.`,
        "Body: the quote body plus `selectionQuoteFingerprint` (required: the quote's `sqf1_…`), `acknowledgements` (default `[]`; codes of the quote's `acknowledgementsRequired`, unknown ones `400`), `overrideReason` (1 to 500; required with `PACKAGE_OVERRIDE` or `WEIGHT_BELOW_CATALOG`) and `reason` (1 to 500; the spend reason a `HIGH_RISK` label needs).",
        'The selection is recomputed as the quote computes it. Blockers: `409 ORDER_NOT_FULFILLABLE`; `409 LABEL_PURCHASE_UNSETTLED` (`details.purchaseId`) when an unsettled purchase holds a selected line or the fulfillment; `409 OVER_FULFILLMENT` (`details.lines`); for a fulfillment that cannot be labelled `409 PAID_POSTAGE_ACTIVE` (it has current postage) or `409 INVALID_STATE_TRANSITION`; `409 LABEL_NOT_PURCHASABLE` (`details.blockers`) for a missing address, a service that does not carry the route, or a package over its limits. A fingerprint that no longer matches is `409 QUOTE_FINGERPRINT_MISMATCH` with a fresh quote in `details.quote`; a missing acknowledgement or reason `409 LABEL_ACKNOWLEDGEMENT_REQUIRED` (`details.missing`). The balance less the charges of unsettled purchases must cover the charge (`409 INSUFFICIENT_POSTAGE_FUNDS`, `details { requiredInCents, availableInCents, shortfallInCents }`); a balance that cannot be read is `503 PROVIDER_UNAVAILABLE`.',
        'The claim (one transaction: the key, the order, the fulfillment, the lines and the postage account locked, lines and funds re-checked) records the purchase `PENDING` and allocates its units; then the carrier is asked once, outside any transaction, with the purchase id as its client reference. `201 { purchase, fulfillment }` when it sells the label: the purchase `PURCHASED`, the fulfillment `READY` (the named `PLANNED` one, or a new `NATIVE_LABEL` one holding the units) with postage `NATIVE ACTIVE`; the label document is fetched and stored (`postage.labelAvailable`), and retried by the worker when that fails. A refusal is `502 PROVIDER_ERROR` (`details { purchaseId, providerCode }`), a carrier not reached `503 PROVIDER_UNAVAILABLE` (`details.purchaseId`): the purchase is `FAILED`, its units and key released. No answer is `503 LABEL_PURCHASE_UNCERTAIN` (`details { purchaseId, reconciliation }`): the purchase is `UNCERTAIN`, units, charge and key kept until a reconcile.',
        'The same key while bound: `409 LABEL_PURCHASE_IN_PROGRESS` while the purchase is in flight, `503 LABEL_PURCHASE_UNCERTAIN` once it is uncertain, never a second carrier call; once bought, the `201` replays (read now, `idempotent-replayed: true`), also after a reconcile found it bought. After a failure the key is free and a retry is a new purchase. Another body under the key is `409 IDEMPOTENCY_KEY_REUSED`.',
        'Audited as `shipping_label.purchase_claimed`, then `shipping_label.purchased`, `.purchase_failed` or `.purchase_uncertain`.',
      ].join('\n\n'),
    },
    successStatus: 201,
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
