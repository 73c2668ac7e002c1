import { AppError } from '@commerce/core';
import {
  type AuditActor,
  type Database,
  inTransaction,
  type Return,
  type ReturnStatus,
  recordAudit,
} from '@commerce/db';
import type { CustomerEmailConfig } from '@commerce/notifications';
import { enqueueWebhookEvent } from '@commerce/notifications/webhooks';
import type { Kysely } from 'kysely';
import { findOrder } from '../orders/order-read.ts';
import { findCustomerOrder } from './customer-orders.ts';
import { enqueueReturnEmail, type ReturnEmailType } from './return-emails.ts';
import { findReturn, readReturn } from './return-read.ts';
import type { CustomerReturnScope, RejectReturnInput, ReturnRead, ReturnWriteContext } from './schemas.ts';
import { canMoveReturn } from './transitions.ts';

interface Move {
  to: ReturnStatus;
  /** `return.<verb>` */
  action: string;
  email: ReturnEmailType | null;
  stamp: 'approved_at' | 'received_at' | 'completed_at' | 'rejected_at' | 'cancelled_at';
}

const MOVES = {
  approve: { to: 'APPROVED', action: 'return.approved', email: 'RETURN_APPROVED', stamp: 'approved_at' },
  receive: { to: 'RECEIVED', action: 'return.received', email: 'RETURN_RECEIVED', stamp: 'received_at' },
  complete: { to: 'COMPLETED', action: 'return.completed', email: 'RETURN_COMPLETED', stamp: 'completed_at' },
  reject: { to: 'REJECTED', action: 'return.rejected', email: 'RETURN_REJECTED', stamp: 'rejected_at' },
  cancel: { to: 'CANCELLED', action: 'return.cancelled', email: null, stamp: 'cancelled_at' },
} as const satisfies Record<string, Move>;

/**
 * Moves a return, which the caller has locked, along the state table: a move
 * not in it is 409 INVALID_STATE_TRANSITION (`details { from, to }`) and
 * changes nothing. Audited as the move's `return.<verb>` with `{ from, to }`
 * (and the reason of a rejection); its RETURN_* email is queued in the same
 * transaction.
 */
async function applyMove(
  trx: Kysely<Database>,
  locked: Return,
  move: Move,
  ctx: { actor: AuditActor; email: CustomerEmailConfig; at: Date },
  rejectionReason?: string,
): Promise<ReturnRead> {
  if (!canMoveReturn(locked.status, move.to)) {
    throw new AppError(
      'INVALID_STATE_TRANSITION',
      `A return cannot move from ${locked.status} to ${move.to}`,
      {
        from: locked.status,
        to: move.to,
      },
    );
  }
  const updated = await trx
    .updateTable('returns')
    .set({
      status: move.to,
      [move.stamp]: ctx.at,
      updated_at: ctx.at,
      ...(rejectionReason !== undefined ? { rejection_reason: rejectionReason } : {}),
    })
    .where('organization_id', '=', locked.organization_id)
    .where('id', '=', locked.id)
    .returningAll()
    .executeTakeFirstOrThrow();
  await recordAudit(trx, {
    organizationId: locked.organization_id,
    actor: ctx.actor,
    action: move.action,
    targetType: 'return',
    targetId: locked.id,
    metadata: {
      orderId: locked.order_id,
      from: locked.status,
      to: move.to,
      ...(rejectionReason !== undefined ? { reason: rejectionReason } : {}),
    },
    at: ctx.at,
  });
  await enqueueWebhookEvent(trx, {
    organizationId: locked.organization_id,
    type: 'return.updated',
    objectId: locked.id,
    data: () => readReturn(trx, locked.organization_id, locked.id),
    at: ctx.at,
  });
  if (move.email) {
    const order = await findOrder(trx, locked.organization_id, locked.order_id);
    await enqueueReturnEmail(trx, {
      type: move.email,
      order,
      returnRow: updated,
      email: ctx.email,
      at: ctx.at,
    });
  }
  return readReturn(trx, locked.organization_id, locked.id);
}

function merchantMove(move: Move) {
  return (db: Kysely<Database>, ctx: ReturnWriteContext, input: { returnId: string }): Promise<ReturnRead> =>
    inTransaction(db, async (trx) =>
      applyMove(trx, await findReturn(trx, ctx.organizationId, input.returnId, 'update'), move, ctx),
    );
}

/** REQUESTED → APPROVED; queues RETURN_APPROVED. */
export const approveReturn = merchantMove(MOVES.approve);
/** APPROVED → RECEIVED (the goods arrived); queues RETURN_RECEIVED. */
export const receiveReturn = merchantMove(MOVES.receive);
/** RECEIVED → COMPLETED (refunded); queues RETURN_COMPLETED with the refund total. */
export const completeReturn = merchantMove(MOVES.complete);

/** REQUESTED or APPROVED → REJECTED with the merchant's reason; queues RETURN_REJECTED carrying it. */
export async function rejectReturn(
  db: Kysely<Database>,
  ctx: ReturnWriteContext,
  input: Pick<RejectReturnInput, 'returnId' | 'reason'>,
): Promise<ReturnRead> {
  return inTransaction(db, async (trx) =>
    applyMove(
      trx,
      await findReturn(trx, ctx.organizationId, input.returnId, 'update'),
      MOVES.reject,
      ctx,
      input.reason,
    ),
  );
}

/**
 * The customer withdraws a pending (REQUESTED) return of their own order;
 * anything later is 409 INVALID_STATE_TRANSITION. A return of another order,
 * another customer or another organization is the neutral 404. No email (the
 * customer did it); audited as `return.cancelled`.
 */
export async function cancelReturn(
  db: Kysely<Database>,
  scope: Pick<CustomerReturnScope, 'customer' | 'email' | 'at'>,
  input: { orderReference: string; returnId: string },
): Promise<ReturnRead> {
  return inTransaction(db, async (trx) => {
    const order = await findCustomerOrder(trx, scope.customer, { orderReference: input.orderReference });
    const locked = await findReturn(trx, scope.customer.organizationId, input.returnId, 'update');
    if (locked.order_id !== order.id) throw AppError.notFound('Return not found');
    return applyMove(trx, locked, MOVES.cancel, {
      actor: { userId: null, email: scope.customer.email },
      email: scope.email,
      at: scope.at,
    });
  });
}
