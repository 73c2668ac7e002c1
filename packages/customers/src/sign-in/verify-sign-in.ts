import { AppError, hashToken } from '@commerce/core';
import {
  type AuditActor,
  type CustomerSignInChallenge,
  customerActor,
  type Database,
  inTransaction,
  recordAudit,
} from '@commerce/db';
import type { Kysely } from 'kysely';
import { upsertVerifiedCustomer } from '../accounts/upsert-verified-customer.ts';
import { createSession, type IssuedSession } from '../sessions/sessions.ts';
import { codeMatches, LINK_TOKEN_PATTERN, MAX_FAILED_CODE_ATTEMPTS } from './challenges.ts';
import type { VerifySignInInput } from './schemas.ts';

const failed = () => new AppError('VERIFICATION_FAILED');

/**
 * Verifies a link token or an email and code, and starts a session. Every
 * failure (malformed, unknown, used, expired, voided, wrong code, another
 * tenant's) is the one neutral 401 VERIFICATION_FAILED. A wrong code counts
 * against every live code of the email, and is committed before the failure
 * is answered; the fifth wrong attempt voids a code. The challenge is
 * consumed under a row lock, so of two concurrent uses one wins. A sign-in
 * challenge creates the customer on first use; an email-change challenge
 * moves its customer to the verified address. Audited with the customer as
 * actor and target, never a code, link or token: `customer.signed_in`
 * `{ method }`, `customer.email_changed` `{ previousEmail }`, and
 * `customer.sign_in_locked` `{ voidedCodes }` when a wrong code voids codes.
 */
export async function verifySignIn(
  db: Kysely<Database>,
  scope: { organizationId: string; at: Date },
  input: VerifySignInInput,
): Promise<IssuedSession> {
  const outcome = await inTransaction(db, async (trx): Promise<IssuedSession | null> => {
    const challenge =
      'token' in input ? await consumeLink(trx, scope, input.token) : await consumeCode(trx, scope, input);
    if (!challenge) return null;
    const customer =
      challenge.purpose === 'SIGN_IN'
        ? await signInCustomer(trx, scope, challenge)
        : await changeEmail(trx, scope, challenge);
    if (!customer) return null;
    await recordAudit(trx, {
      organizationId: scope.organizationId,
      actor: customerActor(customer),
      action: 'customer.signed_in',
      targetType: 'customer',
      targetId: customer.id,
      metadata: { method: 'token' in input ? 'LINK' : 'CODE' },
      at: scope.at,
    });
    return createSession(trx, scope, customer.id);
  });
  if (!outcome) throw failed();
  return outcome;
}

async function consumeLink(
  trx: Kysely<Database>,
  scope: { organizationId: string; at: Date },
  token: string,
): Promise<CustomerSignInChallenge | undefined> {
  if (!LINK_TOKEN_PATTERN.test(token)) return undefined;
  return trx
    .updateTable('customer_sign_in_challenges')
    .set({ consumed_at: scope.at })
    .where('organization_id', '=', scope.organizationId)
    .where('link_token_hash', '=', hashToken(token))
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', scope.at)
    .where('failed_attempts', '<', MAX_FAILED_CODE_ATTEMPTS)
    .returningAll()
    .executeTakeFirst();
}

async function consumeCode(
  trx: Kysely<Database>,
  scope: { organizationId: string; at: Date },
  input: { email: string; code: string },
): Promise<CustomerSignInChallenge | undefined> {
  const live = await trx
    .selectFrom('customer_sign_in_challenges')
    .selectAll()
    .where('organization_id', '=', scope.organizationId)
    .where('email', '=', input.email)
    .where('consumed_at', 'is', null)
    .where('expires_at', '>', scope.at)
    .where('failed_attempts', '<', MAX_FAILED_CODE_ATTEMPTS)
    .orderBy('created_at', 'desc')
    .forUpdate()
    .execute();
  // Every live code is compared, so the time taken does not say which one matched.
  let match: CustomerSignInChallenge | undefined;
  for (const challenge of live) {
    if (codeMatches(challenge.id, challenge.code_hash, input.code) && !match) match = challenge;
  }
  if (!match) {
    if (live.length > 0) {
      const counted = await trx
        .updateTable('customer_sign_in_challenges')
        .set((eb) => ({ failed_attempts: eb('failed_attempts', '+', 1) }))
        .where('organization_id', '=', scope.organizationId)
        .where(
          'id',
          'in',
          live.map((challenge) => challenge.id),
        )
        .returning(['failed_attempts', 'customer_id'])
        .execute();
      const voided = counted.filter((challenge) => challenge.failed_attempts >= MAX_FAILED_CODE_ATTEMPTS);
      if (voided.length > 0) await recordLockout(trx, scope, input.email, voided);
    }
    return undefined;
  }
  await trx
    .updateTable('customer_sign_in_challenges')
    .set({ consumed_at: scope.at })
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', match.id)
    .execute();
  return match;
}

/**
 * The wrong code that voided codes of an email (the lockout). The actor is
 * the customer the codes were for, when there is one: the holder of the
 * email, or the customer changing to it; otherwise only the address. The
 * same lookups run for known and unknown emails.
 */
async function recordLockout(
  trx: Kysely<Database>,
  scope: { organizationId: string; at: Date },
  email: string,
  voided: { customer_id: string | null }[],
): Promise<void> {
  const holder = await trx
    .selectFrom('customers')
    .select('id')
    .where('organization_id', '=', scope.organizationId)
    .where('email', '=', email)
    .executeTakeFirst();
  const customerId = holder?.id ?? voided.find((challenge) => challenge.customer_id)?.customer_id ?? null;
  const actor: AuditActor = { userId: customerId, email };
  await recordAudit(trx, {
    organizationId: scope.organizationId,
    actor,
    action: 'customer.sign_in_locked',
    targetType: 'customer',
    targetId: customerId,
    metadata: { voidedCodes: voided.length },
    at: scope.at,
  });
}

async function signInCustomer(
  trx: Kysely<Database>,
  scope: { organizationId: string; at: Date },
  challenge: CustomerSignInChallenge,
): Promise<{ id: string; email: string }> {
  // One sign-in uses up the email's other outstanding sign-in links and codes.
  await trx
    .updateTable('customer_sign_in_challenges')
    .set({ consumed_at: scope.at })
    .where('organization_id', '=', scope.organizationId)
    .where('email', '=', challenge.email)
    .where('purpose', '=', 'SIGN_IN')
    .where('consumed_at', 'is', null)
    .execute();
  const customer = await upsertVerifiedCustomer(trx, scope, challenge.email);
  return { id: customer.id, email: customer.email };
}

/**
 * Applies a verified email change when it is still the customer's latest
 * request and no other customer of the store has that email; otherwise the
 * verification fails (neutrally) and the challenge stays used.
 */
async function changeEmail(
  trx: Kysely<Database>,
  scope: { organizationId: string; at: Date },
  challenge: CustomerSignInChallenge,
): Promise<{ id: string; email: string } | null> {
  const customer = await trx
    .selectFrom('customers')
    .select(['id', 'email', 'pending_email'])
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', challenge.customer_id!)
    .forUpdate()
    .executeTakeFirst();
  if (!customer || customer.pending_email?.toLowerCase() !== challenge.email.toLowerCase()) return null;
  const taken = await trx
    .selectFrom('customers')
    .select('id')
    .where('organization_id', '=', scope.organizationId)
    .where('email', '=', challenge.email)
    .where('id', '!=', customer.id)
    .executeTakeFirst();
  if (taken) return null;
  await trx
    .updateTable('customers')
    .set({ email: challenge.email, pending_email: null, email_verified_at: scope.at, updated_at: scope.at })
    .where('organization_id', '=', scope.organizationId)
    .where('id', '=', customer.id)
    .execute();
  const changed = { id: customer.id, email: challenge.email };
  await recordAudit(trx, {
    organizationId: scope.organizationId,
    actor: customerActor(changed),
    action: 'customer.email_changed',
    targetType: 'customer',
    targetId: customer.id,
    metadata: { previousEmail: customer.email },
    at: scope.at,
  });
  return changed;
}
