import { rejectReturn, rejectReturnInputSchema, returnSchema } from '@commerce/orders';
import { emailingWriteContext } from '../../../write-context.ts';
import { MOVE, TAGS } from './docs.ts';
import { operator } from './return-access.ts';

export const rejectProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/returns/{returnId}/reject',
      tags: TAGS,
      summary: 'Reject a return',
      description: MOVE('The quantities become returnable again; the reason is shown to the customer.'),
    },
    errors: ['INVALID_STATE_TRANSITION'],
  })
  .input(rejectReturnInputSchema)
  .output(returnSchema)
  .mutation(({ ctx, input }) => rejectReturn(ctx.db, emailingWriteContext(ctx), input));
