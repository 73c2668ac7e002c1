import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { freeUnits, resourceLoad } from '../../availability/capacity.ts';
import { readLiveClaims } from '../../capacity/live-claims.ts';
import type { BookingClockContext } from '../../context.ts';
import type { HoldRow, HoldSnapshot } from './hold-terms.ts';

const MS_PER_MINUTE = 60_000;

/** The units a hold needs of each resource (its allocations summed by resource). */
export function unitsNeeded(
  allocations: readonly { resourceId: string; quantity: number }[],
): Map<string, number> {
  const needed = new Map<string, number>();
  for (const allocation of allocations)
    needed.set(allocation.resourceId, (needed.get(allocation.resourceId) ?? 0) + allocation.quantity);
  return needed;
}

/** Whether live claims (one row per claim) hold at least the units needed of every resource. */
export function claimsCover(
  live: readonly { resource_id: string; quantity: number }[],
  needed: ReadonlyMap<string, number>,
): boolean {
  const held = new Map<string, number>();
  for (const claim of live) held.set(claim.resource_id, (held.get(claim.resource_id) ?? 0) + claim.quantity);
  for (const [resourceId, units] of needed) if ((held.get(resourceId) ?? 0) < units) return false;
  return true;
}

/** The distinct resources a hold claims: the capacity lock's pool. */
export function poolOfHold(snapshot: HoldSnapshot): string[] {
  return [...new Set(snapshot.allocations.map((allocation) => allocation.resourceId))];
}

/** The hold's claim window (buffers included) as instants. */
export function claimWindowOf(snapshot: HoldSnapshot): { startsAt: Date; endsAt: Date } {
  return {
    startsAt: new Date(snapshot.claim.startMinute * MS_PER_MINUTE),
    endsAt: new Date(snapshot.claim.endMinute * MS_PER_MINUTE),
  };
}

/**
 * Whether the hold's claims are still live under the lock, and its units
 * still free once they are set aside: a conversion racing its expiry and a
 * new hold for the same units is decided here (the loser gets CAPACITY_LOST).
 */
export async function claimStillHeld(
  trx: Kysely<Database>,
  ctx: BookingClockContext,
  hold: HoldRow,
  snapshot: HoldSnapshot,
): Promise<boolean> {
  const live = await trx
    .selectFrom('booking_capacity_claims')
    .select(['resource_id', 'quantity'])
    .where('organization_id', '=', ctx.organizationId)
    .where('hold_id', '=', hold.id)
    .where('released_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', ctx.at)]))
    .execute();
  return claimsCover(live, unitsNeeded(snapshot.allocations));
}

/**
 * With the hold's own claims released, whether its units are still free over
 * its claim window: nothing else may hold them, and a claim lost to its
 * expiry shows here.
 */
export async function holdUnitsStillFree(
  trx: Kysely<Database>,
  ctx: BookingClockContext,
  snapshot: HoldSnapshot,
): Promise<boolean> {
  const loads = await readLiveClaims(trx, ctx, poolOfHold(snapshot), claimWindowOf(snapshot));
  const byResource = new Map(loads.map((row) => [row.resourceId, resourceLoad(row)]));
  for (const [resourceId, units] of unitsNeeded(snapshot.allocations)) {
    const load = byResource.get(resourceId);
    const free = load ? freeUnits(load, snapshot.claim.startMinute, snapshot.claim.endMinute) : 0;
    if (free < units) return false;
  }
  return true;
}
