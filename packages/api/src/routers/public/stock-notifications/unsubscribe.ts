import { unsubscribeBodySchema, unsubscribeByToken, unsubscribeResultSchema } from '@commerce/catalog';
import { publicProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const unsubscribeProcedure = publicProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/email-unsubscribe',
      tags: TAGS,
      summary: 'Unsubscribe through the link of an email',
      description:
        "The page behind an email's unsubscribe link posts its token here, in the body to keep it out of access logs; the token names the store (no `x-organization-slug`). The subscription stays unsubscribed, also for a later signup; every link works as often as it is used. A malformed, unknown or foreign token is one neutral `404`.",
    },
    rateLimit: 'public-read',
    errors: ['RESOURCE_NOT_FOUND'],
  })
  .input(unsubscribeBodySchema)
  .output(unsubscribeResultSchema)
  .mutation(({ ctx, input }) => unsubscribeByToken(ctx.db, input.token, ctx.clock.now()));
