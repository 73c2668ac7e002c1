import { resolvedLinkTokenSchema, resolveLinkToken, resolveLinkTokenInputSchema } from '@commerce/customers';
import { publicProcedure } from '../../../trpc.ts';

export const resolveProcedure = publicProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/link-tokens/resolve',
      tags: ['Public: hosted links'],
      summary: 'Find the store an emailed link belongs to',
      description:
        "Takes the token of any emailed hosted link and answers the slug of its store, so a page can open the right store when the hosted base URL holds no `{orgSlug}`; send no `x-organization-slug`. Says nothing of the token's state (the store's own route does). A malformed or unknown token, or one of a suspended store, is one neutral `404`. Rate-limited per client (60 per 10 minutes).",
    },
    rateLimit: 'public-link-token',
    errors: ['RESOURCE_NOT_FOUND'],
  })
  .input(resolveLinkTokenInputSchema)
  .output(resolvedLinkTokenSchema)
  .mutation(({ ctx, input }) => resolveLinkToken(ctx.db, input.token));
