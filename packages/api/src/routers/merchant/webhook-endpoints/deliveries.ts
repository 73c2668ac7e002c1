import { pageSchema } from '@commerce/core';
import {
  listWebhookDeliveries,
  webhookDeliveryListQuerySchema,
  webhookDeliverySchema,
} from '@commerce/notifications/webhooks';
import { manager } from './access.ts';
import { ACCESS, BASE, TAGS } from './docs.ts';

export const deliveriesProcedure = manager
  .meta({
    openapi: {
      method: 'GET',
      path: `${BASE}/{id}/deliveries`,
      tags: TAGS,
      summary: "A webhook endpoint's deliveries",
      description: `Newest first, keyset-paginated: status, attempts, the last answer's status, duration and first 2048 characters. Kept 30 days after they finish. ${ACCESS}`,
    },
  })
  .input(webhookDeliveryListQuerySchema)
  .output(pageSchema(webhookDeliverySchema))
  .query(({ ctx, input }) => listWebhookDeliveries(ctx.db, ctx.tenant.organizationId, input));
