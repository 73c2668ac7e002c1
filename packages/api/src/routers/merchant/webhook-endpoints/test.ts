import {
  sendWebhookTestEvent,
  webhookDeliverySchema,
  webhookEndpointActionInputSchema,
} from '@commerce/notifications/webhooks';
import { writeContext } from '../../../write-context.ts';
import { manager } from './access.ts';
import { ACCESS, BASE, TAGS } from './docs.ts';

export const testProcedure = manager
  .meta({
    openapi: {
      method: 'POST',
      path: `${BASE}/{id}/test`,
      tags: TAGS,
      summary: 'Send a test event',
      description: `Queues a \`webhook.test\` event for this endpoint only; follow it in the delivery list. A disabled endpoint is \`409 INVALID_STATE_TRANSITION\`. ${ACCESS}`,
    },
    successStatus: 201,
    errors: ['INVALID_STATE_TRANSITION'],
  })
  .input(webhookEndpointActionInputSchema)
  .output(webhookDeliverySchema)
  .mutation(({ ctx, input }) => sendWebhookTestEvent(ctx.db, writeContext(ctx), input.id));
