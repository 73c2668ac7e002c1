import { pageSchema } from '@commerce/core';
import {
  listWebhookEndpoints,
  webhookEndpointListQuerySchema,
  webhookEndpointSchema,
} from '@commerce/notifications/webhooks';
import { manager } from './access.ts';
import { ACCESS, BASE, TAGS } from './docs.ts';

export const listProcedure = manager
  .meta({
    openapi: {
      method: 'GET',
      path: BASE,
      tags: TAGS,
      summary: "The organization's webhook endpoints",
      description: `Oldest first, keyset-paginated. Secrets are never listed. ${ACCESS}`,
    },
  })
  .input(webhookEndpointListQuerySchema)
  .output(pageSchema(webhookEndpointSchema))
  .query(({ ctx, input }) => listWebhookEndpoints(ctx.db, ctx.tenant.organizationId, input, ctx.clock.now()));
