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
      description: `For a \`BOUND\` session whose total is 0: creates the order (\`paymentStatus\` \`NOT_REQUIRED\`), consumes its stock, queues the confirmation email and completes the session. Answers \`201\` with the order and an \`orderStatusToken\` (\`o1_…\`); a repeat answers the same order with a new token. ${TOKEN_NOTE}`,
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
