import {
  quoteShippingLabel,
  shippingLabelQuoteInputSchema,
  shippingLabelQuoteSchema,
} from '@commerce/fulfillment';
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
        "Writes nothing: asks the carrier for the exact charge and the balance once each. Ship-from is the business profile's ship-from address; ship-to, the order's.",
        'Whatever would stop a purchase is a blocker in the `200` (classification `BLOCKED`); otherwise the classification says what the purchase needs (`HIGH_RISK`: a spend `reason`; `REVIEW_REQUIRED`: acknowledgements). `selectionQuoteFingerprint` binds everything the purchase depends on except funding, so a top-up does not invalidate it. Funds are never added automatically.',
        '`{orderId}` is the order (`ord_…`) or its sales record (`sal_…`); any other id is `404`.',
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
