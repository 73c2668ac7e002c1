import { type Kysely, sql } from 'kysely';

/**
 * The capacity trigger (14.19 rule 2) adds the overlapping live claims' units
 * first, in one pass: their sum is never below the peak, so a claim that fits
 * within it is accepted without the sweep; and when every overlapping claim
 * covers the new interval whole (a hot slot: every hold on the same
 * interval), the sum IS the peak, so a claim that does not fit is refused
 * without it too. Only partial overlaps past the sum are swept, as before. At a
 * slot of capacity 1,000 the sweep (two index scans, a sort and a window over
 * every claim) ran under the resource lock for every hold.
 *
 * No `down`: the function decides exactly as 0015's did, only in fewer steps,
 * so there is nothing to undo (0015's `down` drops it).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function booking_capacity_claims_check() returns trigger language plpgsql as $$
    declare
      claim_now timestamptz := coalesce(nullif(current_setting('bookings.now', true), '')::timestamptz, statement_timestamp());
      resource_capacity integer;
      claimed integer;
      peak integer;
      total bigint;
      covering boolean;
    begin
      if tg_op = 'INSERT' then
        new.start_minute := floor(extract(epoch from lower(new.during)) / 60);
        new.end_minute := ceil(extract(epoch from upper(new.during)) / 60);
      elsif new.organization_id <> old.organization_id or new.resource_id <> old.resource_id
        or new.quantity <> old.quantity or new.during <> old.during
        or new.start_minute <> old.start_minute or new.end_minute <> old.end_minute then
        raise exception 'capacity claims are released, never edited' using errcode = '55000';
      end if;

      if new.released_at is not null or (new.expires_at is not null and new.expires_at <= claim_now) then
        return new;
      end if;
      if tg_op = 'UPDATE' and old.released_at is null and (old.expires_at is null or old.expires_at > claim_now) then
        -- Live before and after: it took its units when it became live.
        if new.expires_at is not distinct from old.expires_at or (old.expires_at is not null and new.expires_at is not null and new.expires_at <= old.expires_at) then
          return new;
        end if;
      end if;

      if current_setting('transaction_isolation') <> 'read committed' then
        raise exception 'capacity claims are written at READ COMMITTED only' using errcode = 'BK002';
      end if;

      select capacity into resource_capacity
        from booking_resources
        where organization_id = new.organization_id and id = new.resource_id
        for update;
      if not found then
        raise exception 'no such resource' using errcode = '23503';
      end if;
      claimed := case when new.blackout_id is null then new.quantity else resource_capacity end;

      -- The sum is never below the peak; when every claim covers the new interval, it is the peak.
      select coalesce(sum(case when c.blackout_id is null then c.quantity else resource_capacity end), 0),
          coalesce(bool_and(c.during @> new.during), true)
        into total, covering
        from booking_capacity_claims c
        where c.organization_id = new.organization_id and c.resource_id = new.resource_id
          and c.released_at is null and (c.expires_at is null or c.expires_at > claim_now)
          and c.during && new.during and c.id <> new.id;
      if total + claimed <= resource_capacity then
        return new;
      end if;
      if covering then
        peak := total;
      else
        select coalesce(max(running), 0) into peak from (
          select sum(delta) over (order by at, delta) as running
          from (
            select greatest(lower(c.during), lower(new.during)) as at, case when c.blackout_id is null then c.quantity else resource_capacity end as delta
              from booking_capacity_claims c
              where c.organization_id = new.organization_id and c.resource_id = new.resource_id
              and c.released_at is null and (c.expires_at is null or c.expires_at > claim_now)
              and c.during && new.during and c.id <> new.id
            union all
            select least(upper(c.during), upper(new.during)), -(case when c.blackout_id is null then c.quantity else resource_capacity end)
              from booking_capacity_claims c
              where c.organization_id = new.organization_id and c.resource_id = new.resource_id
              and c.released_at is null and (c.expires_at is null or c.expires_at > claim_now)
              and c.during && new.during and c.id <> new.id
          ) events
        ) sweep;
      end if;

      if peak + claimed > resource_capacity then
        raise exception 'capacity unavailable' using errcode = 'BK001';
      end if;
      return new;
    end
    $$
  `.execute(db);
}
