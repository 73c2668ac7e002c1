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
        'No body. `RECEIVED` → `COMPLETED`: the return is settled; the email states `refundTotalInCents` as refunded. No payment provider is called: the refund itself is made by the merchant in the processor until refunds are automated.',
        'RETURN_COMPLETED',
      ),
    },
    errors: ['INVALID_STATE_TRANSITION'],
  })
  .input(returnIdInputSchema)
  .output(returnSchema)
  .mutation(({ ctx, input }) => completeReturn(ctx.db, emailingWriteContext(ctx), input));
