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
        'Owner and Admin; Staff need `bookings:manage` (else `403`) and act only on bookings assigned to them (listed in `assigneeUserIds`, or given a `STAFF` resource of theirs): others are the neutral `404`. No body.',
        'For a `CONFIRMED` booking with an open balance (its total less what its payments took): opens a checkout bound to that balance, valid 7 days, and emails the customer (`BOOKING_NOTIFICATION`, event `PAYMENT_REQUIRED`) the `c1_` payment link with a fresh management link. One open link per booking: a new one closes the old (its payment can no longer start; an intent already made is cancelled at the processor). Paid through `POST /public/checkout/sessions/{token}/payment-session` and the payment webhook, which records the payment on the booking’s Sales record.',
        'Answers `200 { amountInCents, expiresAt }`. Another status, or nothing left to pay, is `409 INVALID_STATE_TRANSITION`. Audited as `booking.payment_link_sent`.',
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
