import { fulfillmentSchema, repairTracking, repairTrackingInputSchema } from '@commerce/orders';
import { z } from 'zod';
import { emailingWriteContext } from '../../../write-context.ts';
import { OPERATOR, TAGS } from './docs.ts';
import { operator } from './fulfillment-access.ts';

export const repairTrackingProcedure = operator
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/orders/{id}/tracking',
      tags: TAGS,
      summary: "Repair the tracking of an order's one past shipment",
      description: [
        `${OPERATOR} \`{id}\` is the order (\`ord_…\`) or its sales record (\`sal_…\`); an unknown id or another organization’s is the neutral \`404\`. \`x-idempotency-key\` is ignored: the same values again change nothing.`,
        'Body: at least one of `carrier` (1 to 50), `trackingNumber` (1 to 100 letters, digits, spaces, hyphens), `trackingUrl` (https, at most 2000), each `null` to clear it; `expectedFulfillmentId?`, the fulfillment the client means. Unknown keys are `400`. The result keeps a carrier and a number together, or neither and then no URL; else `400` at the field.',
        'Edit-only: it repairs the tracking of the order’s one `SHIPPED` or `DELIVERED` fulfillment whose tracking is not from a native label (origin `DIRECT` or `LEGACY`, or `PLANNED` with external postage). It never creates, assigns or advances a fulfillment, changes no counter, stock, postage or outbox row and sends no email; allowed whatever the order’s state. None or several such fulfillments is `409 TRACKING_HISTORY_AMBIGUOUS` (`details.compatibleCount`): it never picks one. `expectedFulfillmentId` naming another fulfillment is `409 STALE_STATE` (`details.fulfillmentId`, the repairable one).',
        'The repaired tracking is the fulfillment’s own from then on (shown in its `tracking` and the customer’s `shipments[]`); its postage stays as recorded. A change bumps `version` and is audited as `fulfillment.tracking_repaired` with the changed `fields`. Answers `200 { fulfillment }`.',
      ].join('\n\n'),
    },
    errors: ['STALE_STATE', 'TRACKING_HISTORY_AMBIGUOUS'],
  })
  .input(repairTrackingInputSchema)
  .output(z.object({ fulfillment: fulfillmentSchema }).meta({ id: 'TrackingRepair' }))
  .mutation(({ ctx, input }) => repairTracking(ctx.db, emailingWriteContext(ctx), input));
