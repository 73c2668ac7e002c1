import {
  checkoutSessionSchema,
  repriceCheckoutSession,
  repriceCheckoutSessionInputSchema,
} from '@commerce/orders';
import { tenantProcedure } from '../../../trpc.ts';
import { customerEmailContext } from '../../../write-context.ts';
import { LINES_NOTE, SESSION_NOTE, TAGS, TOKEN_NOTE } from './docs.ts';

export const repriceProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/checkout/sessions/{token}/reprice',
      tags: TAGS,
      summary: 'Update the cart and price it again (step 2)',
      description: [
        `${TOKEN_NOTE} Body (every field optional, an empty body reprices): \`lines\` replaces the whole cart; \`email\`, \`customerName\`, \`customerPhone\`, \`shippingCountry\`, \`shippingRateId\` change those fields (\`null\` clears; a cleared rate falls back to the cheapest option). Validation as on create. ${LINES_NOTE}`,
        `Prices come from the catalog as it is now. Allowed while \`OPEN\` or \`BOUND\`: a \`BOUND\` session goes back to \`OPEN\`, releases its stock and must be bound again. Once a payment started or the order exists, and for a booking payment’s session (bound to the amount due), \`409 INVALID_STATE_TRANSITION\`. ${SESSION_NOTE}`,
      ].join('\n\n'),
    },
    rateLimit: 'public-checkout',
    errors: ['INVALID_STATE_TRANSITION'],
  })
  .input(repriceCheckoutSessionInputSchema)
  .output(checkoutSessionSchema)
  .mutation(({ ctx, input }) =>
    repriceCheckoutSession(ctx.db, customerEmailContext(ctx, ctx.tenant.organizationId), input),
  );
