import { getSettings } from '@commerce/admin';
import {
  actionPreviewSchema,
  actionResultSchema,
  actionTokenInputSchema,
  performAction,
  previewAction,
  requestReturnActionSchema,
} from '@commerce/orders';
import { customerEmailConfig } from '../../hosted-origin.ts';
import { router, tenantProcedure } from '../../trpc.ts';

const TAGS = ['Customer: actions'];

const TOKEN =
  'The `a1_` token is the credential (no sign-in), and is scoped to its store: the `x-organization-slug` header is required. An unknown, malformed, expired, revoked or another store’s token is the same neutral `404 RESOURCE_NOT_FOUND`.';

export const customerActionsRouter = router({
  preview: tenantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/customer/actions/{token}',
        tags: TAGS,
        summary: 'Preview what an action token does',
        description: [
          'Read-only: nothing changes, and the token stays usable. Answers its `purpose`, `expiresAt`, the order (`orderReference`, `orderNumber`, `status`), the lines it covers with the quantity it may return of each and what it could return of each now (`returnableQuantity`), its `actions` (`REQUEST_RETURN` for `RETURN_REQUEST`) and whether each is enabled.',
          'A used token still previews until it expires or is revoked: `consumedAt` is set, every action is disabled and `result` is the recorded result of the action it performed.',
          TOKEN,
        ].join('\n\n'),
      },
      rateLimit: 'public-read',
    })
    .input(actionTokenInputSchema)
    .output(actionPreviewSchema)
    .query(({ ctx, input }) =>
      previewAction(ctx.db, { organizationId: ctx.tenant.organizationId, at: ctx.clock.now() }, input.token),
    ),

  perform: tenantProcedure
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
    }),
});
