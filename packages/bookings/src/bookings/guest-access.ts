import { AppError, canonicalJson, hashToken, isTokenOf } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { retryOnAbort } from '../capacity/capacity-lock.ts';
import type { BookingClockContext } from '../context.ts';
import { lockBookingPaymentSessions } from './booking-payments.ts';

/**
 * Guest access to one booking through its `m1_` management token.
 * The token is looked up by its SHA-256 only; an unknown, malformed, expired,
 * revoked or another store's token is the neutral 404. One token makes one
 * mutation: the first records `{ route, fingerprint, response }` under the
 * token's row lock, the same route and body replays that response, anything
 * else is `409 INVALID_STATE_TRANSITION` (`details.reason: TOKEN_CONSUMED`).
 * A consumed token stays readable until it expires.
 */

/** What a consumed token recorded of its one mutation. */
export interface ConsumedGuestAction {
  /** The route template, e.g. `POST /customer/bookings/{token}/cancel-request`. */
  route: string;
  /** SHA-256 of the canonical JSON of the body: key order does not matter. */
  fingerprint: string;
  response: unknown;
}

export interface GuestAccess {
  bookingId: string;
  tokenHash: string;
  expiresAt: Date;
  /** Null while the token has made no mutation. */
  consumedAction: ConsumedGuestAction | null;
}

/**
 * Runs `run` in the transaction `db` is, or in a new READ COMMITTED one: the
 * transitions a customer action makes may move capacity claims, which refuse
 * other isolation levels.
 */
export function inReadCommitted<T>(
  db: Kysely<Database>,
  run: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.isTransaction ? run(db) : db.transaction().setIsolationLevel('read committed').execute(run);
}

/**
 * `inReadCommitted`, rerun after a deadlock or serialization failure when it
 * opens the transaction; handed one, it runs once and its
 * owner decides about retries.
 */
export function inRetriedTransaction<T>(
  db: Kysely<Database>,
  run: (trx: Kysely<Database>) => Promise<T>,
): Promise<T> {
  return db.isTransaction ? run(db) : retryOnAbort(() => inReadCommitted(db, run));
}

export const guestBookingNotFound = () => AppError.notFound('Booking not found');

/** The fingerprint of a mutation's body, for the replay comparison. */
export function guestActionFingerprint(body: unknown): string {
  return hashToken(canonicalJson(body ?? {}));
}

function consumedActionOf(raw: unknown): ConsumedGuestAction | null {
  if (raw === null || typeof raw !== 'object') return null;
  const action = raw as Partial<ConsumedGuestAction>;
  return typeof action.route === 'string' && typeof action.fingerprint === 'string'
    ? { route: action.route, fingerprint: action.fingerprint, response: action.response ?? null }
    : null;
}

/**
 * The booking a live token of the tenant opens, or the neutral 404. A consumed
 * token is never revoked (a new token revokes only unused ones), so it keeps
 * answering until `expiresAt`. `forUpdate` locks the token row.
 */
export async function findGuestAccess(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  token: string,
  options: { forUpdate?: boolean } = {},
): Promise<GuestAccess> {
  if (!isTokenOf('bookingManagement', token)) throw guestBookingNotFound();
  const row = await db
    .selectFrom('booking_management_tokens')
    .select(['booking_id', 'token_hash', 'expires_at', 'revoked_at', 'consumed_at', 'consumed_action'])
    .where('token_hash', '=', hashToken(token))
    .where('organization_id', '=', ctx.organizationId)
    .$if(options.forUpdate === true, (qb) => qb.forUpdate())
    .executeTakeFirst();
  if (!row) throw guestBookingNotFound();
  const expiresAt = new Date(row.expires_at);
  if (expiresAt.getTime() <= ctx.at.getTime()) throw guestBookingNotFound();
  if (row.revoked_at !== null && row.consumed_at === null) throw guestBookingNotFound();
  return {
    bookingId: row.booking_id,
    tokenHash: row.token_hash,
    expiresAt,
    consumedAction: row.consumed_at === null ? null : consumedActionOf(row.consumed_action),
  };
}

/** What a guest mutation returns: its response, and work to run once the transaction committed. */
export interface GuestMutationResult<T> {
  response: T;
  afterCommit?: () => Promise<void>;
}

/**
 * Runs a guest's one mutation with a token. Under the token's row lock (so
 * concurrent requests with one token queue): a consumed token replays its
 * recorded response for the same route and body and refuses anything else;
 * an unused one is marked consumed first (a token issued by the mutation's own
 * emails then leaves it alone, since only unused tokens are revoked), the
 * mutation runs, and its response is recorded in the same transaction. A
 * mutation that throws rolls everything back: the token stays unused. The
 * mutation's after-commit work (a provider call) is returned for the caller
 * to run once the transaction has committed; a replay has none.
 */
export async function runGuestMutation<T>(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  token: string,
  action: { route: string; body: unknown },
  mutate: (trx: Kysely<Database>, bookingId: string) => Promise<GuestMutationResult<T>>,
): Promise<{ response: T; replayed: boolean; afterCommit?: () => Promise<void> }> {
  const fingerprint = guestActionFingerprint(action.body);
  return inRetriedTransaction(db, async (trx) => {
    // The booking's payment sessions before the token: the payment webhook takes them first, then
    // the booking, then (revoking unused tokens as it emails a fresh link) the token rows.
    const peek = await findGuestAccess(trx, ctx, token);
    await lockBookingPaymentSessions(trx, ctx.organizationId, peek.bookingId);
    const access = await findGuestAccess(trx, ctx, token, { forUpdate: true });
    if (access.consumedAction !== null) {
      if (access.consumedAction.route === action.route && access.consumedAction.fingerprint === fingerprint) {
        return { response: access.consumedAction.response as T, replayed: true, afterCommit: undefined };
      }
      throw new AppError('INVALID_STATE_TRANSITION', 'This link was already used for another change', {
        reason: 'TOKEN_CONSUMED',
      });
    }
    const record = (response: unknown) =>
      trx
        .updateTable('booking_management_tokens')
        .set({
          consumed_at: ctx.at,
          consumed_action: JSON.stringify({ route: action.route, fingerprint, response }),
        })
        .where('token_hash', '=', access.tokenHash)
        .where('organization_id', '=', ctx.organizationId)
        .execute();
    await record(null);
    const result = await mutate(trx, access.bookingId);
    await record(result.response);
    return {
      response: result.response,
      replayed: false,
      ...(result.afterCommit ? { afterCommit: result.afterCommit } : {}),
    };
  });
}
