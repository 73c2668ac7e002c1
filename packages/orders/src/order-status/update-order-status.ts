import { AppError } from '@commerce/core';
import { type Database, inTransaction, recordAudit } from '@commerce/db';
import type { CustomerEmailConfig } from '@commerce/notifications';
import type { PaymentProvider } from '@commerce/payments';
import type { Kysely } from 'kysely';
import { cancelUnpaidCheckoutPayment, lockOrderWithPayment } from '../checkout/cancel-checkout-payment.ts';
import { type CheckoutMaintenanceLogger, runPaymentActions } from '../checkout/payment-actions.ts';
import { readOrder } from '../orders/order-read.ts';
import { emitOrderEvent } from '../orders/order-webhooks.ts';
import type { OrderRead, OrderWriteContext, UpdateOrderStatusInput } from '../orders/schemas.ts';
import { canTransition } from '../orders/transitions.ts';

export interface OrderStatusEffects {
  /** Cancels the intent of an order cancelled unpaid, right after the commit (the worker retries). */
  payments: PaymentProvider;
  /** For the BACK_IN_STOCK emails of the stock a cancellation gives back. */
  email: CustomerEmailConfig;
  /** Where a failure of the call after the commit is logged (ids only); the worker makes the call later. */
  logger?: CheckoutMaintenanceLogger;
}

/**
 * Moves an order along the status table of docs/orders.md under its row lock, so that
 * two concurrent transitions from the same state cannot both pass: the second
 * sees the first's result and is judged from there. A move not in the table
 * (the same state again included) is 409 INVALID_STATE_TRANSITION and
 * changes nothing. Audited as `order.status_changed` with `{ from, to }`.
 *
 * Cancelling a checkout order that is not paid takes its payment back
 * (`cancelUnpaidCheckoutPayment`): stock released,
 * session and attempt CANCELLED, payment FAILED, and the intent's
 * cancellation made after the commit. Its checkout session and payment
 * attempt are locked before the order, in the webhook's order.
 */
export async function updateOrderStatus(
  db: Kysely<Database>,
  ctx: OrderWriteContext,
  input: Pick<UpdateOrderStatusInput, 'id' | 'status'>,
  effects: OrderStatusEffects,
): Promise<OrderRead> {
  const { read, owedCall } = await inTransaction(db, async (trx) => {
    const locked = await lockOrderWithPayment(trx, ctx.organizationId, input.id);
    const { order } = locked;
    if (!canTransition(order.status, input.status)) {
      throw new AppError(
        'INVALID_STATE_TRANSITION',
        `An order cannot move from ${order.status} to ${input.status}`,
        { from: order.status, to: input.status },
      );
    }
    const owed =
      input.status === 'CANCELLED'
        ? await cancelUnpaidCheckoutPayment(trx, locked, { at: ctx.at, email: effects.email })
        : null;
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
    if (input.status === 'CANCELLED' && order.status !== 'CANCELLED')
      await emitOrderEvent(trx, 'order.cancelled', updated, ctx.at);
    return { read: await readOrder(trx, ctx.organizationId, updated), owedCall: owed };
  });
  // Never fails the committed change: what it cannot do stays owed for the worker.
  if (owedCall)
    await runPaymentActions(db, {
      payments: effects.payments,
      at: ctx.at,
      only: owedCall,
      ...(effects.logger ? { logger: effects.logger } : {}),
    });
  return read;
}
