import type { BookingStatus, Database } from '@commerce/db';
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import type { BookingClockContext } from '../context.ts';
import { type Policies, policiesSchema } from '../services/schemas.ts';
import { formatInstant, toEpochMinutes } from '../time/zone.ts';
import { loadServiceTerms, planClaims } from './booking-claims.ts';
import { type BookingPayment, bookingPaymentSchema, readBookingPayments } from './booking-payments.ts';
import { bookingActions } from './policy.ts';

/**
 * The booking read model: one detail for the customer and guest routes, the
 * same with merchant-only fields for the merchant routes. Every part is read in
 * a fixed number of queries (the booking, its allocations, its change requests,
 * its payment), never one per element.
 */

export type BookingView = 'CUSTOMER' | 'MERCHANT';

export const BOOKING_STATUSES = [
  'REQUESTED',
  'PENDING_PAYMENT',
  'CONFIRMED',
  'DECLINED',
  'CANCELLED',
  'EXPIRED',
] as const satisfies readonly BookingStatus[];
export const LIVE_BOOKING_STATUSES = ['REQUESTED', 'PENDING_PAYMENT', 'CONFIRMED'] as const;

export const bookingStatusSchema = z.enum(BOOKING_STATUSES);
const actorSchema = z.enum(['CUSTOMER', 'GUEST', 'MERCHANT', 'SYSTEM', 'WEBHOOK']);
const actionSchema = z.enum(['APPLY', 'REQUEST', 'NONE']);

export const bookingActionsSchema = z
  .object({
    cancel: actionSchema,
    reschedule: actionSchema,
    cancelCutoffAt: z.iso
      .datetime()
      .nullable()
      .describe(
        'Under a `SELF_SERVICE` cancellation policy, the instant cancelling turns from `APPLY` to `REQUEST`',
      ),
    rescheduleCutoffAt: z.iso.datetime().nullable(),
  })
  .meta({ id: 'BookingActions' });

export const bookingChangeRequestSchema = z
  .object({
    id: z.string(),
    kind: z.enum(['CANCEL', 'RESCHEDULE']),
    status: z.enum(['PENDING', 'APPROVED', 'DECLINED', 'WITHDRAWN']),
    startsAt: z.string().nullable().describe('`RESCHEDULE` only: the interval asked for'),
    endsAt: z.string().nullable(),
    reason: z.string().nullable(),
    decisionReason: z.string().nullable(),
    decidedAt: z.iso.datetime().nullable(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'BookingChangeRequest' });
export type BookingChangeRequestRead = z.infer<typeof bookingChangeRequestSchema>;

const deliverySchema = z
  .object({
    method: z.string(),
    destinationAddress: z.record(z.string(), z.unknown()).nullable(),
    distanceMeters: z.number().nullable(),
    band: z.object({ label: z.string(), maxDistanceMeters: z.number() }).nullable(),
    feeInCents: z.number().int(),
  })
  .nullable()
  .describe('The delivery frozen at conversion or merchant creation; null for pickup');

export const bookingDetailSchema = z
  .object({
    id: z.string(),
    code: z.string(),
    status: bookingStatusSchema,
    service: z.object({ id: z.string(), slug: z.string(), name: z.string() }),
    timezone: z.string().describe('The service time zone: the instants of the booking carry its offset'),
    startsAt: z.string(),
    endsAt: z.string(),
    quantity: z.number().int(),
    resources: z
      .array(z.object({ requirementId: z.string(), resourceId: z.string(), name: z.string() }))
      .describe('The resources given for the `OPTIONAL` and `REQUIRED` requirements'),
    delivery: deliverySchema,
    customer: z.object({ name: z.string(), email: z.string(), phone: z.string().nullable() }),
    price: z.object({
      currency: z.string(),
      subtotalInCents: z.number().int(),
      deliveryFeeInCents: z.number().int(),
      taxInCents: z.number().int(),
      totalInCents: z.number().int(),
    }),
    payment: bookingPaymentSchema.nullable().describe('Null while `REQUESTED`'),
    actions: bookingActionsSchema,
    changeRequests: z.array(bookingChangeRequestSchema),
    agreements: z.array(
      z.object({
        title: z.string(),
        version: z.number().int(),
        signerName: z.string(),
        acceptedAt: z.string(),
      }),
    ),
    documents: z
      .array(z.object({ kind: z.string(), title: z.string(), issuedAt: z.string() }))
      .describe('Empty until receipts exist'),
    group: z.object({ publicRef: z.string() }).nullable(),
    requestExpiresAt: z.iso.datetime().nullable().describe('`REQUESTED` only'),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'BookingDetail' });
export type BookingDetail = z.infer<typeof bookingDetailSchema>;

export const bookingHistoryEntrySchema = z.object({
  at: z.iso.datetime(),
  from: bookingStatusSchema.nullable(),
  to: bookingStatusSchema,
  actor: actorSchema,
  userId: z.string().optional(),
  reason: z.string().optional(),
});

export const merchantBookingDetailSchema = bookingDetailSchema
  .extend({
    customerNote: z.string().nullable(),
    assigneeUserIds: z.array(z.string()),
    history: z.array(bookingHistoryEntrySchema),
    allocations: z
      .array(
        z.object({
          requirementId: z.string(),
          resourceId: z.string(),
          name: z.string(),
          quantity: z.number().int(),
          selection: z.enum(['AUTO', 'OPTIONAL', 'REQUIRED']),
        }),
      )
      .describe("Every requirement's resources, `AUTO` pools included"),
    capacityConflict: z
      .boolean()
      .nullable()
      .describe('`REQUESTED` only: true when approving it now would fail for capacity; null otherwise'),
  })
  .meta({ id: 'MerchantBookingDetail' });
export type MerchantBookingDetail = z.infer<typeof merchantBookingDetailSchema>;

export type BookingRow = Selectable<Database['bookings']>;

/** The parts of the booking's service snapshot the reads use; older or partial snapshots fall back to the service row. */
interface SnapshotView {
  service?: { id?: string; slug?: string; name?: string };
  slug?: string;
  name?: string;
  policies?: unknown;
}

/** The cancellation and reschedule policies frozen with the booking, else the service's present ones. */
export function bookingPolicies(snapshot: unknown, servicePolicies: unknown): Policies {
  const frozen = policiesSchema.safeParse((snapshot as SnapshotView | null)?.policies);
  if (frozen.success) return frozen.data;
  const present = policiesSchema.safeParse(servicePolicies ?? {});
  return present.success ? present.data : policiesSchema.parse({});
}

const iso = (value: Date | string) => new Date(value).toISOString();
const isoOrNull = (value: Date | string | null) => (value === null ? null : iso(value));

/** An instant of the booking in its service time zone's offset. */
export function bookingInstant(value: Date | string, timezone: string): string {
  return formatInstant(toEpochMinutes(new Date(value).getTime()), timezone);
}

/** Reads a booking row of the tenant, optionally locked for an update. */
export function findBooking(
  db: Kysely<Database>,
  organizationId: string,
  bookingId: string,
  options: { forUpdate?: boolean } = {},
): Promise<BookingRow | undefined> {
  return db
    .selectFrom('bookings')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('id', '=', bookingId)
    .$if(options.forUpdate === true, (qb) => qb.forUpdate())
    .executeTakeFirst();
}

interface AllocationRead {
  requirementId: string;
  resourceId: string;
  name: string;
  quantity: number;
  selection: 'AUTO' | 'OPTIONAL' | 'REQUIRED';
}

async function readAllocations(
  db: Kysely<Database>,
  organizationId: string,
  bookingId: string,
): Promise<AllocationRead[]> {
  const rows = await db
    .selectFrom('booking_allocations as a')
    .innerJoin('booking_resources as r', (join) =>
      join.onRef('r.organization_id', '=', 'a.organization_id').onRef('r.id', '=', 'a.resource_id'),
    )
    .select(['a.requirement_id', 'a.resource_id', 'r.name', 'a.quantity', 'a.selection'])
    .where('a.organization_id', '=', organizationId)
    .where('a.booking_id', '=', bookingId)
    .orderBy('a.position')
    .execute();
  return rows.map((row) => ({
    requirementId: row.requirement_id,
    resourceId: row.resource_id,
    name: row.name,
    quantity: row.quantity,
    selection: row.selection,
  }));
}

async function readChangeRequests(
  db: Kysely<Database>,
  organizationId: string,
  bookingId: string,
  timezone: string,
): Promise<BookingChangeRequestRead[]> {
  const rows = await db
    .selectFrom('booking_change_requests')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('booking_id', '=', bookingId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    kind: row.kind,
    status: row.status,
    startsAt: row.starts_at === null ? null : bookingInstant(row.starts_at, timezone),
    endsAt: row.ends_at === null ? null : bookingInstant(row.ends_at, timezone),
    reason: row.reason,
    decisionReason: row.decision_reason,
    decidedAt: isoOrNull(row.decided_at),
    createdAt: iso(row.created_at),
  }));
}

function deliveryOf(raw: unknown): BookingDetail['delivery'] {
  if (raw === null || typeof raw !== 'object') return null;
  const snapshot = raw as Record<string, unknown>;
  if (snapshot.method !== 'DELIVERY') return null;
  const band = snapshot.band as { label?: unknown; maxDistanceMeters?: unknown } | null | undefined;
  return {
    method: 'DELIVERY',
    destinationAddress: (snapshot.address as Record<string, unknown> | undefined) ?? null,
    distanceMeters: typeof snapshot.distanceMeters === 'number' ? snapshot.distanceMeters : null,
    band:
      band && typeof band.label === 'string' && typeof band.maxDistanceMeters === 'number'
        ? { label: band.label, maxDistanceMeters: band.maxDistanceMeters }
        : null,
    feeInCents: typeof snapshot.feeInCents === 'number' ? snapshot.feeInCents : 0,
  };
}

function agreementsOf(raw: unknown): BookingDetail['agreements'] {
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((entry) => {
    const agreement = entry as Record<string, unknown>;
    return typeof agreement.title === 'string' &&
      typeof agreement.version === 'number' &&
      typeof agreement.signerName === 'string' &&
      typeof agreement.acceptedAt === 'string'
      ? [
          {
            title: agreement.title,
            version: agreement.version,
            signerName: agreement.signerName,
            acceptedAt: agreement.acceptedAt,
          },
        ]
      : [];
  });
}

/** Whether a `REQUESTED` booking could be claimed now with its allocations (or others of the pools). */
export async function approvalIsClaimable(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  booking: {
    serviceId: string;
    currency: string;
    startsAt: Date;
    endsAt: Date;
    quantity: number;
    allocations: readonly AllocationRead[];
  },
): Promise<boolean> {
  const terms = await loadServiceTerms(db, ctx.organizationId, booking.serviceId, booking.currency);
  const plan = await planClaims(db, ctx, terms, {
    startsAt: booking.startsAt,
    endsAt: booking.endsAt,
    quantity: booking.quantity,
    preferred: booking.allocations,
  });
  return plan.ok;
}

/**
 * The detail of a booking of the tenant: the customer and guest view or the
 * merchant view; null when the tenant has no such booking. `actions` follow the
 * policies at `ctx.at` (guest routes replace them once their token is
 * consumed).
 */
export async function readBookingDetail(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  bookingId: string,
  view: 'MERCHANT',
): Promise<MerchantBookingDetail | null>;
export async function readBookingDetail(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  bookingId: string,
  view: 'CUSTOMER',
): Promise<BookingDetail | null>;
export async function readBookingDetail(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  bookingId: string,
  view: BookingView,
): Promise<BookingDetail | MerchantBookingDetail | null>;
export async function readBookingDetail(
  db: Kysely<Database>,
  ctx: BookingClockContext,
  bookingId: string,
  view: BookingView,
): Promise<BookingDetail | MerchantBookingDetail | null> {
  const row = await db
    .selectFrom('bookings as b')
    .innerJoin('booking_services as s', (join) =>
      join.onRef('s.organization_id', '=', 'b.organization_id').onRef('s.id', '=', 'b.service_id'),
    )
    .selectAll('b')
    .select(['s.slug as service_slug', 's.name as service_name', 's.policies as service_policies'])
    .where('b.organization_id', '=', ctx.organizationId)
    .where('b.id', '=', bookingId)
    .executeTakeFirst();
  if (!row) return null;

  const [allocations, changeRequests, payments] = await Promise.all([
    readAllocations(db, ctx.organizationId, row.id),
    readChangeRequests(db, ctx.organizationId, row.id, row.timezone),
    row.sales_record_id === null
      ? Promise.resolve(new Map<string, BookingPayment | null>())
      : readBookingPayments(db, ctx.organizationId, [row.id]),
  ]);
  const snapshot = row.snapshot as SnapshotView | null;
  const hasPending = changeRequests.some((request) => request.status === 'PENDING');
  const detail: BookingDetail = {
    id: row.id,
    code: row.code,
    status: row.status,
    service: {
      id: row.service_id,
      slug: snapshot?.service?.slug ?? snapshot?.slug ?? row.service_slug,
      name: snapshot?.service?.name ?? snapshot?.name ?? row.service_name,
    },
    timezone: row.timezone,
    startsAt: bookingInstant(row.starts_at, row.timezone),
    endsAt: bookingInstant(row.ends_at, row.timezone),
    quantity: row.quantity,
    resources: allocations
      .filter((allocation) => allocation.selection !== 'AUTO')
      .map(({ requirementId, resourceId, name }) => ({ requirementId, resourceId, name })),
    delivery: deliveryOf(row.delivery),
    customer: { name: row.customer_name, email: row.customer_email, phone: row.customer_phone },
    price: {
      currency: row.currency,
      subtotalInCents: row.subtotal_in_cents,
      deliveryFeeInCents: row.delivery_fee_in_cents,
      taxInCents: row.tax_in_cents,
      totalInCents: row.total_in_cents,
    },
    payment: row.status === 'REQUESTED' ? null : (payments.get(row.id) ?? null),
    actions: bookingActions(
      {
        status: row.status,
        startsAt: new Date(row.starts_at),
        endsAt: new Date(row.ends_at),
        timezone: row.timezone,
        policies: bookingPolicies(row.snapshot, row.service_policies),
        hasPendingChangeRequest: hasPending,
      },
      ctx.at,
    ),
    changeRequests,
    agreements: agreementsOf(row.agreements),
    documents: [],
    // Booking groups are not built yet: no booking belongs to one.
    group: null,
    requestExpiresAt: row.status === 'REQUESTED' ? isoOrNull(row.request_expires_at) : null,
    createdAt: iso(row.created_at),
  };
  if (view === 'CUSTOMER') return detail;

  return {
    ...detail,
    customerNote: row.customer_note,
    assigneeUserIds: row.assignee_user_ids,
    history: bookingHistoryEntrySchema.array().parse(row.history),
    allocations,
    capacityConflict:
      row.status === 'REQUESTED'
        ? !(await approvalIsClaimable(db, ctx, {
            serviceId: row.service_id,
            currency: row.currency,
            startsAt: new Date(row.starts_at),
            endsAt: new Date(row.ends_at),
            quantity: row.quantity,
            allocations,
          }))
        : null,
  };
}
