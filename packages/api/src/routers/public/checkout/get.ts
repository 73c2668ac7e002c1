import { checkoutSessionSchema, checkoutTokenInputSchema, getCheckoutSession } from '@commerce/orders';
import { tenantProcedure } from '../../../trpc.ts';
import { TAGS, TOKEN_NOTE } from './docs.ts';

export const getProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/public/checkout/sessions/{token}',
      tags: TAGS,
      summary: 'Read a checkout session',
      description: `Changes nothing. \`paymentStatus\` is set from the processor's signed webhook, never from the browser; \`status\` becomes \`COMPLETED\` once the order is paid. ${TOKEN_NOTE}`,
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
