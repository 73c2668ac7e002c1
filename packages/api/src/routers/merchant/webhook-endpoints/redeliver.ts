import {
  redeliverInputSchema,
  redeliverWebhookDelivery,
  webhookDeliverySchema,
} from '@commerce/notifications/webhooks';
import { writeContext } from '../../../write-context.ts';
import { manager } from './access.ts';
import { ACCESS, BASE, TAGS } from './docs.ts';

export const redeliverProcedure = manager
  .meta({
    openapi: {
      method: 'POST',
      path: `${BASE}/{id}/deliveries/{deliveryId}/redeliver`,
      tags: TAGS,
      summary: 'Send a delivered or failed event again',
      description: `Queues a new delivery of the same event (same \`webhook-id\` and body), due now. A disabled endpoint is \`409 INVALID_STATE_TRANSITION\`. ${ACCESS}`,
    },
    successStatus: 201,
    errors: ['INVALID_STATE_TRANSITION'],
  })
  .input(redeliverInputSchema)
  .output(webhookDeliverySchema)
  .mutation(({ ctx, input }) => redeliverWebhookDelivery(ctx.db, writeContext(ctx), input));
