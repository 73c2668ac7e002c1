import { getSettings } from '@commerce/admin';
import {
  actionResultSchema,
  actionTokenInputSchema,
  performAction,
  requestReturnActionSchema,
} from '@commerce/orders';
import { customerEmailConfig } from '../../../hosted-origin.ts';
import { tenantProcedure } from '../../../trpc.ts';
import { TAGS, TOKEN } from './docs.ts';

export const performProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/customer/actions/{token}',
      tags: TAGS,
      summary: 'Perform the action of a token, once',
      description: [
        'The return is judged as the signed-in return request judges it; a refused request records nothing and the token stays usable.',
        `The token performs one action: the same request again (same body, any key order) answers the recorded result with \`idempotent-replayed: true\`; any other request after it is \`409 ACTION_TOKEN_CONSUMED\`. Concurrent requests queue on the token. ${TOKEN}`,
      ].join('\n\n'),
    },
    rateLimit: 'public-read',
    errors: ['RETURN_NOT_ELIGIBLE', 'OVER_RETURN', 'ACTION_TOKEN_CONSUMED'],
  })
  .input(requestReturnActionSchema.extend(actionTokenInputSchema.shape))
  .output(actionResultSchema)
  .mutation(async ({ ctx, input }) => {
    const { token, ...body } = input;
    const at = ctx.clock.now();
    const organizationId = ctx.tenant.organizationId;
    const settings = await getSettings(ctx.db, organizationId, at);
    const { result, isReplay } = await performAction(
      ctx.db,
      {
        organizationId,
        returnWindowDays: settings.checkoutSettings.returnWindowDays,
        email: customerEmailConfig(ctx),
        at,
      },
      token,
      body,
    );
    if (isReplay) ctx.resHeaders.set('idempotent-replayed', 'true');
    return result;
  });
