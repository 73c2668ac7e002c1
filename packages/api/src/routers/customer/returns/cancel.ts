import { cancelReturn, cancelReturnInputSchema, returnSchema } from '@commerce/orders';
import { customerProcedure } from '../../../trpc.ts';
import { OWN_ORDER, TAGS } from './docs.ts';
import { returnScope } from './return-scope.ts';

export const cancelProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/customer/account/orders/by-reference/{orderReference}/returns/{returnId}/cancel',
      tags: TAGS,
      summary: 'Cancel a pending return',
      description: [
        'No body. A `REQUESTED` return becomes `CANCELLED` and gives its quantities back; once the merchant approved or rejected it, it cannot be cancelled (`409 INVALID_STATE_TRANSITION`, `details { from, to }`). No email; audited as `return.cancelled`. Answers the return.',
        `A return that is not of this order is \`404\`. ${OWN_ORDER}`,
      ].join('\n\n'),
    },
    errors: ['INVALID_STATE_TRANSITION'],
  })
  .input(cancelReturnInputSchema)
  .output(returnSchema)
  .mutation(async ({ ctx, input }) => cancelReturn(ctx.db, await returnScope(ctx), input));
