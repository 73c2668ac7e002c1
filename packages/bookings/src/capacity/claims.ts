import { newId } from '@commerce/core';
import type { Database } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import type { BookingClockContext } from '../context.ts';
import { withCapacityLock } from './capacity-lock.ts';

/** What holds a claim: a hold (expiring with it), a booking, or a merchant blackout. */
export type ClaimOwner =
  | { kind: 'HOLD'; id: string }
  | { kind: 'BOOKING'; id: string }
  | { kind: 'BLACKOUT'; id: string };

export interface NewClaim {
  resourceId: string;
  quantity: number;
  /** The claimed interval `[startsAt, endsAt)`, buffers included, on whole minutes. */
  startsAt: Date;
  endsAt: Date;
  /** When the claim stops counting by itself (a hold's expiry); null: until released. */
  expiresAt: Date | null;
  owner: ClaimOwner;
}

const OWNER_COLUMN = { HOLD: 'hold_id', BOOKING: 'booking_id', BLACKOUT: 'blackout_id' } as const;

/** The `during` range of an interval, half-open as every booking interval is. */
export function duringOf(startsAt: Date, endsAt: Date) {
  return sql<string>`tstzrange(${startsAt.toISOString()}::timestamptz, ${endsAt.toISOString()}::timestamptz, '[)')`;
}

/**
 * Inserts claims, each checked by the capacity trigger (SQLSTATE BK001 when a
 * resource would exceed its capacity at some instant). Call it under
 * `withCapacityLock` over the claimed resources, so that the locks are taken
 * in id order before the trigger takes them one by one. Answers the new ids
 * in the order given.
 */
export async function insertClaims(
  trx: Kysely<Database>,
  ctx: BookingClockContext,
  claims: readonly NewClaim[],
): Promise<string[]> {
  if (claims.length === 0) return [];
  const ids = claims.map(() => newId('bcl', ctx.at));
  await trx
    .insertInto('booking_capacity_claims')
    .values(
      claims.map((claim, index) => ({
        organization_id: ctx.organizationId,
        id: ids[index]!,
        resource_id: claim.resourceId,
        quantity: claim.quantity,
        during: duringOf(claim.startsAt, claim.endsAt),
        expires_at: claim.expiresAt,
        released_at: null,
        hold_id: claim.owner.kind === 'HOLD' ? claim.owner.id : null,
        booking_id: claim.owner.kind === 'BOOKING' ? claim.owner.id : null,
        blackout_id: claim.owner.kind === 'BLACKOUT' ? claim.owner.id : null,
        created_at: ctx.at,
      })),
    )
    .execute();
  return ids;
}

/** Releases an owner's unreleased claims (claims are released, never edited); answers how many. */
export async function releaseClaims(
  trx: Kysely<Database>,
  ctx: BookingClockContext,
  owner: ClaimOwner,
): Promise<number> {
  const result = await trx
    .updateTable('booking_capacity_claims')
    .set({ released_at: ctx.at })
    .where('organization_id', '=', ctx.organizationId)
    .where(OWNER_COLUMN[owner.kind], '=', owner.id)
    .where('released_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** The resources an owner has unreleased claims on. */
export async function claimedResourceIds(
  db: Kysely<Database>,
  organizationId: string,
  owner: ClaimOwner,
): Promise<string[]> {
  const rows = await db
    .selectFrom('booking_capacity_claims')
    .select('resource_id')
    .distinct()
    .where('organization_id', '=', organizationId)
    .where(OWNER_COLUMN[owner.kind], '=', owner.id)
    .where('released_at', 'is', null)
    .execute();
  return rows.map((row) => row.resource_id);
}

/**
 * Moves an owner's claims (hold to booking, a reschedule) in one transaction
 * under the lock of every resource involved: the old claims are released, then
 * the new ones inserted and checked. Others see the old claims until the
 * commit; a failed check rolls the release back. Because the old claims are
 * released first, a move that overlaps its own old interval competes only with
 * others.
 */
export async function moveClaims(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  move: { from: ClaimOwner; to: readonly NewClaim[] },
): Promise<string[]> {
  // Claims are never edited, so the resources read before the lock are the ones to lock.
  const previous = await claimedResourceIds(db, ctx.organizationId, move.from);
  const resourceIds = [...previous, ...move.to.map((claim) => claim.resourceId)];
  return withCapacityLock(db, ctx, resourceIds, async (trx) => {
    await releaseClaims(trx, ctx, move.from);
    return insertClaims(trx, ctx, move.to);
  });
}
