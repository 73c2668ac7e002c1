import {
  carrierCheckInputSchema,
  checkCarrierForCancellation,
  fulfillmentSchema,
} from '@commerce/fulfillment';
import { cancellationContext, ownerOrAdmin } from './cancellation-access.ts';
import { ADDRESSING, BASE, OWNER_OR_ADMIN, TAGS } from './docs.ts';

export const carrierCheckProcedure = ownerOrAdmin
  .meta({
    openapi: {
      method: 'POST',
      path: `${BASE}/cancel-prepared-shipment/carrier-check`,
      tags: TAGS,
      summary: 'Ask the carrier about an exhausted void',
      description: `For an \`EXHAUSTED\` cancellation, at most once a minute (else \`409 CARRIER_CHECK_NOT_ALLOWED\`): reads the label's status once and never requests a void. Voided or rejected closes the cancellation; a failed read still counts as the minute's check. ${OWNER_OR_ADMIN} ${ADDRESSING}`,
    },
    errors: ['CARRIER_CHECK_NOT_ALLOWED', 'PROVIDER_UNAVAILABLE'],
  })
  .input(carrierCheckInputSchema)
  .output(fulfillmentSchema)
  .mutation(({ ctx, input }) => checkCarrierForCancellation(ctx.db, cancellationContext(ctx), input));
