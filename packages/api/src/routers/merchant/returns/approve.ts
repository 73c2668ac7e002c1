import { approveReturn, returnIdInputSchema, returnSchema } from '@commerce/orders';
import { emailingWriteContext } from '../../../write-context.ts';
import { MOVE, TAGS } from './docs.ts';
import { operator } from './return-access.ts';

export const approveProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/returns/{returnId}/approve',
      tags: TAGS,
      summary: 'Approve a requested return',
      description: MOVE('`REQUESTED` → `APPROVED`.'),
    },
    errors: ['INVALID_STATE_TRANSITION'],
  })
  .input(returnIdInputSchema)
  .output(returnSchema)
  .mutation(({ ctx, input }) => approveReturn(ctx.db, emailingWriteContext(ctx), input));
