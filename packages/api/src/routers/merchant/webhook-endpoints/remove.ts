import { deleteWebhookEndpoint, webhookEndpointActionInputSchema } from '@commerce/notifications/webhooks';
import { z } from 'zod';
import { writeContext } from '../../../write-context.ts';
import { manager } from './access.ts';
import { ACCESS, BASE, TAGS } from './docs.ts';

export const removeProcedure = manager
  .meta({
    openapi: {
      method: 'DELETE',
      path: `${BASE}/{id}`,
      tags: TAGS,
      summary: 'Delete a webhook endpoint',
      description: `With its delivery history; its pending deliveries are not sent. ${ACCESS}`,
    },
    successStatus: 204,
  })
  .input(webhookEndpointActionInputSchema)
  .output(z.void())
  .mutation(async ({ ctx, input }) => {
    await deleteWebhookEndpoint(ctx.db, writeContext(ctx), input.id);
  });
