import { orderSchema, updateOrderNotes, updateOrderNotesInputSchema } from '@commerce/orders';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';
import { operator } from './order-access.ts';

export const updateNotesProcedure = operator
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/orders/{id}/notes',
      tags: TAGS,
      summary: "Set or clear the merchant's notes on an order",
      description:
        'Needs `orders:operate`. Notes are merchant-internal and never shown publicly; the audit log records only whether they were cleared.',
    },
  })
  .input(updateOrderNotesInputSchema)
  .output(orderSchema)
  .mutation(({ ctx, input }) => updateOrderNotes(ctx.db, writeContext(ctx), input));
