import { paymentLinkPathSchema, paymentLinkSchema, sendBookingPaymentLink } from '@commerce/bookings';
import { customerEmailConfig } from '../../../hosted-origin.ts';
import { merchantProcedureWith } from '../../../trpc.ts';
import { merchantActor } from '../../../write-context.ts';

const TAGS = ['Merchant: bookings'];

export const sendProcedure = merchantProcedureWith('bookings:manage')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/bookings/{id}/payment-link',
      tags: TAGS,
      summary: 'Email a payment link for the open balance of a confirmed booking',
      description: [
        'For a `CONFIRMED` booking with an open balance: opens a checkout bound to that balance for 7 days and emails the customer the payment link. One open link per booking: a new one closes the old (an intent already made is cancelled at the processor). Nothing left to pay is `409 INVALID_STATE_TRANSITION`.',
        'Staff need `bookings:manage` and act only on bookings assigned to them (others are the neutral `404`).',
      ].join('\n\n'),
    },
    errors: ['INVALID_STATE_TRANSITION', 'RESOURCE_NOT_FOUND'],
  })
  .input(paymentLinkPathSchema)
  .output(paymentLinkSchema)
  .mutation(({ ctx, input }) =>
    sendBookingPaymentLink(
      ctx.db,
      {
        organizationId: ctx.tenant.organizationId,
        at: ctx.clock.now(),
        email: customerEmailConfig(ctx),
        actor: merchantActor(ctx),
        sentByMerchant: true,
        staffUserId: ctx.membership.role === 'Staff' ? ctx.merchantUser.id : null,
      },
      input.id,
    ),
  );
