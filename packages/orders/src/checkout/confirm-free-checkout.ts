import { AppError } from '@commerce/core';
import { type Database, inTransaction } from '@commerce/db';
import type { Kysely } from 'kysely';
import { findOrder, readPublicOrder } from '../orders/order-read.ts';
import { issueOrderStatusToken } from '../orders/order-status-tokens.ts';
import type { CreatedLegacyOrder } from '../orders/schemas.ts';
import { completeSession } from './complete-session.ts';
import { confirmCheckoutOrder, placeCheckoutOrder } from './place-order.ts';
import type { CheckoutScope } from './reprice-checkout-session.ts';
import { findSessionByToken, sessionLines } from './session-store.ts';
import { consumeReservations } from './stock.ts';

/**
 * Step 4a: a BOUND session whose frozen total is zero becomes an order in
 * PENDING + NOT_REQUIRED, its reservations consumed, its ORDER_CONFIRMATION
 * queued; the session is COMPLETED. A positive total is 409
 * INVALID_STATE_TRANSITION (use payment-session). A retry on the completed
 * free session answers the same order with a fresh `o1_` status token (the
 * raw token of the first answer is not kept); other states are 409.
 */
export async function confirmFreeCheckout(
  db: Kysely<Database>,
  scope: CheckoutScope,
  input: { token: string },
): Promise<CreatedLegacyOrder> {
  return inTransaction(db, async (trx) => {
    const session = await findSessionByToken(trx, input.token, {
      organizationId: scope.organizationId,
      at: scope.at,
      lock: true,
    });
    if (session.status === 'COMPLETED' && session.order_id && session.total_in_cents === 0) {
      const order = await findOrder(trx, session.organization_id, session.order_id);
      const token = await issueOrderStatusToken(trx, {
        organizationId: order.organization_id,
        orderId: order.id,
        at: scope.at,
      });
      return { ...(await readPublicOrder(trx, order.organization_id, order)), orderStatusToken: token };
    }
    if (session.status !== 'BOUND')
      throw new AppError(
        'INVALID_STATE_TRANSITION',
        `A ${session.status} checkout session cannot be confirmed`,
      );
    if (session.total_in_cents > 0)
      throw new AppError(
        'INVALID_STATE_TRANSITION',
        'The bound total is positive: start a payment session instead',
      );
    const lines = await sessionLines(trx, session);
    const { order } = await placeCheckoutOrder(trx, session, lines, 'NOT_REQUIRED', scope.at);
    await consumeReservations(trx, { ...scope, checkoutSessionId: session.id });
    await completeSession(trx, session, order.id, scope.at);
    const token = await confirmCheckoutOrder(trx, order, scope.email, scope.at);
    return { ...(await readPublicOrder(trx, order.organization_id, order)), orderStatusToken: token };
  });
}
