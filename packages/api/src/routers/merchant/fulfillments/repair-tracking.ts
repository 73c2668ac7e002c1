import { fulfillmentSchema, repairTracking, repairTrackingInputSchema } from '@commerce/fulfillment';
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
        "Edit-only: repairs the tracking of the order's one shipped or delivered fulfillment whose tracking is not from a native label, whatever the order's state. It never creates or advances a fulfillment, and changes no stock, postage or email. None or several such fulfillments is `409 TRACKING_HISTORY_AMBIGUOUS` (it never picks one); an `expectedFulfillmentId` naming another is `409 STALE_STATE`.",
        `\`{id}\` is the order or its sales record. The same values again change nothing. ${OPERATOR}`,
      ].join('\n\n'),
    },
    errors: ['STALE_STATE', 'TRACKING_HISTORY_AMBIGUOUS'],
  })
  .input(repairTrackingInputSchema)
  .output(z.object({ fulfillment: fulfillmentSchema }).meta({ id: 'TrackingRepair' }))
  .mutation(({ ctx, input }) => repairTracking(ctx.db, emailingWriteContext(ctx), input));
