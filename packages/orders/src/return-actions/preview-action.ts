import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { findOrder } from '../orders/order-read.ts';
import { returnableLinesOf } from '../returns/eligibility.ts';
import { findLiveActionToken, tokenLinesOf } from './action-tokens.ts';
import type { ActionPreview, ActionResult } from './schemas.ts';

/**
 * `GET /customer/actions/{token}`: what the token may do and on what,
 * without changing anything. A used token, until it expires or is revoked,
 * still previews, with its actions disabled and the recorded result.
 */
export async function previewAction(
  db: Kysely<Database>,
  scope: { organizationId: string; at: Date },
  token: string,
): Promise<ActionPreview> {
  const row = await findLiveActionToken(db, scope.organizationId, token, scope.at);
  const order = await findOrder(db, scope.organizationId, row.order_id);
  const left = new Map(
    (await returnableLinesOf(db, order)).map((line) => [line.lineId, line.returnableQuantity]),
  );
  const isUsed = row.consumed_at !== null;
  return {
    purpose: row.purpose,
    expiresAt: row.expires_at.toISOString(),
    consumedAt: row.consumed_at?.toISOString() ?? null,
    order: {
      orderReference: order.order_reference,
      orderNumber: Number(order.order_number),
      status: order.status,
    },
    lines: tokenLinesOf(row).map((line) => ({
      ...line,
      returnableQuantity: isUsed ? 0 : Math.min(line.quantity, left.get(line.lineId) ?? 0),
    })),
    actions: [{ action: 'REQUEST_RETURN', enabled: !isUsed }],
    result: (row.result as ActionResult | null) ?? null,
  };
}
