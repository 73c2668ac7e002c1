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
      description: `A \`REQUESTED\` return becomes \`CANCELLED\` and gives its quantities back; once the merchant decided, \`409 INVALID_STATE_TRANSITION\`. A return of another order is \`404\`. ${OWN_ORDER}`,
    },
    errors: ['INVALID_STATE_TRANSITION'],
  })
  .input(cancelReturnInputSchema)
  .output(returnSchema)
  .mutation(async ({ ctx, input }) => cancelReturn(ctx.db, await returnScope(ctx), input));
