import { AppError, canonicalJson, hashToken, type ValidationIssue } from '@commerce/core';
import { type Database, inTransaction } from '@commerce/db';
import type { CustomerEmailConfig } from '@commerce/notifications';
import type { Kysely } from 'kysely';
import { findOrder } from '../orders/order-read.ts';
import { createReturnForLockedOrder } from '../returns/create-return.ts';
import { findLiveActionToken, tokenLinesOf } from './action-tokens.ts';
import { ACTIONS_OF_PURPOSE, type ActionResult, type PerformActionInput } from './schemas.ts';

export interface PerformActionScope {
  organizationId: string;
  /** `checkoutSettings.returnWindowDays` of the organization. */
  returnWindowDays: number;
  email: CustomerEmailConfig;
  at: Date;
}

/**
 * `POST /customer/actions/{token}`: performs the token's action once. Under
 * the token's row lock: a used token answers the recorded result again when
 * the request is the same one (canonical JSON, so key order does not matter)
 * and `409 ACTION_TOKEN_CONSUMED` for any other request, so concurrent
 * repeats perform the action once. An action the purpose does not allow, or
 * lines outside the token's (or above its quantities), are 400. The return
 * is judged again as any return is (window, quantities left, order lock);
 * a refusal records nothing and leaves the token usable.
 */
export async function performAction(
  db: Kysely<Database>,
  scope: PerformActionScope,
  token: string,
  input: PerformActionInput,
): Promise<{ result: ActionResult; isReplay: boolean }> {
  return inTransaction(db, async (trx) => {
    const row = await findLiveActionToken(trx, scope.organizationId, token, scope.at, 'update');
    const requestHash = hashToken(canonicalJson(input));
    if (row.consumed_at !== null) {
      if (row.request_hash === requestHash) return { result: row.result as ActionResult, isReplay: true };
      throw new AppError('ACTION_TOKEN_CONSUMED', 'The action token was already used for another action', {
        action: row.action,
      });
    }
    if (!(ACTIONS_OF_PURPOSE[row.purpose] as readonly string[]).includes(input.action))
      throw AppError.validation([
        { path: 'action', message: `is not an action of the ${row.purpose} purpose` },
      ]);

    const covered = new Map(tokenLinesOf(row).map((line) => [line.lineId, line]));
    const issues: ValidationIssue[] = [];
    input.lines.forEach((line, index) => {
      const tokenLine = covered.get(line.lineId);
      if (!tokenLine)
        issues.push({ path: `lines.${index}.lineId`, message: "is not one of the token's lines" });
      else if (line.quantity > tokenLine.quantity)
        issues.push({
          path: `lines.${index}.quantity`,
          message: `exceeds the token's quantity of ${tokenLine.quantity}`,
        });
    });
    if (issues.length > 0) throw AppError.validation(issues);

    const order = await findOrder(trx, scope.organizationId, row.order_id, 'update');
    const created = await createReturnForLockedOrder(
      trx,
      order,
      {
        customer: {
          organizationId: scope.organizationId,
          customerId: row.customer_id,
          email: row.customer_email,
        },
        channel: 'ACTION_TOKEN',
        returnWindowDays: scope.returnWindowDays,
        email: scope.email,
        at: scope.at,
      },
      { lines: input.lines },
    );
    const result: ActionResult = { action: input.action, return: created };
    await trx
      .updateTable('action_tokens')
      .set({
        consumed_at: scope.at,
        action: input.action,
        request_hash: requestHash,
        result: JSON.stringify(result),
        return_id: created.id,
      })
      .where('organization_id', '=', scope.organizationId)
      .where('token_hash', '=', row.token_hash)
      .execute();
    return { result, isReplay: false };
  });
}
