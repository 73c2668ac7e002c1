import { createHash } from 'node:crypto';
import { AppError } from '@commerce/core';
import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey, withIdempotency } from '@commerce/db';
import {
  assertWebhookUrlAllowed,
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
        'Answers the endpoint with its `whsec_…` signing secret, shown in this answer only (and in a replay under the same `x-idempotency-key`, as long as the secret was not rotated since: then the replay is `409 STALE_STATE`, and a new secret comes from rotate-secret). At most 20 endpoints per organization (`409 WEBHOOK_ENDPOINT_LIMIT_REACHED`).',
        `${URL_RULES} ${ACCESS}`,
      ].join('\n\n'),
    },
    successStatus: 201,
    idempotencyKey: 'optional',
    errors: [
      'WEBHOOK_ENDPOINT_LIMIT_REACHED',
      'IDEMPOTENCY_KEY_REUSED',
      'STALE_STATE',
      'SERVICE_UNAVAILABLE',
    ],
  })
  .input(createWebhookEndpointInputSchema)
  .output(webhookEndpointWithSecretSchema)
  .mutation(async ({ ctx, input }) => {
    const settings = webhookSettings(ctx);
    const write = writeContext(ctx);
    const key = readIdempotencyKey(ctx.request.headers);
    if (key === undefined) return createWebhookEndpoint(ctx.db, write, settings, input);
    // The URL's host is resolved before the idempotency record's transaction opens.
    await assertWebhookUrlAllowed(input.url, settings);
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
      async (trx) => ({
        status: 201,
        body: await createWebhookEndpoint(trx, write, settings, input, { urlChecked: true }),
      }),
      {
        // The secret is never recorded, only its digest: a replay derives it again from the endpoint,
        // and answers it only while it is still the secret this create made (a replay must never
        // hand out a secret a rotation made since).
        toRecord: ({ secret, ...endpoint }) => ({ ...endpoint, secretDigest: digestOf(secret) }),
        fromRecord: async (trx, recorded) => {
          const { id, secretDigest } = recorded.body as { id: string; secretDigest?: string };
          const endpoint = await readWebhookEndpointWithSecret(
            trx,
            write.organizationId,
            settings,
            id,
            write.at,
          );
          if (digestOf(endpoint.secret) !== secretDigest)
            throw new AppError(
              'STALE_STATE',
              "The endpoint's secret was rotated since this create; the create is not replayed. Rotate the secret again for a new one.",
            );
          return endpoint;
        },
      },
    );
    if (outcome.replayed) ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return outcome.body;
  });

function digestOf(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}
