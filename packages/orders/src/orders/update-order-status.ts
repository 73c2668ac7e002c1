import { AppError } from '@commerce/core';
import { type Database, inTransaction, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import { findOrder, readOrder } from './order-read.ts';
import type { OrderRead, OrderWriteContext, UpdateOrderStatusInput } from './schemas.ts';
import { canTransition } from './transitions.ts';

/**
 * Moves an order along the spec's status table under its row lock, so that
 * two concurrent transitions from the same state cannot both pass: the second
 * sees the first's result and is judged from there. A move not in the table
 * (the same state again included) is 409 INVALID_STATE_TRANSITION and
 * changes nothing. Audited as `order.status_changed` with `{ from, to }`.
 */
export async function updateOrderStatus(
  db: Kysely<Database>,
  ctx: OrderWriteContext,
  input: Pick<UpdateOrderStatusInput, 'id' | 'status'>,
): Promise<OrderRead> {
  return inTransaction(db, async (trx) => {
    const order = await findOrder(trx, ctx.organizationId, input.id, 'update');
    if (!canTransition(order.status, input.status)) {
      throw new AppError(
        'INVALID_STATE_TRANSITION',
        `An order cannot move from ${order.status} to ${input.status}`,
        { from: order.status, to: input.status },
      );
    }
    const updated = await trx
      .updateTable('orders')
      .set({ status: input.status, updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', order.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId: ctx.organizationId,
      actor: ctx.actor,
      action: 'order.status_changed',
      targetType: 'order',
      targetId: order.id,
      metadata: { from: order.status, to: input.status },
      at: ctx.at,
    });
    return readOrder(trx, ctx.organizationId, updated);
  });
}
