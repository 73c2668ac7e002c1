import { pageSchema } from '@commerce/core';
import { IDEMPOTENT_REPLAYED_HEADER, type MerchantUser, readIdempotencyKey } from '@commerce/db';
import {
  getLabelPurchase,
  type LabelPurchaseContext,
  labelPurchaseListQuerySchema,
  labelPurchasePathSchema,
  labelPurchaseResultSchema,
  labelPurchaseSchema,
  labelReconcileResultSchema,
  listLabelPurchases,
  purchaseShippingLabel,
  purchaseShippingLabelInputSchema,
  quoteShippingLabel,
  reconcileLabelPurchase,
  reconcileLabelPurchaseInputSchema,
  shippingLabelQuoteInputSchema,
  shippingLabelQuoteSchema,
} from '@commerce/fulfillment';
import type { ApiContext } from '../../context.ts';
import { merchantProcedure, merchantProcedureWith, router } from '../../trpc.ts';

const TAGS = ['Merchant: fulfillments'];

/** Label work needs `fulfillment:operate` (CONTRACT-fulfillment.md 13.1). */
const operator = merchantProcedureWith('fulfillment:operate');

type MerchantContext = ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser };

function labelContext(ctx: MerchantContext): LabelPurchaseContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    clock: ctx.clock,
    carrier: ctx.services.carrier,
    carrierTimeoutMs: ctx.config.carrier.timeoutMs,
  };
}

const readContext = (ctx: MerchantContext) => ({
  organizationId: ctx.tenant.organizationId,
  now: ctx.clock.now(),
  carrierTimeoutMs: ctx.config.carrier.timeoutMs,
});

const ADDRESSING =
  '`{orderId}` is the order (`ord_…`) or its sales record (`sal_…`); an unknown or foreign id, or a purchase of another order, is the neutral `404 RESOURCE_NOT_FOUND`.';
const RECONCILIATION =
  '`reconciliation { status, allowed, allowedAfter, attempts, lastCheckedAt, outcome }` is derived on every read: `NOT_REQUIRED` (settled by its own call), `IN_FLIGHT` (`PENDING`, claimed less than `max(120 s, 2 × CARRIER_TIMEOUT_MS)` ago), `ALLOWED` (`UNCERTAIN`, or `PENDING` past that window), `COOLING_DOWN` (as `ALLOWED`, but a reconcile ran less than 30 s ago; `allowedAfter`), `RESOLVED` (settled by a reconcile; `outcome` `PURCHASED` or `NOT_PURCHASED`).';

export const merchantShippingLabelsRouter = router({
  quote: operator
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/orders/{orderId}/shipping-label/quote',
        tags: TAGS,
        summary: 'Quote a shipping label',
        description: [
          '`{orderId}` is the order (`ord_…`) or its sales record (`sal_…`); an unknown or foreign id is `404`. Writes nothing, allocates no lines, buys no postage: it asks the carrier for the exact charge and the balance once each.',
          "Body: `lines` (1 to 100 distinct PRODUCT lines `{ lineId, quantity }`, else `400` at `lines.N.lineId`), `package` as planned fulfillments take it (`{ boxPresetId, boxPresetRevision?, loadedWeightGrams }`, rated by the preset's outer dimensions, or custom outer `{ lengthMm, widthMm, heightMm, loadedWeightGrams }`; sides 1 to 3000 mm, weight 1 to 150000 g; an unknown preset, or a weight below its tare or above its `maxLoadGrams`, is `400` at `package.…`; an archived preset or a stale `boxPresetRevision` is `409 STALE_STATE`), `carrier` and `service` (a pair of `GET /merchant/shipping/carriers`, else `400`), `fulfillmentId` (optional: a `PLANNED` fulfillment, or a `READY` one whose postage was voided or retired; `lines` must equal its lines, else `400`; another record's is `404`). Ship-from is `businessProfile.shipFromAddress`, ship-to the order's shipping address.",
          'Whatever stops a purchase is a blocker in the `200`, classification `BLOCKED`: `ORDER_NOT_FULFILLABLE`, `LINES_UNAVAILABLE`, `LINES_HELD_BY_UNSETTLED_PURCHASE`, `FULFILLMENT_NOT_LABELABLE`, `SHIP_FROM_ADDRESS_MISSING`, `SHIP_TO_ADDRESS_MISSING`, and the carrier refusing the route (`SERVICE_UNAVAILABLE`) or package (`PACKAGE_EXCEEDS_SERVICE_LIMITS`). Otherwise `HIGH_RISK` for a charge of 5000 or more, or over 3 times the shipping the order collected (the purchase needs a spend `reason`); `REVIEW_REQUIRED` when an acknowledgement is required (`PACKAGE_OVERRIDE` and `WEIGHT_BELOW_CATALOG` also need an `overrideReason`; `CHARGE_EXCEEDS_COLLECTED_SHIPPING`); else `STANDARD`.',
          '`selectionQuoteFingerprint` (`sqf1_…`, null without a charge) binds the record, fulfillment, lines, package and weight, carrier and service, both addresses, the charge and what the purchase must acknowledge; never funding, so a top-up does not invalidate it. `funding` is the balance less the charges of unsettled purchases, `UNKNOWN` when the balance cannot be read; funds are never added automatically.',
          'A rate the carrier could not give (unreachable, or no answer within `CARRIER_TIMEOUT_MS`) is `503 PROVIDER_UNAVAILABLE`; any other refusal `502 PROVIDER_ERROR` with `details.providerCode`.',
        ].join('\n\n'),
      },
      errors: ['PROVIDER_ERROR', 'PROVIDER_UNAVAILABLE', 'STALE_STATE'],
    })
    .input(shippingLabelQuoteInputSchema)
    .output(shippingLabelQuoteSchema)
    .mutation(({ ctx, input }) =>
      quoteShippingLabel(
        ctx.db,
        { organizationId: ctx.tenant.organizationId, carrier: ctx.services.carrier },
        input,
      ),
    ),

  purchase: operator
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
    }),

  listPurchases: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/orders/{orderId}/shipping-label/purchases',
        tags: TAGS,
        summary: "An order's label purchases, oldest first",
        description: [
          `Open to any member. ${ADDRESSING}`,
          'Every purchase of the order, failed ones included, oldest first (by id), keyset-paginated: pass `nextCursor` as `cursor` (`limit` 1 to 200, default 50); a cursor naming no purchase of the order is `400`.',
          RECONCILIATION,
        ].join('\n\n'),
      },
    })
    .input(labelPurchaseListQuerySchema)
    .output(pageSchema(labelPurchaseSchema))
    .query(({ ctx, input }) => listLabelPurchases(ctx.db, readContext(ctx), input)),

  getPurchase: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/orders/{orderId}/shipping-label/purchases/{purchaseId}',
        tags: TAGS,
        summary: 'A label purchase',
        description: `Open to any member. ${ADDRESSING} ${RECONCILIATION}`,
      },
    })
    .input(labelPurchasePathSchema)
    .output(labelPurchaseSchema)
    .query(({ ctx, input }) => getLabelPurchase(ctx.db, readContext(ctx), input)),

  reconcilePurchase: operator
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/orders/{orderId}/shipping-label/purchases/{purchaseId}/reconcile',
        tags: TAGS,
        summary: 'Ask the carrier what became of an unsettled label purchase',
        description: [
          `${ADDRESSING} Needs \`fulfillment:operate\`. Body \`{}\`; \`x-idempotency-key\` is ignored: the purchase's state guards the route.`,
          `Unless its reconciliation is \`allowed\`, \`409 RECONCILE_NOT_ALLOWED\` (\`details.reconciliation\`). The attempt is recorded (a reconcile then waits 30 s, answered or not) and the carrier is asked once whether it sold a label under the purchase id; it never buys. Sold: the purchase settles \`PURCHASED\` as a purchase would, \`200 { purchase, fulfillment }\`, and a retry of the purchase with its key replays the \`201\`. Not sold: \`FAILED\` (\`NOT_PURCHASED\`), its units and key released, \`200 { purchase }\`. A carrier that cannot say, or cannot be read, changes nothing: \`503 PROVIDER_UNAVAILABLE\`. Audited as \`shipping_label.reconciled\` (\`outcome\`).`,
          RECONCILIATION,
        ].join('\n\n'),
      },
      errors: ['PROVIDER_UNAVAILABLE', 'RECONCILE_NOT_ALLOWED'],
    })
    .input(reconcileLabelPurchaseInputSchema)
    .output(labelReconcileResultSchema)
    .mutation(({ ctx, input }) => reconcileLabelPurchase(ctx.db, labelContext(ctx), input)),
});
