import { checkoutTokenInputSchema, confirmFreeCheckout, createdLegacyOrderSchema } from '@commerce/orders';
import { tenantProcedure } from '../../../trpc.ts';
import { customerEmailContext } from '../../../write-context.ts';
import { TAGS, TOKEN_NOTE } from './docs.ts';

export const confirmFreeProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/checkout/sessions/{token}/confirm-free',
      tags: TAGS,
      summary: 'Place the order of a zero total (step 4a)',
      description: [
        `${TOKEN_NOTE} Send the tenant header; the body may be empty. For a \`BOUND\` session whose total is 0: the order is created \`PENDING\` with \`paymentStatus\` \`NOT_REQUIRED\`, its reserved stock is consumed, the \`ORDER_CONFIRMATION\` email is queued and the session is \`COMPLETED\`.`,
        'Answers `201` with the order (as `POST /public/orders` does: no `notes`) and `orderStatusToken` (`o1_…`, for `POST /public/order-status`). Repeating the call answers the same order with a new `orderStatusToken`. A positive bound total, or a session not bound, is `409 INVALID_STATE_TRANSITION`.',
      ].join('\n\n'),
    },
    successStatus: 201,
    rateLimit: 'public-checkout',
    errors: ['INVALID_STATE_TRANSITION'],
  })
  .input(checkoutTokenInputSchema)
  .output(createdLegacyOrderSchema)
  .mutation(({ ctx, input }) =>
    confirmFreeCheckout(ctx.db, customerEmailContext(ctx, ctx.tenant.organizationId), input),
  );
