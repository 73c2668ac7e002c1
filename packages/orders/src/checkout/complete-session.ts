import type { CheckoutSession, CheckoutSessionStatus, Database } from '@commerce/db';
import type { Kysely } from 'kysely';

/** Moves a session to a state, with the order it now belongs to. */
export async function moveSession(
  trx: Kysely<Database>,
  session: Pick<CheckoutSession, 'organization_id' | 'id'>,
  status: CheckoutSessionStatus,
  at: Date,
  changes: { order_id?: string; completed_at?: Date } = {},
): Promise<void> {
  await trx
    .updateTable('checkout_sessions')
    .set({ status, updated_at: at, ...changes })
    .where('organization_id', '=', session.organization_id)
    .where('id', '=', session.id)
    .execute();
}

export function completeSession(
  trx: Kysely<Database>,
  session: Pick<CheckoutSession, 'organization_id' | 'id'>,
  orderId: string,
  at: Date,
): Promise<void> {
  return moveSession(trx, session, 'COMPLETED', at, { order_id: orderId, completed_at: at });
}
