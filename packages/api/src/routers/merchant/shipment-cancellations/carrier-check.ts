import { carrierCheckInputSchema, checkCarrierForCancellation, fulfillmentSchema } from '@commerce/orders';
import { cancellationContext, ownerOrAdmin } from './cancellation-access.ts';
import { ADDRESSING, BASE, OWNER_OR_ADMIN, TAGS } from './docs.ts';

export const carrierCheckProcedure = ownerOrAdmin
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
  .mutation(({ ctx, input }) => checkCarrierForCancellation(ctx.db, cancellationContext(ctx), input));
