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
      description: [
        'An `ABANDONED_CART_RECOVERY` email (queued once per unpaid checkout session with an email, ABANDONED_CART_DELAY_MINUTES after it was created, default 60) carries `{HOSTED_CHECKOUT_URL}/cart/reminders/unsubscribe?token=u1_…`; that page posts the `token` here (in the body, out of access logs). The token alone names the store: no `x-organization-slug`.',
        'The address gets no more reminders from that store. Every link works as often as it is used: `200 { status: "UNSUBSCRIBED", subscriptionType: "ABANDONED_CART_RECOVERY" }`. A malformed, unknown or foreign token is one neutral `404`.',
      ].join('\n\n'),
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
