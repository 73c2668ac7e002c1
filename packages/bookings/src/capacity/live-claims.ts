import type { Database } from '@commerce/db';
import { type Kysely, sql } from 'kysely';
import type { BookingClockContext } from '../context.ts';

/**
 * One resource's live claims over a window, compact: parallel arrays of
 * epoch-minute starts and ends and their units, ordered by start. A blackout
 * counts as the resource's present capacity.
 */
export interface ResourceClaims {
  resourceId: string;
  capacity: number;
  status: 'ACTIVE' | 'ARCHIVED';
  startMinutes: number[];
  endMinutes: number[];
  quantities: number[];
}

/**
 * The availability read: every candidate resource's live claims overlapping
 * `[startsAt, endsAt)` in ONE statement, one row per resource, served by the
 * GiST index over unreleased claims. Live means unreleased and not expired at
 * `ctx.at`. Resources of no such id in the organization are absent from the
 * answer.
 */
export async function readLiveClaims(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  resourceIds: readonly string[],
  window: { startsAt: Date; endsAt: Date },
): Promise<ResourceClaims[]> {
  const ids = [...new Set(resourceIds)];
  if (ids.length === 0) return [];
  const result = await liveClaimsQuery(ctx, ids, window).execute(db);
  return result.rows.map(toResourceClaims);
}

/** A row of `liveClaimsQuery`. */
export interface LiveClaimsRow {
  resource_id: string;
  capacity: number;
  status: 'ACTIVE' | 'ARCHIVED';
  start_minutes: number[];
  end_minutes: number[];
  quantities: number[];
}

/** The statement of `readLiveClaims`, for a caller that reads more in the same round trip. */
export function liveClaimsQuery(
  ctx: BookingClockContext,
  ids: readonly string[],
  window: { startsAt: Date; endsAt: Date },
) {
  // One sort per resource, not one per array: the lateral aggregates its ordered subquery as it
  // comes (a plain aggregate over a sort, with no join between them), so the three arrays share
  // that order. On PGlite this took the 50-resource search from 78 to 44 ms p95.
  return sql<LiveClaimsRow>`
    select r.id as resource_id, r.capacity, r.status,
      coalesce(x.start_minutes, '{}'::int[]) as start_minutes,
      coalesce(x.end_minutes, '{}'::int[]) as end_minutes,
      coalesce(x.quantities, '{}'::int[]) as quantities
    from booking_resources r
    left join lateral (
      select array_agg(o.start_minute) as start_minutes, array_agg(o.end_minute) as end_minutes,
        array_agg(o.quantity) as quantities
      from (
        select c.start_minute, c.end_minute,
          case when c.blackout_id is null then c.quantity else r.capacity end as quantity
        from booking_capacity_claims c
        where c.organization_id = r.organization_id and c.resource_id = r.id
          and c.released_at is null
          and (c.expires_at is null or c.expires_at > ${ctx.at.toISOString()}::timestamptz)
          and c.during && tstzrange(${window.startsAt.toISOString()}::timestamptz, ${window.endsAt.toISOString()}::timestamptz, '[)')
        order by c.start_minute, c.id
      ) o
    ) x on true
    where r.organization_id = ${ctx.organizationId} and r.id = any(${[...ids]}::text[])
    order by r.id
  `;
}

export function toResourceClaims(row: LiveClaimsRow): ResourceClaims {
  return {
    resourceId: row.resource_id,
    capacity: row.capacity,
    status: row.status,
    startMinutes: row.start_minutes,
    endMinutes: row.end_minutes,
    quantities: row.quantities,
  };
}

/** A row of `peakClaimsQuery`: a resource and the peak of its live claims over one interval. */
export interface PeakRow {
  resource_id: string;
  capacity: number;
  status: 'ACTIVE' | 'ARCHIVED';
  peak: number;
}

/**
 * The peak of each resource's live claims over `[startMinute, endMinute)` (epoch minutes), as the
 * capacity trigger finds it (a blackout counts as the present capacity; ends before starts at one
 * instant, so touching claims never add up): one row per resource, however many claims. The units
 * are added first, in one pass: when every claim covers the whole interval (a hot slot) their sum is
 * the peak; only partial overlaps are swept. What a single interval needs, where `liveClaimsQuery`
 * ships every claim for a search.
 */
export function peakClaimsQuery(
  ctx: BookingClockContext,
  ids: readonly string[],
  interval: { startMinute: number; endMinute: number },
) {
  const from = new Date(interval.startMinute * 60_000).toISOString();
  const until = new Date(interval.endMinute * 60_000).toISOString();
  const range = sql`tstzrange(${from}::timestamptz, ${until}::timestamptz, '[)')`;
  const live = sql`c.organization_id = r.organization_id and c.resource_id = r.id
    and c.released_at is null
    and (c.expires_at is null or c.expires_at > ${ctx.at.toISOString()}::timestamptz)
    and c.during && ${range}`;
  const units = sql`case when c.blackout_id is null then c.quantity else r.capacity end`;
  // A scalar subquery in a CASE branch runs only when the branch is taken.
  return sql<PeakRow>`
    select r.id as resource_id, r.capacity, r.status,
      case when claims.total is null then 0
        when claims.covering then claims.total
        else coalesce((
          select max(running)::int from (
            select sum(delta) over (order by at, delta) as running from (
              select greatest(c.start_minute, ${interval.startMinute}::int) as at, ${units} as delta
                from booking_capacity_claims c where ${live}
              union all
              select least(c.end_minute, ${interval.endMinute}::int), -(${units})
                from booking_capacity_claims c where ${live}
            ) events
          ) sweep
        ), 0)
      end as peak
    from booking_resources r
    cross join lateral (
      select sum(${units})::int as total, bool_and(c.during @> ${range}) as covering
      from booking_capacity_claims c where ${live}
    ) claims
    where r.organization_id = ${ctx.organizationId} and r.id = any(${[...ids]}::text[])
    order by r.id
  `;
}

/** Free units per resource from `peakClaimsQuery` rows: capacity minus the peak, never below 0. */
export function freeUnitsOf(rows: readonly PeakRow[]): Map<string, number> {
  return new Map(rows.map((row) => [row.resource_id, Math.max(0, row.capacity - Number(row.peak))]));
}

/** `peakClaimsQuery` run on its own. */
export async function readFreeUnits(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  resourceIds: readonly string[],
  interval: { startMinute: number; endMinute: number },
): Promise<Map<string, number>> {
  const ids = [...new Set(resourceIds)];
  if (ids.length === 0) return new Map();
  return freeUnitsOf((await peakClaimsQuery(ctx, ids, interval).execute(db)).rows);
}

/** A live claim in the way of a change, as `details.conflicts[]` reports it. */
export interface ClaimConflict {
  kind: 'HOLD' | 'BOOKING' | 'BLACKOUT';
  id: string;
  startsAt: string;
  endsAt: string;
  quantity: number;
}

/**
 * The live claims of a resource that stand in the way of its capacity being
 * `capacity` over `[from, until)`: those overlapping an instant where their
 * units (a blackout: all of `capacity`) plus `extraUnits` exceed it. Lowering
 * a capacity asks with no extra units over the future; a blackout asks with
 * the whole capacity over its interval. Run it under the resource's lock.
 */
export async function findConflictingClaims(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  query: { resourceId: string; capacity: number; extraUnits: number; from: Date; until: Date | null },
): Promise<ClaimConflict[]> {
  const at = ctx.at.toISOString();
  const until = query.until === null ? null : query.until.toISOString();
  const result = await sql<{
    hold_id: string | null;
    booking_id: string | null;
    blackout_id: string | null;
    starts_at: Date;
    ends_at: Date;
    quantity: number;
  }>`
    with live as (
      select c.id, c.hold_id, c.booking_id, c.blackout_id, c.during,
        case when c.blackout_id is null then c.quantity else ${query.capacity}::int end as units
      from booking_capacity_claims c
      where c.organization_id = ${ctx.organizationId} and c.resource_id = ${query.resourceId}
        and c.released_at is null and (c.expires_at is null or c.expires_at > ${at}::timestamptz)
        and c.during && tstzrange(${query.from.toISOString()}::timestamptz, ${until}::timestamptz, '[)')
    ),
    events as (
      select lower(during) as at, units as delta from live
      union all
      select upper(during), -units from live
    ),
    sweep as (
      select at, sum(delta) over (order by at, delta) as running,
        lead(at) over (order by at, delta) as next_at
      from events
    ),
    over_capacity as (
      select tstzrange(at, next_at, '[)') as span from sweep
      where next_at > at and running + ${query.extraUnits}::int > ${query.capacity}::int
        and next_at > ${query.from.toISOString()}::timestamptz
        and (${until}::timestamptz is null or at < ${until}::timestamptz)
    )
    select distinct live.id, live.hold_id, live.booking_id, live.blackout_id,
      lower(live.during) as starts_at, upper(live.during) as ends_at, live.units as quantity
    from live join over_capacity on live.during && over_capacity.span
    order by starts_at, live.id
  `.execute(db);
  return result.rows.map((row) => ({
    kind: row.hold_id !== null ? 'HOLD' : row.booking_id !== null ? 'BOOKING' : 'BLACKOUT',
    id: (row.hold_id ?? row.booking_id ?? row.blackout_id)!,
    startsAt: new Date(row.starts_at).toISOString(),
    endsAt: new Date(row.ends_at).toISOString(),
    quantity: row.quantity,
  }));
}
