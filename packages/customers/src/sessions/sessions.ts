import { customerActor, type Database, inTransaction, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import { isSessionToken, newSessionToken, sessionIdOf } from './session-token.ts';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Sessions live 30 days and are renewed when less than 15 days remain. */
export const SESSION_LIFETIME_MS = 30 * DAY_MS;
export const SESSION_RENEWAL_THRESHOLD_MS = 15 * DAY_MS;

export interface IssuedSession {
  /** The raw `s1_` token: exists only in this response and the cookie. */
  token: string;
  sessionId: string;
  customerId: string;
  expiresAt: Date;
}

/** Starts a session for a customer; only the token's hash is written. */
export async function createSession(
  db: Kysely<Database>,
  scope: { organizationId: string; at: Date },
  customerId: string,
): Promise<IssuedSession> {
  const token = newSessionToken();
  const sessionId = sessionIdOf(token);
  const expiresAt = new Date(scope.at.getTime() + SESSION_LIFETIME_MS);
  await db
    .insertInto('customer_sessions')
    .values({
      organization_id: scope.organizationId,
      id: sessionId,
      customer_id: customerId,
      expires_at: expiresAt,
      created_at: scope.at,
    })
    .execute();
  return { token, sessionId, customerId, expiresAt };
}

export interface ValidatedSession {
  sessionId: string;
  customer: { id: string; email: string; organizationId: string };
  expiresAt: Date;
  /** True when this validation extended the session (the cookie should be set again). */
  isRenewed: boolean;
}

/**
 * The live session a token names in this organization, renewed when less
 * than 15 days remain; null for a malformed, unknown, expired, revoked or
 * other organization's token. One indexed read, plus one write on renewal.
 */
export async function validateSessionToken(
  db: Kysely<Database>,
  scope: { organizationId: string; at: Date },
  token: string,
): Promise<ValidatedSession | null> {
  if (!isSessionToken(token)) return null;
  const sessionId = sessionIdOf(token);
  const row = await db
    .selectFrom('customer_sessions')
    .innerJoin('customers', (join) =>
      join
        .onRef('customers.organization_id', '=', 'customer_sessions.organization_id')
        .onRef('customers.id', '=', 'customer_sessions.customer_id'),
    )
    .select(['customer_sessions.expires_at', 'customers.id as customer_id', 'customers.email'])
    .where('customer_sessions.organization_id', '=', scope.organizationId)
    .where('customer_sessions.id', '=', sessionId)
    .executeTakeFirst();
  if (!row) return null;
  const now = scope.at.getTime();
  let expiresAt = new Date(row.expires_at);
  if (expiresAt.getTime() <= now) {
    await invalidateSession(db, scope.organizationId, sessionId);
    return null;
  }
  let isRenewed = false;
  if (expiresAt.getTime() - now < SESSION_RENEWAL_THRESHOLD_MS) {
    expiresAt = new Date(now + SESSION_LIFETIME_MS);
    isRenewed = true;
    await db
      .updateTable('customer_sessions')
      .set({ expires_at: expiresAt })
      .where('organization_id', '=', scope.organizationId)
      .where('id', '=', sessionId)
      .execute();
  }
  return {
    sessionId,
    customer: { id: row.customer_id, email: row.email, organizationId: scope.organizationId },
    expiresAt,
    isRenewed,
  };
}

/** Revokes one session (logout); revoking twice is harmless. */
export async function invalidateSession(
  db: Kysely<Database>,
  organizationId: string,
  sessionId: string,
): Promise<void> {
  await db
    .deleteFrom('customer_sessions')
    .where('organization_id', '=', organizationId)
    .where('id', '=', sessionId)
    .execute();
}

/**
 * Logout: revokes the session and audits `customer.signed_out` in one
 * transaction (no session id or token in the record). A session already
 * revoked records nothing.
 */
export async function signOut(
  db: Kysely<Database>,
  scope: { organizationId: string; at: Date },
  session: { sessionId: string; customer: { id: string; email: string } },
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const revoked = await trx
      .deleteFrom('customer_sessions')
      .where('organization_id', '=', scope.organizationId)
      .where('id', '=', session.sessionId)
      .returning('id')
      .executeTakeFirst();
    if (!revoked) return;
    await recordAudit(trx, {
      organizationId: scope.organizationId,
      actor: customerActor(session.customer),
      action: 'customer.signed_out',
      targetType: 'customer',
      targetId: session.customer.id,
      metadata: {},
      at: scope.at,
    });
  });
}
