import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey, withIdempotency } from '@commerce/db';
import {
  createWebhookEndpoint,
  createWebhookEndpointInputSchema,
  readWebhookEndpointWithSecret,
  webhookEndpointWithSecretSchema,
} from '@commerce/notifications/webhooks';
import { writeContext } from '../../../write-context.ts';
import { manager, webhookSettings } from './access.ts';
import { ACCESS, BASE, TAGS, URL_RULES } from './docs.ts';

export const createProcedure = manager
  .meta({
    openapi: {
      method: 'POST',
      path: BASE,
      tags: TAGS,
      summary: 'Register a webhook endpoint',
      description: [
        'Answers the endpoint with its `whsec_…` signing secret, shown in this answer only (and in a replay under the same `x-idempotency-key`). At most 20 endpoints per organization (`409 WEBHOOK_ENDPOINT_LIMIT_REACHED`).',
        `${URL_RULES} ${ACCESS}`,
      ].join('\n\n'),
    },
    successStatus: 201,
    idempotencyKey: 'optional',
    errors: ['WEBHOOK_ENDPOINT_LIMIT_REACHED', 'IDEMPOTENCY_KEY_REUSED', 'SERVICE_UNAVAILABLE'],
  })
  .input(createWebhookEndpointInputSchema)
  .output(webhookEndpointWithSecretSchema)
  .mutation(async ({ ctx, input }) => {
    const settings = webhookSettings(ctx);
    const write = writeContext(ctx);
    const key = readIdempotencyKey(ctx.request.headers);
    if (key === undefined) return createWebhookEndpoint(ctx.db, write, settings, input);
    const outcome = await withIdempotency(
      ctx.db,
      {
        organizationId: write.organizationId,
        operation: `POST ${BASE}`,
        key,
        intent: { body: input },
        retention: 'standard',
        now: write.at,
      },
      async (trx) => ({ status: 201, body: await createWebhookEndpoint(trx, write, settings, input) }),
      {
        // The secret is never recorded: a replay derives it again from the endpoint.
        toRecord: ({ secret: _secret, ...endpoint }) => endpoint,
        fromRecord: (trx, recorded) =>
          readWebhookEndpointWithSecret(
            trx,
            write.organizationId,
            settings,
            (recorded.body as { id: string }).id,
            write.at,
          ),
      },
    );
    if (outcome.replayed) ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return outcome.body;
  });
