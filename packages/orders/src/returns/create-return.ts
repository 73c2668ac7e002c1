import { AppError, newId, type ValidationIssue } from '@commerce/core';
import { type Database, inTransaction, type Order, recordAudit, withIdempotency } from '@commerce/db';
import type { CustomerEmailConfig } from '@commerce/notifications';
import { enqueueWebhookEvent } from '@commerce/notifications/webhooks';
import type { Kysely } from 'kysely';
import { findCustomerOrder } from './customer-orders.ts';
import { assessReturnEligibility } from './eligibility.ts';
import { enqueueReturnEmail } from './return-emails.ts';
import { readReturn } from './return-read.ts';
import type {
  CreateReturnInput,
  CustomerOrderKey,
  CustomerReturnScope,
  ReturnCustomer,
  ReturnRead,
} from './schemas.ts';

export interface ReturnRequest {
  customer: ReturnCustomer;
  channel: 'ACCOUNT' | 'ACTION_TOKEN';
  returnWindowDays: number;
  email: CustomerEmailConfig;
  at: Date;
}

/**
 * Creates a return of `order`, which the caller has locked (`for update`) in
 * the transaction `trx`: the lock serialises every return of the order, so
 * the quantities left to return are exact and concurrent requests can never
 * claim more than was bought. Refuses a request the order is not eligible
 * for (409 RETURN_NOT_ELIGIBLE, `details { reason, windowEndsAt }`), lines
 * that are not PRODUCT lines of the order or appear twice (400), and a
 * quantity above what is left (409 OVER_RETURN, `details { lines }`). Audits
 * `return.requested` and queues RETURN_REQUESTED in the same transaction.
 */
export async function createReturnForLockedOrder(
  trx: Kysely<Database>,
  order: Order,
  request: ReturnRequest,
  input: CreateReturnInput,
): Promise<ReturnRead> {
  const organizationId = request.customer.organizationId;
  const eligibility = await assessReturnEligibility(trx, order, request.returnWindowDays, request.at);
  if (eligibility.reason !== null && eligibility.reason !== 'NOTHING_TO_RETURN') {
    throw new AppError('RETURN_NOT_ELIGIBLE', 'The order cannot be returned now', {
      reason: eligibility.reason,
      windowEndsAt: eligibility.windowEndsAt,
    });
  }
  const byLine = new Map(eligibility.lines.map((line) => [line.lineId, line]));
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  input.lines.forEach((line, index) => {
    if (!byLine.has(line.lineId))
      issues.push({ path: `lines.${index}.lineId`, message: 'does not name a PRODUCT line of the order' });
    else if (seen.has(line.lineId))
      issues.push({ path: `lines.${index}.lineId`, message: 'names a line already in the request' });
    seen.add(line.lineId);
  });
  if (issues.length > 0) throw AppError.validation(issues);
  const over = input.lines
    .map((line) => ({
      lineId: line.lineId,
      requested: line.quantity,
      returnable: byLine.get(line.lineId)!.returnableQuantity,
    }))
    .filter((line) => line.requested > line.returnable);
  if (over.length > 0)
    throw new AppError('OVER_RETURN', 'The return would exceed the quantity left to return', { lines: over });

  const id = newId('ret', request.at);
  const refundTotal = input.lines.reduce(
    (sum, line) => sum + line.quantity * byLine.get(line.lineId)!.unitPriceInCents,
    0,
  );
  const returnRow = await trx
    .insertInto('returns')
    .values({
      organization_id: organizationId,
      id,
      order_id: order.id,
      status: 'REQUESTED',
      customer_id: request.customer.customerId,
      customer_email: order.customer_email,
      channel: request.channel,
      currency: order.currency,
      refund_total_in_cents: refundTotal,
      created_at: request.at,
      updated_at: request.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('return_lines')
    .values(
      input.lines.map((line, position) => ({
        organization_id: organizationId,
        return_id: id,
        sales_record_line_id: line.lineId,
        position,
        quantity: line.quantity,
        reason: line.reason,
        note: line.note ? line.note : null,
      })),
    )
    .execute();
  await enqueueWebhookEvent(trx, {
    organizationId,
    type: 'return.requested',
    objectId: id,
    data: () => readReturn(trx, organizationId, id),
    at: request.at,
  });
  await recordAudit(trx, {
    organizationId,
    actor: { userId: null, email: request.customer.email },
    action: 'return.requested',
    targetType: 'return',
    targetId: id,
    metadata: {
      orderId: order.id,
      customerId: request.customer.customerId,
      channel: request.channel,
      lines: input.lines.map((line) => ({
        lineId: line.lineId,
        quantity: line.quantity,
        reason: line.reason,
      })),
    },
    at: request.at,
  });
  await enqueueReturnEmail(trx, {
    type: 'RETURN_REQUESTED',
    order,
    returnRow,
    email: request.email,
    at: request.at,
  });
  return readReturn(trx, organizationId, id);
}

/**
 * `POST /customer/account/orders/by-reference/{orderReference}/returns`: a
 * return of the signed-in customer's own order (see `createReturnForLockedOrder`).
 */
export async function createReturn(
  db: Kysely<Database>,
  scope: CustomerReturnScope,
  key: CustomerOrderKey,
  input: CreateReturnInput,
): Promise<ReturnRead> {
  return inTransaction(db, async (trx) => {
    const order = await findCustomerOrder(trx, scope.customer, key, 'update');
    return createReturnForLockedOrder(trx, order, { ...scope, channel: 'ACCOUNT' }, input);
  });
}

/** The operation an idempotency key of a return request is scoped to. */
export const REQUEST_RETURN_OPERATION = 'POST /customer/account/orders/by-reference/:orderReference/returns';

/**
 * `createReturn` with the route's optional `x-idempotency-key`: the same key
 * with the same request (order, customer and body) answers the recorded
 * return again (`replayed`) instead of requesting a second one, so a
 * double-submitted form cannot return the goods twice; the same key with
 * another request is 409 IDEMPOTENCY_KEY_REUSED. Kept 24 hours.
 */
export async function requestReturn(
  db: Kysely<Database>,
  scope: CustomerReturnScope,
  key: { orderReference: string },
  input: CreateReturnInput,
  idempotencyKey?: string,
): Promise<{ created: ReturnRead; replayed: boolean }> {
  if (idempotencyKey === undefined)
    return { created: await createReturn(db, scope, key, input), replayed: false };
  const outcome = await withIdempotency(
    db,
    {
      organizationId: scope.customer.organizationId,
      operation: REQUEST_RETURN_OPERATION,
      key: idempotencyKey,
      intent: { params: { ...key, customerId: scope.customer.customerId }, body: input },
      retention: 'standard',
      now: scope.at,
    },
    async (trx) => ({ status: 201, body: await createReturn(trx, scope, key, input) }),
  );
  return { created: outcome.body, replayed: outcome.replayed };
}
