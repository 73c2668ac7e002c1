import { actionPreviewSchema, actionTokenInputSchema, previewAction } from '@commerce/orders';
import { tenantProcedure } from '../../../trpc.ts';
import { TAGS, TOKEN } from './docs.ts';

export const previewProcedure = tenantProcedure
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
  );
