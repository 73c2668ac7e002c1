import { type Kysely, sql } from 'kysely';

/**
 * Two changes to the capacity check (docs/bookings.md "The capacity trigger"), one function for both
 * triggers (`booking_capacity_claim_check`):
 *
 * - It adds the overlapping live claims' units first, in one pass: their sum
 *   is never below the peak, so a claim that fits within it is accepted
 *   without the sweep; and when every overlapping claim covers the new
 *   interval whole (a hot slot: every hold on the same hour) the sum IS the
 *   peak, so a refusal needs no sweep either. Only partial overlaps past the
 *   sum are swept, as before.
 * - A transaction may ask for the check of its new claims at COMMIT
 *   (`bookings.capacity_check` = `commit`, transaction-local): the BEFORE
 *   trigger then leaves new rows to a deferred constraint trigger, which checks
 *   each still-live one at commit, the resource lock taken there and held
 *   through the commit only. A hot slot's holds had kept the resource locked
 *   across a client round trip (insert answered, COMMIT sent) each. Updates
 *   (a claim made live again) are always checked at once; without the setting
 *   nothing changes, so a hand-written INSERT is checked as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function booking_capacity_claim_check(claim booking_capacity_claims, claim_now timestamptz)
    returns void language plpgsql as $$
    declare
      resource_capacity integer;
      claimed integer;
      peak integer;
      total bigint;
      covering boolean;
    begin
      if current_setting('transaction_isolation') <> 'read committed' then
        raise exception 'capacity claims are written at READ COMMITTED only' using errcode = 'BK002';
      end if;

      select capacity into resource_capacity
        from booking_resources
        where organization_id = claim.organization_id and id = claim.resource_id
        for no key update;
      if not found then
        raise exception 'no such resource' using errcode = '23503';
      end if;
      claimed := case when claim.blackout_id is null then claim.quantity else resource_capacity end;

      -- The sum is never below the peak; when every claim covers the interval, it is the peak.
      select coalesce(sum(case when c.blackout_id is null then c.quantity else resource_capacity end), 0),
          coalesce(bool_and(c.during @> claim.during), true)
        into total, covering
        from booking_capacity_claims c
        where c.organization_id = claim.organization_id and c.resource_id = claim.resource_id
          and c.released_at is null and (c.expires_at is null or c.expires_at > claim_now)
          and c.during && claim.during and c.id <> claim.id;
      if total + claimed <= resource_capacity then
        return;
      end if;
      if covering then
        peak := total;
      else
        select coalesce(max(running), 0) into peak from (
          select sum(delta) over (order by at, delta) as running
          from (
            select greatest(lower(c.during), lower(claim.during)) as at,
                case when c.blackout_id is null then c.quantity else resource_capacity end as delta
              from booking_capacity_claims c
              where c.organization_id = claim.organization_id and c.resource_id = claim.resource_id
                and c.released_at is null and (c.expires_at is null or c.expires_at > claim_now)
                and c.during && claim.during and c.id <> claim.id
            union all
            select least(upper(c.during), upper(claim.during)),
                -(case when c.blackout_id is null then c.quantity else resource_capacity end)
              from booking_capacity_claims c
              where c.organization_id = claim.organization_id and c.resource_id = claim.resource_id
                and c.released_at is null and (c.expires_at is null or c.expires_at > claim_now)
                and c.during && claim.during and c.id <> claim.id
          ) events
        ) sweep;
      end if;

      if peak + claimed > resource_capacity then
        raise exception 'capacity unavailable' using errcode = 'BK001';
      end if;
    end
    $$
  `.execute(db);

  await sql`
    create or replace function booking_capacity_claims_check() returns trigger language plpgsql as $$
    declare
      claim_now timestamptz := coalesce(nullif(current_setting('bookings.now', true), '')::timestamptz, statement_timestamp());
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
      -- Asked for at commit: booking_capacity_claims_commit_check checks the new row then.
      if tg_op = 'INSERT' and current_setting('bookings.capacity_check', true) = 'commit' then
        return new;
      end if;

      perform booking_capacity_claim_check(new, claim_now);
      return new;
    end
    $$
  `.execute(db);

  await sql`
    create function booking_capacity_claims_commit_check() returns trigger language plpgsql as $$
    declare
      claim_now timestamptz := coalesce(nullif(current_setting('bookings.now', true), '')::timestamptz, statement_timestamp());
      claim booking_capacity_claims;
    begin
      if current_setting('bookings.capacity_check', true) is distinct from 'commit' then
        return null;
      end if;
      -- The row as it is now: one released or expired since its insert takes nothing.
      select * into claim from booking_capacity_claims
        where organization_id = new.organization_id and id = new.id
          and released_at is null and (expires_at is null or expires_at > claim_now);
      if found then
        perform booking_capacity_claim_check(claim, claim_now);
      end if;
      return null;
    end
    $$
  `.execute(db);
  await sql`
    create constraint trigger booking_capacity_claims_commit_check
      after insert on booking_capacity_claims
      deferrable initially deferred
      for each row execute function booking_capacity_claims_commit_check()
  `.execute(db);
}

/** Back to 0015's trigger function: the sweep alone, always at once. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists booking_capacity_claims_commit_check on booking_capacity_claims`.execute(
    db,
  );
  await sql`drop function if exists booking_capacity_claims_commit_check()`.execute(db);
  await sql`
    create or replace function booking_capacity_claims_check() returns trigger language plpgsql as $$
    declare
      claim_now timestamptz := coalesce(nullif(current_setting('bookings.now', true), '')::timestamptz, statement_timestamp());
      resource_capacity integer;
      claimed integer;
      peak integer;
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
        if new.expires_at is not distinct from old.expires_at or (old.expires_at is not null and new.expires_at is not null and new.expires_at <= old.expires_at) then
          return new;
        end if;
      end if;
      if current_setting('transaction_isolation') <> 'read committed' then
        raise exception 'capacity claims are written at READ COMMITTED only' using errcode = 'BK002';
      end if;
      select capacity into resource_capacity from booking_resources
        where organization_id = new.organization_id and id = new.resource_id for update;
      if not found then
        raise exception 'no such resource' using errcode = '23503';
      end if;
      claimed := case when new.blackout_id is null then new.quantity else resource_capacity end;
      select coalesce(max(running), 0) into peak from (
        select sum(delta) over (order by at, delta) as running from (
          select greatest(lower(c.during), lower(new.during)) as at,
              case when c.blackout_id is null then c.quantity else resource_capacity end as delta
            from booking_capacity_claims c
            where c.organization_id = new.organization_id and c.resource_id = new.resource_id
              and c.released_at is null and (c.expires_at is null or c.expires_at > claim_now)
              and c.during && new.during and c.id <> new.id
          union all
          select least(upper(c.during), upper(new.during)),
              -(case when c.blackout_id is null then c.quantity else resource_capacity end)
            from booking_capacity_claims c
            where c.organization_id = new.organization_id and c.resource_id = new.resource_id
              and c.released_at is null and (c.expires_at is null or c.expires_at > claim_now)
              and c.during && new.during and c.id <> new.id
        ) events
      ) sweep;
      if peak + claimed > resource_capacity then
        raise exception 'capacity unavailable' using errcode = 'BK001';
      end if;
      return new;
    end
    $$
  `.execute(db);
  await sql`drop function if exists booking_capacity_claim_check(booking_capacity_claims, timestamptz)`.execute(
    db,
  );
}
