import {
  checkoutSessionSchema,
  repriceCheckoutSession,
  repriceCheckoutSessionInputSchema,
} from '@commerce/orders';
import { tenantProcedure } from '../../../trpc.ts';
import { customerEmailContext } from '../../../write-context.ts';
import { TAGS, TOKEN_NOTE } from './docs.ts';

export const repriceProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/checkout/sessions/{token}/reprice',
      tags: TAGS,
      summary: 'Update the cart and price it again (step 2)',
      description: `Changes what the body names (an empty body only reprices) and prices the cart from the catalog as it is now. A \`BOUND\` session goes back to \`OPEN\` and releases its stock. After a payment started, and for a booking payment's session, \`409 INVALID_STATE_TRANSITION\`. ${TOKEN_NOTE}`,
    },
    rateLimit: 'public-checkout',
    errors: ['INVALID_STATE_TRANSITION'],
  })
  .input(repriceCheckoutSessionInputSchema)
  .output(checkoutSessionSchema)
  .mutation(({ ctx, input }) =>
    repriceCheckoutSession(ctx.db, customerEmailContext(ctx, ctx.tenant.organizationId), input),
  );
