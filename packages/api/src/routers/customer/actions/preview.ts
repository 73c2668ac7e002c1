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
      description: `Read-only: the token stays usable. A used token still previews until it expires, with every action disabled and the recorded result. ${TOKEN}`,
    },
    rateLimit: 'public-read',
  })
  .input(actionTokenInputSchema)
  .output(actionPreviewSchema)
  .query(({ ctx, input }) =>
    previewAction(ctx.db, { organizationId: ctx.tenant.organizationId, at: ctx.clock.now() }, input.token),
  );
