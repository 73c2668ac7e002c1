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
        'Body `{ action: "REQUEST_RETURN", lines: [{ lineId, quantity, reason, note? }] }` for a `RETURN_REQUEST` token: lines among the token’s, each at most the token’s quantity (otherwise `400`, `lines.N.lineId` or `lines.N.quantity`). The return is judged as `POST …/returns` judges it (`409 RETURN_NOT_ELIGIBLE`, `409 OVER_RETURN`); a refused request records nothing and the token stays usable. Success: `200 { action, return }`, the return in `REQUESTED` with `channel: ACTION_TOKEN`, and the `RETURN_REQUESTED` email queued.',
        'The token performs one action. Repeating the same request (the same body, whatever the key order) answers the recorded result again, with the header `idempotent-replayed: true`, and changes nothing; any other request after that is `409 ACTION_TOKEN_CONSUMED`. Concurrent requests are serialised on the token, so the action happens once.',
        TOKEN,
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
