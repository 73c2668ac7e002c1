import { AppError, type Page } from '@commerce/core';
import type { Database } from '@commerce/db';
import { type ExpressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import { parseInstant } from '../availability/schemas.ts';
import { bookingInstant } from './booking-read.ts';
import type { MerchantBookingListQuery, MerchantBookingSummary } from './merchant-schemas.ts';
import { isBookingAssignedTo } from './payment-link.ts';

/**
 * Who reads merchant bookings: Owners and Admins see every booking of the
 * tenant; Staff only those assigned to them, the others being the neutral 404.
 */
export type BookingViewer = { scope: 'ALL' } | { scope: 'ASSIGNED'; userId: string };

/**
 * The list's form of `isBookingAssignedTo` (payment-link.ts), the same rule:
 * a booking is assigned to a user when it was given a `STAFF` resource whose
 * `userId` is that user (its allocations, kept in every state), or lists the
 * user in `assigneeUserIds`.
 */
function assignedTo(eb: ExpressionBuilder<Database & { b: Database['bookings'] }, 'b'>, userId: string) {
  return eb.or([
    sql<SqlBool>`${userId} = any(b.assignee_user_ids)`,
    eb.exists(
      eb
        .selectFrom('booking_allocations as a')
        .innerJoin('booking_resources as r', (join) =>
          join.onRef('r.organization_id', '=', 'a.organization_id').onRef('r.id', '=', 'a.resource_id'),
        )
        .select(sql`1`.as('one'))
        .whereRef('a.organization_id', '=', 'b.organization_id')
        .whereRef('a.booking_id', '=', 'b.id')
        .where('r.kind', '=', 'STAFF')
        .where('r.user_id', '=', userId),
    ),
  ]);
}

/** Throws the neutral 404 unless the viewer may see the booking. */
export async function assertBookingVisible(
  db: Kysely<Database>,
  organizationId: string,
  bookingId: string,
  viewer: BookingViewer,
): Promise<void> {
  if (viewer.scope === 'ALL') return;
  if (!(await isBookingAssignedTo(db, organizationId, bookingId, viewer.userId))) {
    throw AppError.notFound('Booking not found');
  }
}

/**
 * `GET /merchant/bookings`: the filters, the viewer's visibility,
 * ordered by `startsAt` then `id` in either direction (`bookings_list_idx`,
 * `_status_idx`, `_service_idx`, `booking_allocations_resource_idx`),
 * keyset-paginated on the cursor booking's own values. `groupRef` matches
 * nothing until booking groups exist. A cursor naming no booking the viewer
 * sees is `400`.
 */
export async function listMerchantBookings(
  db: Kysely<Database>,
  organizationId: string,
  viewer: BookingViewer,
  query: MerchantBookingListQuery,
): Promise<Page<MerchantBookingSummary>> {
  const visible = (qb: ReturnType<typeof base>) =>
    viewer.scope === 'ALL' ? qb : qb.where((eb) => assignedTo(eb, viewer.userId));
  const base = () => db.selectFrom('bookings as b').where('b.organization_id', '=', organizationId);

  let cursor: { starts_at: Date; id: string } | undefined;
  if (query.cursor !== undefined) {
    cursor = await visible(base())
      .select(['b.starts_at', 'b.id'])
      .where('b.id', '=', query.cursor)
      .executeTakeFirst();
    if (!cursor) throw AppError.validation([{ path: 'cursor', message: 'does not name a booking' }]);
  }
  const direction = query.order;
  const comparison = direction === 'asc' ? sql.raw('>') : sql.raw('<');
  const from = query.from === undefined ? undefined : new Date(parseInstant(query.from)!);
  const to = query.to === undefined ? undefined : new Date(parseInstant(query.to)!);

  const rows = await visible(base())
    .innerJoin('booking_services as s', (join) =>
      join.onRef('s.organization_id', '=', 'b.organization_id').onRef('s.id', '=', 'b.service_id'),
    )
    .select([
      'b.id',
      'b.code',
      'b.status',
      'b.service_id',
      sql<string>`coalesce(b.snapshot->>'name', s.name)`.as('service_name'),
      'b.timezone',
      'b.starts_at',
      'b.ends_at',
      'b.quantity',
      'b.customer_name',
      'b.customer_email',
      'b.customer_phone',
      'b.total_in_cents',
      'b.currency',
      'b.assignee_user_ids',
      'b.created_at',
      sql<boolean>`exists (select 1 from booking_change_requests c
        where c.organization_id = b.organization_id and c.booking_id = b.id and c.status = 'PENDING')`.as(
        'has_pending_change_request',
      ),
    ])
    .$if(query.status !== undefined && query.status.length > 0, (qb) =>
      qb.where('b.status', 'in', query.status!),
    )
    .$if(query.serviceId !== undefined, (qb) => qb.where('b.service_id', '=', query.serviceId!))
    .$if(query.resourceId !== undefined, (qb) =>
      qb.where((eb) =>
        eb.exists(
          eb
            .selectFrom('booking_allocations as a')
            .select(sql`1`.as('one'))
            .whereRef('a.organization_id', '=', 'b.organization_id')
            .whereRef('a.booking_id', '=', 'b.id')
            .where('a.resource_id', '=', query.resourceId!),
        ),
      ),
    )
    .$if(query.customerEmail !== undefined, (qb) =>
      qb.where(sql<SqlBool>`b.customer_email = ${query.customerEmail!}::citext`),
    )
    .$if(from !== undefined, (qb) => qb.where('b.ends_at', '>', from!))
    .$if(to !== undefined, (qb) => qb.where('b.starts_at', '<', to!))
    // Booking groups are not built yet: no booking has a group to match.
    .$if(query.groupRef !== undefined, (qb) => qb.where(sql<SqlBool>`false`))
    .$if(query.hasPendingChangeRequest !== undefined, (qb) =>
      qb.where(
        sql<SqlBool>`exists (select 1 from booking_change_requests c
          where c.organization_id = b.organization_id and c.booking_id = b.id and c.status = 'PENDING')
          = ${query.hasPendingChangeRequest!}`,
      ),
    )
    .$if(cursor !== undefined, (qb) =>
      qb.where(
        sql<SqlBool>`(b.starts_at, b.id) ${comparison} (${cursor!.starts_at}::timestamptz, ${cursor!.id})`,
      ),
    )
    .orderBy('b.starts_at', direction)
    .orderBy('b.id', direction)
    .limit(query.limit + 1)
    .execute();

  const data = rows.slice(0, query.limit).map(
    (row): MerchantBookingSummary => ({
      id: row.id,
      code: row.code,
      status: row.status,
      service: { id: row.service_id, name: row.service_name },
      timezone: row.timezone,
      startsAt: bookingInstant(row.starts_at, row.timezone),
      endsAt: bookingInstant(row.ends_at, row.timezone),
      quantity: row.quantity,
      customer: { name: row.customer_name, email: row.customer_email, phone: row.customer_phone },
      totalInCents: row.total_in_cents,
      currency: row.currency,
      assigneeUserIds: row.assignee_user_ids,
      hasPendingChangeRequest: row.has_pending_change_request,
      createdAt: new Date(row.created_at).toISOString(),
    }),
  );
  return { data, nextCursor: rows.length > query.limit ? data[data.length - 1]!.id : null };
}
