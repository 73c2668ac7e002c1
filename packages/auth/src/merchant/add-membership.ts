import { newId } from '@commerce/core';
import { type Database, type Membership, type MembershipRole, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { PermissionGroup } from '../permissions.ts';

/**
 * Adds a membership for an email: bound at once when exactly one merchant
 * user holds that email verified, otherwise pending until a verified sign-in.
 * Uniqueness per organization and email is the database's job (the caller
 * maps the violation to its own error). Binding a user at once is audited as
 * `membership.activated` `{ via: 'grant' }` with that user as actor, as the
 * binding at sign-in is (`{ via: 'sign_in' }`); call it inside the caller's
 * transaction so the record exists exactly when the membership does.
 */
export async function addMembership(
  db: Kysely<Database>,
  input: {
    organizationId: string;
    email: string;
    invitedName?: string | null;
    role: MembershipRole;
    permissions: PermissionGroup[];
    at: Date;
  },
): Promise<Membership> {
  const email = input.email.toLowerCase();
  // Bind at once only to the one user whose provider vouched for this email; otherwise the
  // membership waits for a verified sign-in (two subjects may share an address).
  const candidates = await db
    .selectFrom('merchant_users')
    .select('id')
    .where('email', '=', email)
    .where('email_verified', '=', true)
    .limit(2)
    .execute();
  const user = candidates.length === 1 ? candidates[0] : undefined;
  const membership = await db
    .insertInto('memberships')
    .values({
      organization_id: input.organizationId,
      id: newId('mem', input.at),
      user_id: user?.id ?? null,
      email,
      invited_name: input.invitedName ?? null,
      role: input.role,
      permissions: JSON.stringify(input.role === 'Staff' ? input.permissions : []),
      status: user ? 'ACTIVE' : 'PENDING',
      created_at: input.at,
      updated_at: input.at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (user) {
    await recordAudit(db, {
      organizationId: input.organizationId,
      actor: { userId: user.id, email },
      action: 'membership.activated',
      targetType: 'membership',
      targetId: membership.id,
      metadata: { via: 'grant' },
      at: input.at,
    });
  }
  return membership;
}
