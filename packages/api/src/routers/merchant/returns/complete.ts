import { completeReturn, returnIdInputSchema, returnSchema } from '@commerce/orders';
import { emailingWriteContext } from '../../../write-context.ts';
import { MOVE, TAGS } from './docs.ts';
import { operator } from './return-access.ts';

export const completeProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/returns/{returnId}/complete',
      tags: TAGS,
      summary: 'Complete a received return',
      description: MOVE(
        '`RECEIVED` → `COMPLETED`. No payment provider is called: the merchant makes the refund in the processor.',
      ),
    },
    errors: ['INVALID_STATE_TRANSITION'],
  })
  .input(returnIdInputSchema)
  .output(returnSchema)
  .mutation(({ ctx, input }) => completeReturn(ctx.db, emailingWriteContext(ctx), input));
