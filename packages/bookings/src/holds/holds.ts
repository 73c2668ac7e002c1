import { createHash } from 'node:crypto';
import { AppError, hashToken, newId } from '@commerce/core';
import { type Database, inTransaction, prepared, sqlState, withIdempotency } from '@commerce/db';
import { type Kysely, type RawBuilder, type Selectable, sql } from 'kysely';
import { type Allocation, assignResources } from '../availability/assign.ts';
import { type BookableService, unavailableReason } from '../availability/rules.ts';
import { parseInstant } from '../availability/schemas.ts';
import {
  type BookableServiceRead,
  type CurrencySource,
  findBookableService,
} from '../availability/search-availability.ts';
import { intervalShapeIssues, partySizeIssues, selectionIssues } from '../availability/validate.ts';
import { retryOnAbort, setClaimClock, withCapacityLock } from '../capacity/capacity-lock.ts';
import { insertClaims, releaseClaims } from '../capacity/claims.ts';
import { freeUnitsOf, type PeakRow, peakClaimsQuery, readFreeUnits } from '../capacity/live-claims.ts';
import type { BookingClockContext } from '../context.ts';
import type { DistanceProvider } from '../delivery/distance-provider.ts';
import { quoteDelivery } from '../delivery/quote-delivery.ts';
import { type DeliverySnapshot, deliverySnapshotSchema, toDeliveryRead } from '../delivery/schemas.ts';
import { type PricePreview, priceBooking } from '../pricing/price.ts';
import { serviceNotFound } from '../services/service-read.ts';
import { formatInstant, toEpochMinutes } from '../time/zone.ts';
import { findHold, holdNotFound } from './find-hold.ts';
import { type CreateHoldInput, type HoldRead, MAX_ACTIVE_HOLDS } from './schemas.ts';

export const HOLD_CREATE_OPERATION = 'POST /public/booking-holds';

/**
 * Who asks for a hold: the tenant, the instant, the client address (hashed
 * before it is stored), and the customer when the request carries a valid
 * customer session of the tenant (the hold and its booking are then theirs).
 */
export interface HoldContext extends BookingClockContext {
  clientAddress: string;
  customerId?: string | null | undefined;
  /**
   * The verified email of that customer session. A hold in this email is then the owner's own:
   * the per-email limit counts it apart from holds anyone else made in the email.
   */
  customerVerifiedEmail?: string | null | undefined;
}

/** What the active-hold limits count by: the client address's key, the email, and whose email it is. */
interface HoldLimits {
  clientKey: string;
  customerEmail: string;
  /** A signed-in customer holds in their own verified email (counted apart: docs/bookings.md, "Abuse limits"). */
  emailProven: boolean;
}

function holdLimitsOf(ctx: HoldContext, input: CreateHoldInput): HoldLimits {
  const verified = ctx.customerId ? ctx.customerVerifiedEmail : null;
  return {
    clientKey: hashToken(ctx.clientAddress),
    customerEmail: input.customerEmail,
    emailProven: !!verified && verified.toLowerCase() === input.customerEmail.toLowerCase(),
  };
}

/** What a hold keeps of its service at creation (changing the service never alters it). */
interface HoldSnapshot {
  timezone: string;
  allocations: (Allocation & { selection: 'AUTO' | 'OPTIONAL' | 'REQUIRED' })[];
  pricing: PricePreview | null;
  claim: { startMinute: number; endMinute: number };
  /** The frozen delivery: read back with `parseDeliverySnapshot`. */
  delivery: DeliverySnapshot;
}

type HoldRow = Selectable<Database['booking_holds']>;

/** Holds from before delivery was rated froze none: they were pickup. */
function readDelivery(snapshot: Partial<HoldSnapshot>): DeliverySnapshot {
  const parsed = deliverySnapshotSchema.safeParse(snapshot.delivery);
  if (parsed.success) return parsed.data;
  return {
    method: 'PICKUP',
    address: null,
    addressSummary: null,
    distanceMeters: null,
    band: null,
    area: null,
    feeInCents: 0,
    evaluatedAt: new Date(0).toISOString(),
  };
}

const MS_PER_MINUTE = 60_000;

/** A hold row as the hold routes answer it, read at `at` (a lapsed `ACTIVE` hold reads `EXPIRED`). */
export function toHoldRead(row: HoldRow, serviceTimezone: string, at: Date): HoldRead {
  const snapshot = row.snapshot as unknown as HoldSnapshot;
  const expiresAt = new Date(row.expires_at);
  const isLapsed = row.status === 'ACTIVE' && expiresAt.getTime() <= at.getTime();
  const timezone = snapshot.timezone ?? serviceTimezone;
  return {
    id: row.id,
    // The claim stops counting at expiresAt, before the worker marks the hold EXPIRED.
    status: isLapsed ? 'EXPIRED' : row.status,
    serverTime: at.toISOString(),
    expiresAt: expiresAt.toISOString(),
    expiresInSeconds:
      row.status === 'ACTIVE' ? Math.max(0, Math.floor((expiresAt.getTime() - at.getTime()) / 1000)) : 0,
    serviceId: row.service_id,
    timezone,
    startsAt: formatInstant(toEpochMinutes(new Date(row.starts_at).getTime()), timezone),
    endsAt: formatInstant(toEpochMinutes(new Date(row.ends_at).getTime()), timezone),
    quantity: row.quantity,
    resources: snapshot.allocations
      .filter((allocation) => allocation.selection !== 'AUTO')
      .map(({ requirementId, resourceId, quantity }) => ({ requirementId, resourceId, quantity })),
    delivery: toDeliveryRead(readDelivery(snapshot)),
    pricing: snapshot.pricing && {
      authoritative: false,
      currency: snapshot.pricing.currency,
      subtotalInCents: snapshot.pricing.subtotalInCents,
      deliveryFeeInCents: snapshot.pricing.deliveryFeeInCents ?? 0,
      totalInCents: snapshot.pricing.totalInCents ?? snapshot.pricing.subtotalInCents,
      depositInCents: snapshot.pricing.depositInCents,
    },
  };
}

/**
 * The first look, without the capacity lock, in one statement: the hold limits (10 per
 * tenant and client address, and per tenant and email; beyond, `refusal` is the 429 with
 * `Retry-After` until the earliest of them is released) and each pool resource's free units over
 * the interval (its capacity minus the peak of its live claims). A limit counts what the client
 * holds: its active holds and the unpaid bookings converted from its holds (`PENDING_PAYMENT`
 * within their payment window), released as they are paid, expire or are cancelled. The email's
 * count is of holds of the same kind: a signed-in owner's own, or everyone else's.
 */
async function firstLook(
  trx: Kysely<Database>,
  ctx: BookingClockContext,
  limits: HoldLimits,
  pool: readonly string[],
  interval: { startMinute: number; endMinute: number },
  /** Before the key is claimed: also whether it is recorded (then nothing is refused here). */
  idempotencyKeyHash?: string,
): Promise<{ keySeen: boolean; free: Map<string, number>; refusal: AppError | undefined }> {
  const at = ctx.at.toISOString();
  const active = (condition: RawBuilder<unknown>) => sql`
    organization_id = ${ctx.organizationId} and ${condition}
    and status = 'ACTIVE' and expires_at > ${at}::timestamptz`;
  const unpaid = (condition: RawBuilder<unknown>) => sql`
    organization_id = ${ctx.organizationId} and ${condition} and client_key is not null
    and status = 'PENDING_PAYMENT' and payment_expires_at > ${at}::timestamptz`;
  // Emails compare as citext (case-insensitively) whatever type the driver gives the parameter.
  const client = sql`client_key = ${limits.clientKey}`;
  const email = sql`customer_email = ${limits.customerEmail}::citext and email_proven = ${limits.emailProven}`;
  // One pass over what a limit counts gives both figures: how many (enough to see the limit, each
  // side read up to it) and the earliest release (the first of each side in release order).
  const held = (condition: RawBuilder<unknown>) => sql`(
      (select expires_at as releases_at from booking_holds where ${active(condition)}
        order by expires_at limit ${MAX_ACTIVE_HOLDS})
      union all
      (select payment_expires_at from bookings where ${unpaid(condition)}
        order by payment_expires_at limit ${MAX_ACTIVE_HOLDS})
    )`;
  // A fixed text (the pool is an array parameter), so PostgreSQL plans it once per connection.
  const query = sql<
    Partial<PeakRow> & {
      client_active: number;
      client_earliest: Date | string | null;
      email_active: number;
      email_earliest: Date | string | null;
      key_seen: boolean;
    }
  >`
    with limits as (
      select by_client.active as client_active, by_client.earliest as client_earliest,
        by_email.active as email_active, by_email.earliest as email_earliest,
        ${
          idempotencyKeyHash === undefined
            ? sql`false`
            : sql`exists (select 1 from idempotency_keys where organization_id = ${ctx.organizationId}
                and operation = ${HOLD_CREATE_OPERATION} and key_hash = ${idempotencyKeyHash}
                and expires_at > ${at}::timestamptz)`
        } as key_seen
      from (select count(*)::int as active, min(releases_at) as earliest from ${held(client)} client_held) by_client,
        (select count(*)::int as active, min(releases_at) as earliest from ${held(email)} email_held) by_email
    )
    select limits.*, claims.* from limits
    left join (${peakClaimsQuery(ctx, [...new Set(pool)], interval)}) claims on true
    order by claims.resource_id
  `;
  const { rows } = await trx.executeQuery(prepared(query.compile(trx)));
  const [first] = rows;
  const keySeen = first?.key_seen === true;
  let refusal: AppError | undefined;
  for (const [held, until] of [
    [first?.client_active, first?.client_earliest],
    [first?.email_active, first?.email_earliest],
  ] as const) {
    if (refusal === undefined && held !== undefined && held >= MAX_ACTIVE_HOLDS && until) {
      refusal = AppError.rateLimited((new Date(until).getTime() - ctx.at.getTime()) / 1000);
    }
  }
  const free = freeUnitsOf(rows.filter((row): row is typeof row & PeakRow => row.resource_id != null));
  return { keySeen, free, refusal };
}

/**
 * Serializes, until the transaction ends, the holds of one client address and of one email in
 * one tenant (transaction-scoped advisory locks, 64-bit keys from SHA-256, taken in ascending
 * order so that two holds sharing one of them never wait on each other in a cycle): the limits
 * are then counted with every earlier hold of theirs committed. Emails lock case-insensitively,
 * as they compare.
 */
async function lockHoldLimits(
  trx: Kysely<Database>,
  organizationId: string,
  limits: HoldLimits,
): Promise<void> {
  const keyOf = (scope: string, value: string) =>
    createHash('sha256')
      .update(`booking-hold-${scope}\u0000${organizationId}\u0000${value}`)
      .digest()
      .readBigInt64BE(0);
  const [first, second] = [
    keyOf('client', limits.clientKey),
    keyOf('email', limits.customerEmail.toLowerCase()),
  ].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  await sql`select pg_advisory_xact_lock(${first!.toString()}::bigint), pg_advisory_xact_lock(${second!.toString()}::bigint)`.execute(
    trx,
  );
}

type Quoted = { read: BookableServiceRead; delivery: DeliverySnapshot };

/** The requirement and resource of a service of one requirement over one resource, else null. */
function soleResource(service: BookableService): { requirementId: string; resourceId: string } | null {
  const [requirement, ...others] = service.requirements;
  const [resourceId, ...more] = requirement?.resourceIds ?? [];
  if (!requirement || others.length > 0 || resourceId === undefined || more.length > 0) return null;
  return { requirementId: requirement.id, resourceId };
}

/**
 * What a hold asks, checked as a search would offer it now (no database): the service (the
 * neutral 404 when gone), the shape (400) and the time rules (409 BOOKING_SLOT_UNAVAILABLE); then
 * its claim interval, its pool, and `assign`, which picks resources by their free units or answers 409
 * CAPACITY_UNAVAILABLE.
 */
function planHold(ctx: HoldContext, input: CreateHoldInput, quoted: Quoted | undefined) {
  if (!quoted) throw serviceNotFound();
  const {
    read: { id: serviceId, service, holdTerms: terms },
    delivery,
  } = quoted;
  const startsAt = toEpochMinutes(parseInstant(input.startsAt)!);
  const endsAt = toEpochMinutes(parseInstant(input.endsAt)!);
  const issues = [
    ...partySizeIssues(service, input.quantity),
    ...intervalShapeIssues(service, startsAt, endsAt),
    ...selectionIssues(service, input.quantity, input.resourceSelections, {
      path: 'resourceSelections',
      complete: true,
    }),
  ];
  if (issues.length > 0) throw AppError.validation(issues);
  const reason = unavailableReason(service, ctx.at, startsAt, endsAt);
  if (reason !== null) {
    throw new AppError('BOOKING_SLOT_UNAVAILABLE', 'The interval is not offered now', { reason });
  }
  const claimStart = startsAt - service.availability.bufferBeforeMinutes;
  const claimEnd = endsAt + service.availability.bufferAfterMinutes;
  const assign = (free: Map<string, number>) => {
    const assignment = assignResources(
      service.requirements,
      input.quantity,
      (resourceId) => free.get(resourceId) ?? 0,
      input.resourceSelections,
    );
    if (!assignment.ok) {
      // A service of one requirement over one resource names that resource whichever check refuses:
      // this look at the committed claims, or the capacity trigger at commit (`checkedAtCommit`).
      const resourceId = assignment.resourceId ?? soleResource(service)?.resourceId ?? null;
      throw new AppError('CAPACITY_UNAVAILABLE', undefined, {
        requirementId: assignment.requirementId,
        ...(resourceId !== null ? { resourceId } : {}),
      });
    }
    return assignment;
  };
  return {
    serviceId,
    service,
    delivery,
    startsAt,
    endsAt,
    claimStart,
    claimEnd,
    expiresAt: new Date(
      Math.min(ctx.at.getTime() + terms.holdMinutes * MS_PER_MINUTE, startsAt * MS_PER_MINUTE),
    ),
    pool: [...new Set(service.requirements.flatMap((requirement) => requirement.resourceIds))],
    interval: { startMinute: claimStart, endMinute: claimEnd },
    limits: holdLimitsOf(ctx, input),
    assign,
  };
}

type Assignment = ReturnType<ReturnType<typeof planHold>['assign']>;

/**
 * Undefined when the key is recorded already (a replay); otherwise checks all `placeHold` would
 * before the lock and answers the assignment the unlocked look allows.
 */
async function precheck(
  db: Kysely<Database>,
  ctx: HoldContext,
  input: CreateHoldInput,
  quoted: Quoted,
  keyHash: string,
): Promise<Assignment | undefined> {
  // The interval only needs the times and the buffers; the plan's refusals wait for the key's lookup.
  const startsAt = toEpochMinutes(parseInstant(input.startsAt)!);
  const endsAt = toEpochMinutes(parseInstant(input.endsAt)!);
  const { availability, requirements } = quoted.read.service;
  const look = await firstLook(
    db,
    ctx,
    holdLimitsOf(ctx, input),
    [...new Set(requirements.flatMap((requirement) => requirement.resourceIds))],
    {
      startMinute: startsAt - availability.bufferBeforeMinutes,
      endMinute: endsAt + availability.bufferAfterMinutes,
    },
    keyHash,
  );
  if (look.keySeen) return undefined;
  // In placeHold's order: the interval (400, 409), the limits (429), then the capacity (409).
  const plan = planHold(ctx, input, quoted);
  if (look.refusal) throw look.refusal;
  return plan.assign(look.free);
}

async function placeHold(
  trx: Kysely<Database>,
  ctx: HoldContext,
  input: CreateHoldInput,
  options: {
    keyHash: string;
    /** The service and the delivery, read and decided before the transaction. */
    quoted: Quoted | undefined;
    /** What `createHold`'s checks and unlocked look assigned, when it made them for this key. */
    prechecked: Assignment | undefined;
  },
): Promise<HoldRead> {
  // Thrown here, after the key's claim, so that a replay still answers its hold once the service is gone.
  const plan = planHold(ctx, input, options.quoted);
  const { serviceId, service, delivery, startsAt, endsAt, claimStart, claimEnd, expiresAt, pool, interval } =
    plan;
  const clientKey = plan.limits.clientKey;
  const assign = plan.assign;
  // The active-hold limits hold under concurrency: this client's and this email's holds are
  // placed one at a time, and counted again once it is this one's turn.
  await lockHoldLimits(trx, ctx.organizationId, plan.limits);
  // A first look without the capacity lock: claims committed now already leave no room, so the
  // answer is 409 whatever the lock would show (units are freed only by commits this read sees). A
  // hot slot's losers then never queue on the lock (docs/bookings.md, "Hot slots").
  // Made before the transaction for a new key: then only the limits are counted again.
  const look = await firstLook(trx, ctx, plan.limits, options.prechecked ? [] : pool, interval);
  if (look.refusal) throw look.refusal;
  if (!options.prechecked) assign(look.free);

  const write = async (db: Kysely<Database>, assignment: Assignment) => {
    const selectionOf = new Map(
      service.requirements.map((requirement) => [requirement.id, requirement.selection]),
    );
    const snapshot: HoldSnapshot = {
      timezone: service.timezone,
      allocations: assignment.allocations.map((allocation) => ({
        ...allocation,
        selection: selectionOf.get(allocation.requirementId) ?? 'AUTO',
      })),
      pricing: service.pricing
        ? priceBooking({
            pricing: service.pricing,
            checkout: service.checkout,
            currency: service.currency,
            timeZone: service.timezone,
            startsAt,
            endsAt,
            quantity: input.quantity,
            deliveryFeeInCents: delivery.feeInCents,
          })
        : null,
      claim: { startMinute: claimStart, endMinute: claimEnd },
      delivery,
    };
    const id = newId('hld', ctx.at);
    const row = await db
      .insertInto('booking_holds')
      .values({
        organization_id: ctx.organizationId,
        id,
        service_id: serviceId,
        status: 'ACTIVE',
        starts_at: new Date(startsAt * MS_PER_MINUTE),
        ends_at: new Date(endsAt * MS_PER_MINUTE),
        quantity: input.quantity,
        customer_email: input.customerEmail,
        customer_id: ctx.customerId ?? null,
        key_hash: options.keyHash,
        client_key: clientKey,
        email_proven: plan.limits.emailProven,
        snapshot: JSON.stringify(snapshot),
        expires_at: expiresAt,
        created_at: ctx.at,
        updated_at: ctx.at,
      })
      .returningAll()
      .executeTakeFirstOrThrow();
    await insertClaims(
      db,
      ctx,
      assignment.allocations.map((allocation) => ({
        resourceId: allocation.resourceId,
        quantity: allocation.quantity,
        startsAt: new Date(claimStart * MS_PER_MINUTE),
        endsAt: new Date(claimEnd * MS_PER_MINUTE),
        expiresAt,
        owner: { kind: 'HOLD' as const, id },
      })),
    );
    return toHoldRead(row, service.timezone, ctx.at);
  };

  // One requirement over one resource (a boat, a room): the assignment cannot differ from the
  // unlocked look's, so the capacity trigger alone decides, at COMMIT (`createHold` answers its
  // refusal). The resource is then locked for the check and the commit only, never across a round
  // trip to this process (docs/bookings.md, "Hot slots").
  if (options.prechecked && soleResource(service)) {
    await setClaimClock(trx, ctx.at, { checkAtCommit: true });
    return write(trx, options.prechecked);
  }
  return withCapacityLock(trx, ctx, pool, async (locked) =>
    write(locked, assign(await readFreeUnits(locked, ctx, pool, interval))),
  );
}

/**
 * `POST /public/booking-holds`: first, outside any transaction, the
 * delivery (`quoteDelivery`: the distance provider is called before
 * the idempotency key is recorded, so its failure records nothing and a retry
 * with the same key runs again); then validates the interval as a search
 * would offer it now (shape 400, time rules 409 BOOKING_SLOT_UNAVAILABLE),
 * checks the active-holds limits (429), assigns resources by their free
 * units under the capacity lock (a one-resource service: left to the
 * capacity trigger alone) and claims them (the trigger has the last word)
 * until `expiresAt`, the earlier of now + `holdMinutes` and `startsAt`. The
 * idempotency key is required and recorded in the same transaction; a replay
 * answers the hold again with fresh `serverTime`, `expiresInSeconds` and status.
 */
export async function createHold(
  db: Kysely<Database>,
  ctx: HoldContext,
  input: CreateHoldInput,
  options: { currency: CurrencySource; idempotencyKey: string; distance: DistanceProvider },
): Promise<{ hold: HoldRead; replayed: boolean }> {
  const keyHash = hashToken(options.idempotencyKey);
  // Reads only, before the transaction: the service (with its delivery settings and hold terms), then
  // the delivery quote, whose refusal or provider failure records nothing.
  const read = await findBookableService(
    db,
    ctx.organizationId,
    { serviceId: input.serviceId },
    options.currency,
  );
  const quoted = read && {
    read,
    delivery: await quoteDelivery(ctx, read.holdTerms.delivery, input, options.distance),
  };
  // Still before the transaction, for a key not yet recorded: the checks and the first look at the
  // claims, in one statement with the key's lookup, so that a refused attempt (a hot slot's losers)
  // costs no transaction. A recorded key goes straight to its replay, which no check may preempt;
  // a key recorded meanwhile is found by the claim in the transaction.
  const prechecked = quoted && (await precheck(db, ctx, input, quoted, keyHash));
  // The check `placeHold` leaves to the commit refuses there: the whole attempt is rolled back.
  const checkedAtCommit = prechecked && soleResource(quoted.read.service);
  const outcome = await retryOnAbort(() =>
    withIdempotency<HoldRead>(
      db,
      {
        organizationId: ctx.organizationId,
        operation: HOLD_CREATE_OPERATION,
        key: options.idempotencyKey,
        intent: { body: input },
        retention: 'standard',
        now: ctx.at,
      },
      async (trx) => ({
        status: 201,
        body: await placeHold(trx, ctx, input, { keyHash, quoted, prechecked }),
      }),
      {
        fromRecord: async (trx, recorded) => {
          const row = await findHold(trx, ctx.organizationId, (recorded.body as HoldRead).id);
          if (!row) throw holdNotFound();
          return toHoldRead(row, (recorded.body as HoldRead).timezone, ctx.at);
        },
      },
    ),
  ).catch((error: unknown) => {
    if (checkedAtCommit && sqlState(error) === 'BK001') {
      throw new AppError('CAPACITY_UNAVAILABLE', undefined, { ...checkedAtCommit });
    }
    throw error;
  });
  return { hold: outcome.body, replayed: outcome.replayed };
}

/**
 * `DELETE /public/booking-holds/:id`: the create's idempotency key
 * proves possession (another key, or another tenant's or an unknown hold, is
 * the neutral 404). `ACTIVE` becomes `RELEASED` (or `EXPIRED` once past its
 * expiry) and its claims are released; `RELEASED` and `EXPIRED` answer the
 * same; `CONVERTED` is `409 INVALID_STATE_TRANSITION`.
 */
export async function releaseHold(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  holdId: string,
  idempotencyKey: string,
): Promise<void> {
  await inTransaction(db, async (trx) => {
    const hold = await findHold(trx, ctx.organizationId, holdId, { forUpdate: true });
    if (!hold || hold.key_hash !== hashToken(idempotencyKey)) throw holdNotFound();
    if (hold.status === 'CONVERTED') {
      throw new AppError('INVALID_STATE_TRANSITION', 'The hold was converted to a booking');
    }
    if (hold.status !== 'ACTIVE') return;
    const status = new Date(hold.expires_at).getTime() <= ctx.at.getTime() ? 'EXPIRED' : 'RELEASED';
    await trx
      .updateTable('booking_holds')
      .set({ status, updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', holdId)
      .execute();
    await releaseClaims(trx, ctx, { kind: 'HOLD', id: holdId });
  });
}
