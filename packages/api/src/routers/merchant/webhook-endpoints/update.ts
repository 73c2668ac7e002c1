import {
  updateWebhookEndpoint,
  updateWebhookEndpointInputSchema,
  webhookEndpointSchema,
} from '@commerce/notifications/webhooks';
import { writeContext } from '../../../write-context.ts';
import { manager, webhookSettings } from './access.ts';
import { ACCESS, BASE, TAGS, URL_RULES } from './docs.ts';

export const updateProcedure = manager
  .meta({
    openapi: {
      method: 'PATCH',
      path: `${BASE}/{id}`,
      tags: TAGS,
      summary: 'Change a webhook endpoint',
      description: `Any of \`url\`, \`events\`, \`description\`, \`status\`. Enabling an endpoint the server disabled clears its failure record. ${URL_RULES} ${ACCESS}`,
    },
  })
  .input(updateWebhookEndpointInputSchema)
  .output(webhookEndpointSchema)
  .mutation(({ ctx, input }) =>
    updateWebhookEndpoint(ctx.db, writeContext(ctx), webhookSettings(ctx), input),
  );
