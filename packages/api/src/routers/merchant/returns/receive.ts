import { receiveReturn, returnIdInputSchema, returnSchema } from '@commerce/orders';
import { emailingWriteContext } from '../../../write-context.ts';
import { MOVE, TAGS } from './docs.ts';
import { operator } from './return-access.ts';

export const receiveProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/returns/{returnId}/receive',
      tags: TAGS,
      summary: 'Mark the returned goods received',
      description: MOVE('`APPROVED` → `RECEIVED`.'),
    },
    errors: ['INVALID_STATE_TRANSITION'],
  })
  .input(returnIdInputSchema)
  .output(returnSchema)
  .mutation(({ ctx, input }) => receiveReturn(ctx.db, emailingWriteContext(ctx), input));
