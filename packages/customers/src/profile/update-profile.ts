import { customerActor, type Database, inTransaction, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import { type ChallengeScope, issueChallenge } from '../sign-in/challenges.ts';
import { findCustomer, toCustomerProfileRead } from './get-profile.ts';
import type { CustomerProfileRead, UpdateCustomerProfileInput } from './schemas.ts';

const emptyToNull = (value: string | null) => (value === null || value === '' ? null : value);

/**
 * Updates name and phone at once. A new email is only asked for: it becomes
 * `pendingEmail` and a CUSTOMER_AUTH email (link and code) goes to it, in the
 * same transaction; `email` changes when that is verified. Asking for the
 * current email withdraws a pending change. Both are audited with the
 * customer as actor: `customer.email_change_requested` `{ pendingEmail }`
 * and `customer.email_change_withdrawn` `{ pendingEmail }` (never the code
 * or link).
 */
export async function updateCustomerProfile(
  db: Kysely<Database>,
  scope: ChallengeScope,
  customerId: string,
  input: UpdateCustomerProfileInput,
): Promise<CustomerProfileRead> {
  return inTransaction(db, async (trx) => {
    const current = await findCustomer(trx, scope.organizationId, customerId, 'update');
    const changes: { name?: string | null; phone?: string | null; pending_email?: string | null } = {};
    if (input.name !== undefined) changes.name = emptyToNull(input.name);
    if (input.phone !== undefined) changes.phone = emptyToNull(input.phone);
    if (input.email !== undefined) {
      const email = input.email.trim().toLowerCase();
      const audit = (action: string, pendingEmail: string) =>
        recordAudit(trx, {
          organizationId: scope.organizationId,
          actor: customerActor(current),
          action,
          targetType: 'customer',
          targetId: customerId,
          metadata: { pendingEmail },
          at: scope.at,
        });
      if (email === current.email.toLowerCase()) {
        changes.pending_email = null;
        if (current.pending_email !== null)
          await audit('customer.email_change_withdrawn', current.pending_email);
      } else {
        changes.pending_email = email;
        await issueChallenge(trx, scope, { purpose: 'EMAIL_CHANGE', email, customerId, withLink: true });
        await audit('customer.email_change_requested', email);
      }
    }
    if (Object.keys(changes).length === 0) return toCustomerProfileRead(current);
    const updated = await trx
      .updateTable('customers')
      .set({ ...changes, updated_at: scope.at })
      .where('organization_id', '=', scope.organizationId)
      .where('id', '=', customerId)
      .returningAll()
      .executeTakeFirstOrThrow();
    return toCustomerProfileRead(updated);
  });
}
