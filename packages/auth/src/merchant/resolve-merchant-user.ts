import { newId } from '@commerce/core';
import { type Database, type MerchantUser, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { MerchantClaims } from '../merchant-jwt.ts';

/**
 * Finds the merchant user of a verified token, creating it on first sign-in.
 * Whenever the provider vouches for an email the user did not hold verified
 * before (first sign-in, an email change, or a first verified sign-in), the
 * user takes up the pending memberships granted to that email.
 */
export async function resolveMerchantUser(
  db: Kysely<Database>,
  claims: MerchantClaims,
  at: Date,
): Promise<MerchantUser> {
  const existing = await db
    .selectFrom('merchant_users')
    .selectAll()
    .where('subject', '=', claims.subject)
    .executeTakeFirst();
  if (existing && existing.email === claims.email && (existing.email_verified || !claims.emailVerified)) {
    return existing;
  }

  return db.transaction().execute(async (trx) => {
    let user: MerchantUser;
    if (existing) {
      user = await trx
        .updateTable('merchant_users')
        .set({ email: claims.email, email_verified: claims.emailVerified, updated_at: at })
        .where('id', '=', existing.id)
        .returningAll()
        .executeTakeFirstOrThrow();
    } else {
      // Two first requests of one user race here: the loser's insert does nothing and it reads the winner's row.
      await trx
        .insertInto('merchant_users')
        .values({
          id: newId('usr', at),
          subject: claims.subject,
          email: claims.email,
          email_verified: claims.emailVerified,
          name: claims.name,
          created_at: at,
          updated_at: at,
        })
        .onConflict((conflict) => conflict.column('subject').doNothing())
        .execute();
      user = await trx
        .selectFrom('merchant_users')
        .selectAll()
        .where('subject', '=', claims.subject)
        .executeTakeFirstOrThrow();
    }
    if (claims.emailVerified) await bindPendingMemberships(trx, user, at);
    return user;
  });
}

async function bindPendingMemberships(db: Kysely<Database>, user: MerchantUser, at: Date): Promise<void> {
  const bound = await db
    .updateTable('memberships')
    .set({ user_id: user.id, status: 'ACTIVE', updated_at: at })
    .where('user_id', 'is', null)
    .where('email', '=', user.email)
    // A user already bound in that organization keeps that membership; the pending duplicate stays pending.
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('memberships as bound')
            .select('bound.id')
            .whereRef('bound.organization_id', '=', 'memberships.organization_id')
            .where('bound.user_id', '=', user.id),
        ),
      ),
    )
    .returning(['organization_id', 'id'])
    .execute();
  for (const membership of bound) {
    await recordAudit(db, {
      organizationId: membership.organization_id,
      actor: { userId: user.id, email: user.email },
      action: 'membership.activated',
      targetType: 'membership',
      targetId: membership.id,
      metadata: { via: 'sign_in' },
      at,
    });
  }
}
