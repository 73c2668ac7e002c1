import { resolvedLinkTokenSchema, resolveLinkToken, resolveLinkTokenInputSchema } from '@commerce/customers';
import { publicProcedure } from '../../../trpc.ts';

export const resolveProcedure = publicProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/link-tokens/resolve',
      tags: ['Public: hosted links'],
      summary: 'Find the store an emailed link belongs to',
      description: [
        'Body `{ token }`: the token of an emailed hosted link (`/account/verify?token=l1_…`, `/order-status?token=o1_…`, `/email/unsubscribe?token=u1_…`, `/cart/reminders/unsubscribe?token=u1_…`, `/checkout/c1_…`, `/bookings/manage/m1_…`). No `x-organization-slug`: the token names the store, so a link whose `HOSTED_CHECKOUT_URL` base holds no `{orgSlug}` still opens the right store’s page. The token is sent in the body, out of access logs.',
        'Answers `200 { orgSlug }` and nothing about the token’s state (used, expired): the store’s own route says that. A malformed or unknown token, or one of a suspended store, is one neutral `404`. Rate-limited per client (60 per 10 minutes).',
      ].join('\n\n'),
    },
    rateLimit: 'public-link-token',
    errors: ['RESOURCE_NOT_FOUND'],
  })
  .input(resolveLinkTokenInputSchema)
  .output(resolvedLinkTokenSchema)
  .mutation(({ ctx, input }) => resolveLinkToken(ctx.db, input.token));
