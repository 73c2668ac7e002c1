import { AppError, hashToken, newToken } from '@commerce/core';
import { type Database, inTransaction, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import { findCustomerOrder } from '../returns/customer-orders.ts';
import { assessReturnEligibility } from '../returns/eligibility.ts';
import type { CustomerOrderKey, CustomerReturnScope } from '../returns/schemas.ts';
import {
  ACTION_TOKEN_TTL_MS,
  type ActionTokenLine,
  type IssuedReturnAction,
  type IssueReturnActionInput,
} from './schemas.ts';

/**
 * `POST …/return-actions`: issues an `a1_` token for one purpose, bound to
 * the customer, the order and the lines eligible now (each with the quantity
 * then left to return). Only its SHA-256 is stored; the raw token is in this
 * answer only and is never emailed. It expires after 24 hours or when the
 * return window closes, whichever is first. Issuing revokes the customer's
 * earlier unused tokens of the same order and purpose (one live token each),
 * under the order's lock so two issues cannot both stay live. An order that
 * cannot be returned now is 409 RETURN_NOT_ELIGIBLE. Audited as
 * `return_action.issued` (never the token).
 */
export async function issueReturnAction(
  db: Kysely<Database>,
  scope: Omit<CustomerReturnScope, 'email'>,
  key: CustomerOrderKey,
  input: IssueReturnActionInput,
): Promise<IssuedReturnAction> {
  return inTransaction(db, async (trx) => {
    const { customer, at } = scope;
    const order = await findCustomerOrder(trx, customer, key, 'update');
    const eligibility = await assessReturnEligibility(trx, order, scope.returnWindowDays, at);
    if (!eligibility.eligible || eligibility.windowEnd === null) {
      throw new AppError('RETURN_NOT_ELIGIBLE', 'The order cannot be returned now', {
        reason: eligibility.reason,
        windowEndsAt: eligibility.windowEndsAt,
      });
    }
    const lines: ActionTokenLine[] = eligibility.lines
      .filter((line) => line.returnableQuantity > 0)
      .map((line) => ({
        lineId: line.lineId,
        itemId: line.itemId,
        variantId: line.variantId,
        name: line.name,
        unitPriceInCents: line.unitPriceInCents,
        quantity: line.returnableQuantity,
      }));
    const expiresAt = new Date(Math.min(at.getTime() + ACTION_TOKEN_TTL_MS, eligibility.windowEnd.getTime()));
    await trx
      .updateTable('action_tokens')
      .set({ revoked_at: at })
      .where('organization_id', '=', customer.organizationId)
      .where('order_id', '=', order.id)
      .where('purpose', '=', input.purpose)
      .where('customer_id', '=', customer.customerId)
      .where('consumed_at', 'is', null)
      .where('revoked_at', 'is', null)
      .execute();
    const token = newToken('action');
    await trx
      .insertInto('action_tokens')
      .values({
        organization_id: customer.organizationId,
        token_hash: hashToken(token),
        purpose: input.purpose,
        customer_id: customer.customerId,
        customer_email: customer.email,
        order_id: order.id,
        eligible_lines: JSON.stringify(lines),
        expires_at: expiresAt,
        created_at: at,
      })
      .execute();
    await recordAudit(trx, {
      organizationId: customer.organizationId,
      actor: { userId: null, email: customer.email },
      action: 'return_action.issued',
      targetType: 'order',
      targetId: order.id,
      metadata: {
        customerId: customer.customerId,
        purpose: input.purpose,
        expiresAt: expiresAt.toISOString(),
      },
      at,
    });
    return {
      token,
      purpose: input.purpose,
      expiresAt: expiresAt.toISOString(),
      orderReference: order.order_reference,
      orderNumber: Number(order.order_number),
      lines,
    };
  });
}
