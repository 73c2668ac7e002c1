import type { Database } from '@commerce/db';
import { type Kysely, sql } from 'kysely';

/**
 * An audit of the capacity invariant (live claims never exceed a resource's
 * capacity) read from the database, for tests after concurrent runs and for
 * `bench/check-capacity.ts`:
 *
 * - per resource, the peak of its live claims from `at` on (a blackout counts
 *   as the whole capacity, as in availability reads) never exceeds its capacity;
 * - every `ACTIVE`, unexpired hold owns at least one live claim, and every live
 *   hold claim belongs to an `ACTIVE` hold;
 * - when the `bookings` table exists, every live booking claim belongs to a
 *   `PENDING_PAYMENT` or `CONFIRMED` booking.
 *
 * Reads only; several statements, so run it when the writers have stopped.
 */
export interface CapacityReport {
  at: Date;
  /** Resources with live claims from `at` on, by organization and id. */
  resources: {
    organizationId: string;
    resourceId: string;
    capacity: number;
    peak: number;
    liveClaims: number;
  }[];
  overCapacity: { organizationId: string; resourceId: string; capacity: number; peak: number }[];
  holds: {
    active: number;
    /** Live claims owned by holds, and their units. */
    liveClaims: number;
    liveUnits: number;
    activeWithoutClaims: string[];
    claimsOfInactiveHolds: string[];
  };
  /** Null when the `bookings` table does not exist. */
  bookings: { owningLiveClaims: number; liveClaims: number; claimsOfNonClaimingBookings: string[] } | null;
  ok: boolean;
}

const LIVE = (at: string) =>
  sql`c.released_at is null and (c.expires_at is null or c.expires_at > ${at}::timestamptz)`;

export async function checkCapacity(
  db: Kysely<Database>,
  options: { at?: Date; organizationId?: string } = {},
): Promise<CapacityReport> {
  const at = options.at ?? new Date();
  const iso = at.toISOString();
  const tenant = (alias: string) =>
    options.organizationId === undefined
      ? sql`true`
      : sql`${sql.ref(`${alias}.organization_id`)} = ${options.organizationId}`;

  // The trigger's sweep from `at` on: +units at each start (or at `at`), −units at each end, ends first.
  const peaks = await sql<{
    organization_id: string;
    resource_id: string;
    capacity: number;
    peak: number;
    live_claims: number;
  }>`
    with live as (
      select c.organization_id, c.resource_id,
        case when c.blackout_id is null then c.quantity else r.capacity end as units,
        greatest(lower(c.during), ${iso}::timestamptz) as starts_at, upper(c.during) as ends_at
      from booking_capacity_claims c
      join booking_resources r on r.organization_id = c.organization_id and r.id = c.resource_id
      where ${LIVE(iso)} and upper(c.during) > ${iso}::timestamptz and ${tenant('c')}
    ), events as (
      select organization_id, resource_id, starts_at as instant, units as delta from live
      union all
      select organization_id, resource_id, ends_at as instant, -units as delta from live
    ), running as (
      select organization_id, resource_id,
        sum(delta) over (partition by organization_id, resource_id order by instant, delta
          rows between unbounded preceding and current row) as load
      from events
    )
    select r.organization_id, r.id as resource_id, r.capacity,
      (select max(load) from running u where u.organization_id = r.organization_id and u.resource_id = r.id)::int as peak,
      (select count(*) from live l where l.organization_id = r.organization_id and l.resource_id = r.id)::int as live_claims
    from booking_resources r
    where exists (select 1 from live l where l.organization_id = r.organization_id and l.resource_id = r.id)
    order by r.organization_id, r.id
  `.execute(db);
  const resources = peaks.rows.map((row) => ({
    organizationId: row.organization_id,
    resourceId: row.resource_id,
    capacity: row.capacity,
    peak: Number(row.peak),
    liveClaims: Number(row.live_claims),
  }));
  const overCapacity = resources
    .filter((resource) => resource.peak > resource.capacity)
    .map(({ organizationId, resourceId, capacity, peak }) => ({
      organizationId,
      resourceId,
      capacity,
      peak,
    }));

  const holdSummary = await sql<{ active: number; live_claims: number; live_units: number }>`
    select
      (select count(*) from booking_holds h
        where h.status = 'ACTIVE' and h.expires_at > ${iso}::timestamptz and ${tenant('h')})::int as active,
      (select count(*) from booking_capacity_claims c where c.hold_id is not null and ${LIVE(iso)} and ${tenant('c')})::int as live_claims,
      (select coalesce(sum(c.quantity), 0) from booking_capacity_claims c
        where c.hold_id is not null and ${LIVE(iso)} and ${tenant('c')})::int as live_units
  `.execute(db);
  const activeWithoutClaims = await sql<{ id: string }>`
    select h.id from booking_holds h
    where h.status = 'ACTIVE' and h.expires_at > ${iso}::timestamptz and ${tenant('h')}
      and not exists (select 1 from booking_capacity_claims c
        where c.organization_id = h.organization_id and c.hold_id = h.id and ${LIVE(iso)})
    order by h.id limit 100
  `.execute(db);
  const claimsOfInactiveHolds = await sql<{ id: string }>`
    select c.id from booking_capacity_claims c
    join booking_holds h on h.organization_id = c.organization_id and h.id = c.hold_id
    where ${LIVE(iso)} and h.status <> 'ACTIVE' and ${tenant('c')}
    order by c.id limit 100
  `.execute(db);

  let bookings: CapacityReport['bookings'] = null;
  const exists = await sql<{
    present: boolean;
  }>`select to_regclass('bookings') is not null as present`.execute(db);
  if (exists.rows[0]?.present) {
    const summary = await sql<{ owning: number; live_claims: number }>`
      select count(distinct c.booking_id)::int as owning, count(*)::int as live_claims
      from booking_capacity_claims c where c.booking_id is not null and ${LIVE(iso)} and ${tenant('c')}
    `.execute(db);
    // Written as text so this module compiles whether or not the branch types the table.
    const strays = await sql<{ id: string }>`
      select c.id from booking_capacity_claims c
      where c.booking_id is not null and ${LIVE(iso)} and ${tenant('c')}
        and not exists (select 1 from ${sql.table('bookings')} b
          where b.organization_id = c.organization_id and b.id = c.booking_id
            and b.status in ('PENDING_PAYMENT', 'CONFIRMED'))
      order by c.id limit 100
    `.execute(db);
    bookings = {
      owningLiveClaims: Number(summary.rows[0]?.owning ?? 0),
      liveClaims: Number(summary.rows[0]?.live_claims ?? 0),
      claimsOfNonClaimingBookings: strays.rows.map((row) => row.id),
    };
  }

  const summary = holdSummary.rows[0] ?? { active: 0, live_claims: 0, live_units: 0 };
  const holds = {
    active: Number(summary.active),
    liveClaims: Number(summary.live_claims),
    liveUnits: Number(summary.live_units),
    activeWithoutClaims: activeWithoutClaims.rows.map((row) => row.id),
    claimsOfInactiveHolds: claimsOfInactiveHolds.rows.map((row) => row.id),
  };
  return {
    at,
    resources,
    overCapacity,
    holds,
    bookings,
    ok:
      overCapacity.length === 0 &&
      holds.activeWithoutClaims.length === 0 &&
      holds.claimsOfInactiveHolds.length === 0 &&
      (bookings === null || bookings.claimsOfNonClaimingBookings.length === 0),
  };
}
