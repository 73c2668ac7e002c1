import { type Database, inTransaction, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import { findOrder, readOrder } from './order-read.ts';
import type { OrderRead, OrderWriteContext, UpdateOrderNotesInput } from './schemas.ts';

/**
 * Sets the merchant's notes on an order, or clears them with `null` (an empty
 * string clears them too). Allowed in every status, terminal ones included:
 * notes are the merchant's own bookkeeping. A change that changes nothing
 * writes nothing. Audited as `order.notes_updated` with `{ cleared }`, never
 * the text itself.
 */
export async function updateOrderNotes(
  db: Kysely<Database>,
  ctx: OrderWriteContext,
  input: Pick<UpdateOrderNotesInput, 'id' | 'notes'>,
): Promise<OrderRead> {
  const notes = input.notes === '' ? null : input.notes;
  return inTransaction(db, async (trx) => {
    const order = await findOrder(trx, ctx.organizationId, input.id, 'update');
    if (order.notes === notes) return readOrder(trx, ctx.organizationId, order);
    const updated = await trx
      .updateTable('orders')
      .set({ notes, updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', order.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'order.notes_updated',
      targetType: 'order',
      targetId: order.id,
      metadata: { cleared: notes === null },
      at: ctx.at,
    });
    return readOrder(trx, ctx.organizationId, updated);
  });
}
