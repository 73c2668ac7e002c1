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
      description: [
        'Needs `orders:operate`. Body `{ notes }`: a string of at most 2000 characters, or `null` to clear (an empty string clears too). Allowed in every status. Notes are merchant-internal and never shown on a public read.',
        'A change is audited as `order.notes_updated` with `{ cleared }` (the text itself is not copied into the audit log); sending the current notes writes nothing. Answers the order.',
      ].join('\n\n'),
    },
  })
  .input(updateOrderNotesInputSchema)
  .output(orderSchema)
  .mutation(({ ctx, input }) => updateOrderNotes(ctx.db, writeContext(ctx), input));
