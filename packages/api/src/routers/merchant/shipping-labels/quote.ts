import {
  quoteShippingLabel,
  shippingLabelQuoteInputSchema,
  shippingLabelQuoteSchema,
} from '@commerce/orders';
import { TAGS } from './docs.ts';
import { operator } from './label-access.ts';

export const quoteProcedure = operator
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
  );
