import { AppError } from '@commerce/core';
import {
  cartRemindersUnsubscribeInputSchema,
  cartRemindersUnsubscribeResultSchema,
  unsubscribeFromCartReminders,
} from '@commerce/orders';
import { publicProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const remindersUnsubscribeProcedure = publicProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/checkout/reminders/unsubscribe',
      tags: TAGS,
      summary: 'Stop abandoned-cart reminders through the link of one',
      description:
        "The page behind an abandoned-cart email's unsubscribe link posts its `u1_` token here; the token names the store (no `x-organization-slug`). The address gets no more reminders from that store; a link works every time it is used. A malformed or unknown token is a neutral `404`.",
    },
    rateLimit: 'public-checkout',
    errors: ['RESOURCE_NOT_FOUND'],
  })
  .input(cartRemindersUnsubscribeInputSchema)
  .output(cartRemindersUnsubscribeResultSchema)
  .mutation(async ({ ctx, input }) => {
    if (!(await unsubscribeFromCartReminders(ctx.db, input.token, ctx.clock.now())))
      throw AppError.notFound('Unsubscribe link not found');
    return { status: 'UNSUBSCRIBED' as const, subscriptionType: 'ABANDONED_CART_RECOVERY' as const };
  });
