import {
  rotateWebhookEndpointSecret,
  webhookEndpointActionInputSchema,
  webhookEndpointWithSecretSchema,
} from '@commerce/notifications/webhooks';
import { writeContext } from '../../../write-context.ts';
import { manager, webhookSettings } from './access.ts';
import { ACCESS, BASE, TAGS } from './docs.ts';

export const rotateSecretProcedure = manager
  .meta({
    openapi: {
      method: 'POST',
      path: `${BASE}/{id}/rotate-secret`,
      tags: TAGS,
      summary: "Rotate a webhook endpoint's secret",
      description: `Answers the new secret, shown in this answer only. The old one keeps signing beside it for 24 hours (\`previousSecretExpiresAt\`): each delivery then carries both \`v1,\` signatures, so a receiver can switch without missing an event. ${ACCESS}`,
    },
    successStatus: 201,
    errors: ['SERVICE_UNAVAILABLE'],
  })
  .input(webhookEndpointActionInputSchema)
  .output(webhookEndpointWithSecretSchema)
  .mutation(({ ctx, input }) =>
    rotateWebhookEndpointSecret(ctx.db, writeContext(ctx), webhookSettings(ctx), input.id),
  );
