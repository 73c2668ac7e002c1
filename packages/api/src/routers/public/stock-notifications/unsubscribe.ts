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
      description: [
        "The storefront's `/email/unsubscribe?token=…` page posts the link's `token` here (in the body, so it stays out of access logs). The token alone names the store and the subscription: no `x-organization-slug` is needed.",
        'The subscription becomes `UNSUBSCRIBED` and a later signup for the same item, variant and email stays so. Every link of every email sent for the subscription works, as often as it is used. A malformed, unknown or foreign token is one neutral `404`.',
      ].join('\n\n'),
    },
    rateLimit: 'public-read',
    errors: ['RESOURCE_NOT_FOUND'],
  })
  .input(unsubscribeBodySchema)
  .output(unsubscribeResultSchema)
  .mutation(({ ctx, input }) => unsubscribeByToken(ctx.db, input.token, ctx.clock.now()));
