import { formatMoney } from '@commerce/core';
import type { Database, Order, Return } from '@commerce/db';
import { type CustomerEmailConfig, customerLink, enqueueTemplatedEmail } from '@commerce/notifications';
import type { Kysely } from 'kysely';
import { returnsPagePath } from './customer-orders.ts';

export type ReturnEmailType =
  | 'RETURN_REQUESTED'
  | 'RETURN_APPROVED'
  | 'RETURN_RECEIVED'
  | 'RETURN_COMPLETED'
  | 'RETURN_REJECTED';

/**
 * Queues a RETURN_* email to the order's customer in the caller's
 * transaction, so it exists exactly when the change does. The link is the
 * hosted account page of the order's returns (sign-in required), never a token.
 */
export async function enqueueReturnEmail(
  db: Kysely<Database>,
  input: { type: ReturnEmailType; order: Order; returnRow: Return; email: CustomerEmailConfig; at: Date },
): Promise<void> {
  const { order, returnRow } = input;
  await enqueueTemplatedEmail(db, {
    organizationId: order.organization_id,
    type: input.type,
    to: order.customer_email,
    values: {
      'customer.name': order.customer_name,
      'order.number': String(order.order_number),
      'return.id': returnRow.id,
      'return.refundTotal': formatMoney(Number(returnRow.refund_total_in_cents), returnRow.currency),
      'return.reason': returnRow.rejection_reason ?? '',
    },
    links: { action: customerLink(input.email, returnsPagePath(order)) },
    emailFrom: input.email.emailFrom,
    metadata: { orderId: order.id, returnId: returnRow.id },
    at: input.at,
  });
}
