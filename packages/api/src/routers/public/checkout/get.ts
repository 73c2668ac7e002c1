import { checkoutSessionSchema, checkoutTokenInputSchema, getCheckoutSession } from '@commerce/orders';
import { tenantProcedure } from '../../../trpc.ts';
import { SESSION_NOTE, TAGS, TOKEN_NOTE } from './docs.ts';

export const getProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/public/checkout/sessions/{token}',
      tags: TAGS,
      summary: 'Read a checkout session',
      description: [
        `${TOKEN_NOTE} Changes nothing: the lines and shipping options as last priced (\`reprice\` prices them again). A payment page reads this after the processor’s form returns: \`paymentStatus\` (\`AWAITING_PAYMENT\`, \`PAID\`, \`FAILED\` …) is set by the server from the provider’s webhook, never from the browser’s result, and \`status\` becomes \`COMPLETED\` once the order is paid.`,
        SESSION_NOTE,
      ].join('\n\n'),
    },
    rateLimit: 'public-read',
  })
  .input(checkoutTokenInputSchema)
  .output(checkoutSessionSchema)
  .query(({ ctx, input }) =>
    getCheckoutSession(
      ctx.db,
      { organizationId: ctx.tenant.organizationId, at: ctx.clock.now() },
      input.token,
    ),
  );
