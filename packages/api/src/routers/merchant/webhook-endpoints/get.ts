import {
  getWebhookEndpoint,
  webhookEndpointActionInputSchema,
  webhookEndpointSchema,
} from '@commerce/notifications/webhooks';
import { manager } from './access.ts';
import { ACCESS, BASE, TAGS } from './docs.ts';

export const getProcedure = manager
  .meta({
    openapi: {
      method: 'GET',
      path: `${BASE}/{id}`,
      tags: TAGS,
      summary: 'One webhook endpoint',
      description: `Without its secret. ${ACCESS}`,
    },
  })
  .input(webhookEndpointActionInputSchema)
  .output(webhookEndpointSchema)
  .query(({ ctx, input }) =>
    getWebhookEndpoint(ctx.db, ctx.tenant.organizationId, input.id, ctx.clock.now()),
  );
