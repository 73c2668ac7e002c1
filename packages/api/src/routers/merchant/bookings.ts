import { getSettings } from '@commerce/admin';
import {
  approveBooking,
  approveBookingInputSchema,
  approveChangeRequest,
  assertBookingVisible,
  assigneesInputSchema,
  type BookingTransitionContext,
  type BookingViewer,
  bookingIdInputSchema,
  cancelBooking,
  changeRequestActionInputSchema,
  createMerchantBooking,
  createMerchantBookingInputSchema,
  decideBookingInputSchema,
  declineBooking,
  declineChangeRequest,
  declineChangeRequestInputSchema,
  listMerchantBookings,
  type MerchantBookingDetail,
  merchantBookingDetailSchema,
  merchantBookingListQuerySchema,
  merchantBookingSummarySchema,
  readBookingDetail,
  rescheduleBooking,
  rescheduleBookingInputSchema,
  retryOnAbort,
  setBookingAssignees,
  type TransitionBy,
} from '@commerce/bookings';
import { AppError, pageSchema } from '@commerce/core';
import {
  type Database,
  IDEMPOTENT_REPLAYED_HEADER,
  type Membership,
  type MerchantUser,
  readIdempotencyKey,
  withIdempotency,
} from '@commerce/db';
import { runPaymentActions, taxProviderFor } from '@commerce/orders';
import type { Kysely } from 'kysely';
import type { ApiContext } from '../../context.ts';
import { customerEmailConfig } from '../../hosted-origin.ts';
import { merchantProcedure, merchantProcedureWith, router } from '../../trpc.ts';

const TAGS = ['Merchant: bookings'];

type MerchantCtx = ApiContext & {
  tenant: { organizationId: string };
  merchantUser: MerchantUser;
  membership: Pick<Membership, 'role'>;
};

/** The tenant, the request's instant, and EMAIL_FROM with the links' base, for transitions that email. */
export function bookingTransitionContext(ctx: MerchantCtx): BookingTransitionContext {
  return {
    organizationId: ctx.tenant.organizationId,
    at: ctx.clock.now(),
    email: customerEmailConfig(ctx),
    // The merchant's own actions email the customer whatever the recipient's hourly cap.
    sentByMerchant: true,
    // A cancelled payment's intent is cancelled right after the commit (the checkout sweep retries it).
    runPaymentActions: (only) =>
      runPaymentActions(ctx.db, {
        payments: ctx.services.payments,
        at: ctx.clock.now(),
        only,
        ...(ctx.services.logger ? { logger: ctx.services.logger } : {}),
      }),
  };
}

/** 14.2: Owners and Admins see every booking; Staff only those assigned to them. */
export function bookingViewer(ctx: MerchantCtx): BookingViewer {
  return ctx.membership.role === 'Staff'
    ? { scope: 'ASSIGNED', userId: ctx.merchantUser.id }
    : { scope: 'ALL' };
}

function merchantBy(ctx: MerchantCtx, extra: Partial<TransitionBy> = {}): TransitionBy {
  return { actor: 'MERCHANT', userId: ctx.merchantUser.id, userEmail: ctx.merchantUser.email, ...extra };
}

async function detailOrNotFound(db: Kysely<Database>, ctx: BookingTransitionContext, id: string) {
  const detail = await readBookingDetail(db, ctx, id, 'MERCHANT');
  if (!detail) throw AppError.notFound('Booking not found');
  return detail;
}

type Work = (trx: Kysely<Database>, bookingCtx: BookingTransitionContext) => Promise<unknown>;

/**
 * Runs one merchant mutation of a booking the member may see (else the
 * neutral 404): in a READ COMMITTED transaction retried on deadlock (14.19),
 * under the optional `x-idempotency-key` (14.10) whose replay reads the
 * booking fresh; after the commit, the transition's after-commit work (a
 * provider call) runs, its failure logged: the payment module owes it.
 * Answers the merchant detail.
 */
async function mutateBooking(
  ctx: MerchantCtx,
  request: { id: string; operation: string; body: unknown },
  work: Work,
): Promise<MerchantBookingDetail> {
  const bookingCtx = bookingTransitionContext(ctx);
  await assertBookingVisible(ctx.db, bookingCtx.organizationId, request.id, bookingViewer(ctx));
  let afterCommit: (() => Promise<void>) | undefined;
  const run = async (trx: Kysely<Database>) => {
    const outcome = await work(trx, bookingCtx);
    const after = (outcome as { afterCommit?: () => Promise<void> } | undefined)?.afterCommit;
    afterCommit = typeof after === 'function' ? after : undefined;
    return detailOrNotFound(trx, bookingCtx, request.id);
  };
  const key = readIdempotencyKey(ctx.request.headers);
  let detail: MerchantBookingDetail;
  if (key === undefined) {
    detail = await retryOnAbort(() => ctx.db.transaction().setIsolationLevel('read committed').execute(run));
  } else {
    const outcome = await retryOnAbort(() =>
      withIdempotency<MerchantBookingDetail>(
        ctx.db,
        {
          organizationId: bookingCtx.organizationId,
          operation: request.operation,
          key,
          intent: { params: { id: request.id }, body: request.body },
          retention: 'standard',
          now: bookingCtx.at,
        },
        async (trx) => ({ status: 200, body: await run(trx) }),
        { fromRecord: (trx) => detailOrNotFound(trx, bookingCtx, request.id) },
      ),
    );
    if (outcome.replayed) {
      ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
      afterCommit = undefined;
    }
    detail = outcome.body;
  }
  if (afterCommit) {
    await afterCommit().catch((error: unknown) => {
      ctx.services.logger?.error({ err: error, bookingId: request.id }, 'booking after-commit work failed');
    });
  }
  return detail;
}

const KEY_OPTIONAL =
  'Header `x-idempotency-key` (alias `Idempotency-Key`) is optional: with it, the same key and body replay the outcome (`idempotent-replayed: true`, the booking read fresh), another body is `409 IDEMPOTENCY_KEY_REUSED`.';
const STAFF_MUTATION =
  'Owners and Admins; Staff need `bookings:manage` (else `403`) and act only on bookings assigned to them (others are the neutral `404`).';
const NOTIFY = '`notifyCustomer` (default true) emails the customer a fresh management link.';
const ANSWER = 'Answers `200` with the merchant booking detail.';

export const merchantBookingsRouter = router({
  list: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/bookings',
        tags: TAGS,
        summary: "The organization's bookings",
        description: [
          'Open to any member; Staff see only bookings assigned to them (a `STAFF` resource of theirs, or named in `assigneeUserIds`).',
          'Filters: `status` (comma list of `REQUESTED`, `PENDING_PAYMENT`, `CONFIRMED`, `DECLINED`, `CANCELLED`, `EXPIRED`; an unknown one is `400`), `serviceId`, `resourceId` (bookings given that resource, any requirement), `customerEmail` (exact, case-insensitive), `from` and `to` (ISO 8601 with offset, whole minute: bookings overlapping `[from, to)`; `to` must be after `from`), `groupRef` (accepted; matches nothing until booking groups exist), `hasPendingChangeRequest` (true/1/yes or false/0/no).',
          'Ordered by `startsAt` then `id`, `order` `asc` (default) or `desc`; keyset-paginated (`limit` 1 to 200, default 50; pass `nextCursor` as `cursor`; a cursor naming no booking you can see is `400`).',
        ].join('\n\n'),
      },
    })
    .input(merchantBookingListQuerySchema)
    .output(pageSchema(merchantBookingSummarySchema))
    .query(({ ctx, input }) =>
      listMerchantBookings(ctx.db, ctx.tenant.organizationId, bookingViewer(ctx), input),
    ),

  get: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/bookings/{id}',
        tags: TAGS,
        summary: 'A booking by id',
        description:
          "Open to any member; Staff only for bookings assigned to them. The customer detail of 14.17 plus `customerNote`, `assigneeUserIds`, `history[]`, `allocations[]` (every requirement's resources) and, for `REQUESTED`, `capacityConflict` (approval would fail now). An unknown id, another organization's, or one not assigned to a Staff member is the neutral `404`.",
      },
    })
    .input(bookingIdInputSchema)
    .output(merchantBookingDetailSchema)
    .query(async ({ ctx, input }) => {
      const bookingCtx = bookingTransitionContext(ctx);
      await assertBookingVisible(ctx.db, bookingCtx.organizationId, input.id, bookingViewer(ctx));
      return detailOrNotFound(ctx.db, bookingCtx, input.id);
    }),

  create: merchantProcedureWith('bookings:manage')
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/bookings',
        tags: TAGS,
        summary: 'Book on behalf of a customer',
        description: [
          'Header `x-idempotency-key` (alias `Idempotency-Key`; 16 to 255 of `A-Z a-z 0-9 _ . : -`) is required, else `400`: the same key and body replay the booking (`201`, `idempotent-replayed: true`, read fresh), another body is `409 IDEMPOTENCY_KEY_REUSED`.',
          'Body: `serviceId` (`ACTIVE` or `DRAFT`; unknown: `404`; `ARCHIVED`: `409 INVALID_STATE_TRANSITION`), `startsAt`, `endsAt` (ISO 8601 with an offset, whole minute, the service shape: grid, duration choice or fixed slot, else `400`), `quantity` (within `partySize`), `resourceSelections?[] { requirementId, resourceId, quantity }`, `customer { name (1 to 200), email, phone? (50) }`, `delivery?`, `ignoreRules?` (default false). Unknown keys are `400`.',
          'Delivery as for `POST /public/booking-holds`: absent, `null` or `{ method: PICKUP }` is pickup (a pickup carrying `destinationAddress` is `400 VALIDATION_FAILED`); `{ method: DELIVERY, destinationAddress { line1, line2?, city, state?, postalCode, country } }` delivers. A method the service `delivery.mode` does not allow is `400 BOOKING_DELIVERY_INVALID`; a banded service measures the distance (DISTANCE_PROVIDER): an address it cannot place is `400 BOOKING_DELIVERY_DESTINATION_INVALID`, beyond the last band `400 BOOKING_DELIVERY_OUT_OF_RANGE`, a provider failure or timeout `503 BOOKING_DELIVERY_UNAVAILABLE` with nothing booked or recorded (retry with the same key); each names `details.issues[].path`. `ignoreRules` never skips the delivery checks. The delivery is rated only for a request that passes the checks below.',
          'Hours, closures, lead time and maximum advance are checked unless `ignoreRules` (`409 BOOKING_SLOT_UNAVAILABLE`, `details.reason`); capacity always (`409 CAPACITY_UNAVAILABLE`). The booking is `CONFIRMED`, its price frozen: the service pricing now, plus the delivery fee, plus tax from the store’s tax provider when one is configured (TAX_PROVIDER; the delivery’s country, else the business country; prices that include tax record it without adding it); its balance open (sales record `NOT_REQUIRED`); the customer is emailed a management link. Answers `201` with the merchant detail. Audited as `booking.created`. Staff need `bookings:manage`.',
        ].join('\n\n'),
      },
      successStatus: 201,
      errors: [
        'BOOKING_DELIVERY_INVALID',
        'BOOKING_DELIVERY_DESTINATION_INVALID',
        'BOOKING_DELIVERY_OUT_OF_RANGE',
        'BOOKING_DELIVERY_UNAVAILABLE',
        'BOOKING_SLOT_UNAVAILABLE',
        'CAPACITY_UNAVAILABLE',
        'IDEMPOTENCY_KEY_REUSED',
        'INVALID_STATE_TRANSITION',
        'STALE_STATE',
      ],
    })
    .input(createMerchantBookingInputSchema)
    .output(merchantBookingDetailSchema)
    .mutation(async ({ ctx, input }) => {
      const idempotencyKey = readIdempotencyKey(ctx.request.headers, { required: true });
      const { checkoutSettings } = await getSettings(ctx.db, ctx.tenant.organizationId, ctx.clock.now());
      const { booking, replayed } = await createMerchantBooking(
        ctx.db,
        bookingTransitionContext(ctx),
        input,
        {
          currency: checkoutSettings.currency,
          idempotencyKey,
          actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
          distance: ctx.services.distance,
          tax: {
            provider: taxProviderFor(ctx.config.checkout.taxProvider),
            pricesIncludeTax: checkoutSettings.taxIncludedInPrices,
          },
        },
      );
      if (replayed) ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return booking;
    }),

  approve: merchantProcedureWith('bookings:manage')
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/bookings/{id}/approve',
        tags: TAGS,
        summary: 'Approve a booking request',
        description: [
          `Body \`{ resourceSelections?, note? }\` (note at most 500, sent to the customer and kept in history). ${KEY_OPTIONAL} ${STAFF_MUTATION}`,
          '`REQUESTED` → `CONFIRMED` when nothing is due now (sales record `NOT_REQUIRED`, balance open) or `PENDING_PAYMENT` when an amount is (claimed until now + the service `approvedPaymentWindowHours`, not after `startsAt`; the payment link is emailed). Resources: those chosen, else those the booking was given, else others of the pools. Not claimable: `409 CAPACITY_UNAVAILABLE`, nothing changed. Another status, a group member, a request past its expiry or a booking already started: `409 INVALID_STATE_TRANSITION`.',
          `Audited as \`booking.approved\`. ${ANSWER}`,
        ].join('\n\n'),
      },
      errors: ['CAPACITY_UNAVAILABLE', 'IDEMPOTENCY_KEY_REUSED', 'INVALID_STATE_TRANSITION', 'STALE_STATE'],
    })
    .input(approveBookingInputSchema)
    .output(merchantBookingDetailSchema)
    .mutation(({ ctx, input }) => {
      const { id, ...body } = input;
      return mutateBooking(
        ctx,
        { id, operation: 'POST /merchant/bookings/:id/approve', body },
        (trx, bookingCtx) => approveBooking(trx, bookingCtx, id, body, merchantBy(ctx)),
      );
    }),

  decline: merchantProcedureWith('bookings:manage')
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/bookings/{id}/decline',
        tags: TAGS,
        summary: 'Decline a booking request',
        description: `Body \`{ reason?, notifyCustomer? }\` (reason at most 500, sent to the customer). ${NOTIFY} ${KEY_OPTIONAL} ${STAFF_MUTATION}\n\n\`REQUESTED\` → \`DECLINED\`; any other status or a group member is \`409 INVALID_STATE_TRANSITION\`. Audited as \`booking.declined\`. ${ANSWER}`,
      },
      errors: ['IDEMPOTENCY_KEY_REUSED', 'INVALID_STATE_TRANSITION', 'STALE_STATE'],
    })
    .input(decideBookingInputSchema)
    .output(merchantBookingDetailSchema)
    .mutation(({ ctx, input }) => {
      const { id, ...body } = input;
      return mutateBooking(
        ctx,
        { id, operation: 'POST /merchant/bookings/:id/decline', body },
        (trx, bookingCtx) => declineBooking(trx, bookingCtx, id, merchantBy(ctx, body)),
      );
    }),

  cancel: merchantProcedureWith('bookings:manage')
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/bookings/{id}/cancel',
        tags: TAGS,
        summary: 'Cancel a booking',
        description: `Body \`{ reason?, notifyCustomer? }\`. ${NOTIFY} ${KEY_OPTIONAL} ${STAFF_MUTATION}\n\n\`CONFIRMED\` → \`CANCELLED\`, its claim released, no automatic refund; \`PENDING_PAYMENT\` → \`CANCELLED\`, its payment closed (sales record voided, checkout closed, the provider intent cancelled after commit). A pending change request is withdrawn. \`REQUESTED\` (decline it instead) and terminal statuses are \`409 INVALID_STATE_TRANSITION\`. Audited as \`booking.cancelled\`. ${ANSWER}`,
      },
      errors: ['IDEMPOTENCY_KEY_REUSED', 'INVALID_STATE_TRANSITION', 'STALE_STATE'],
    })
    .input(decideBookingInputSchema)
    .output(merchantBookingDetailSchema)
    .mutation(({ ctx, input }) => {
      const { id, ...body } = input;
      return mutateBooking(
        ctx,
        { id, operation: 'POST /merchant/bookings/:id/cancel', body },
        (trx, bookingCtx) => cancelBooking(trx, bookingCtx, id, merchantBy(ctx, body)),
      );
    }),

  reschedule: merchantProcedureWith('bookings:manage')
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/bookings/{id}/reschedule',
        tags: TAGS,
        summary: 'Move a booking',
        description: [
          `Body \`{ startsAt, endsAt, resourceSelections?, ignoreRules?, notifyCustomer? }\` (ISO 8601 with an offset, whole minute; \`endsAt\` after \`startsAt\`). ${NOTIFY} ${KEY_OPTIONAL} ${STAFF_MUTATION}`,
          "Only `CONFIRMED` bookings move (`REQUESTED`, `PENDING_PAYMENT` and terminal ones: `409 INVALID_STATE_TRANSITION`). The duration may change, the price does not. Hours, closures, lead time and maximum advance are checked unless `ignoreRules` (`409 BOOKING_SLOT_UNAVAILABLE`). The claim moves in one transaction (release, then claim under the capacity lock), so a move overlapping the booking's own interval competes only with others; not claimable: `409 CAPACITY_UNAVAILABLE` and the booking keeps its interval and claim.",
          `Audited as \`booking.rescheduled\` with the old and new intervals. ${ANSWER}`,
        ].join('\n\n'),
      },
      errors: [
        'BOOKING_SLOT_UNAVAILABLE',
        'CAPACITY_UNAVAILABLE',
        'IDEMPOTENCY_KEY_REUSED',
        'INVALID_STATE_TRANSITION',
        'STALE_STATE',
      ],
    })
    .input(rescheduleBookingInputSchema)
    .output(merchantBookingDetailSchema)
    .mutation(({ ctx, input }) => {
      const { id, notifyCustomer, ...body } = input;
      return mutateBooking(
        ctx,
        { id, operation: 'POST /merchant/bookings/:id/reschedule', body: { ...body, notifyCustomer } },
        (trx, bookingCtx) =>
          rescheduleBooking(
            trx,
            bookingCtx,
            id,
            {
              startsAt: new Date(body.startsAt),
              endsAt: new Date(body.endsAt),
              ignoreRules: body.ignoreRules,
              ...(body.resourceSelections ? { resourceSelections: body.resourceSelections } : {}),
            },
            merchantBy(ctx, { notifyCustomer }),
          ),
      );
    }),

  approveChangeRequest: merchantProcedureWith('bookings:manage')
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/bookings/{id}/change-requests/{changeRequestId}/approve',
        tags: TAGS,
        summary: "Approve a customer's change request",
        description: `No body. ${KEY_OPTIONAL} ${STAFF_MUTATION}\n\nThe \`PENDING\` request becomes \`APPROVED\` and is applied: a cancel cancels the booking (as the cancel route), a reschedule moves it to the interval asked for (capacity checked, rules not: \`409 CAPACITY_UNAVAILABLE\` leaves the request pending and the booking unchanged). A request already decided, or a booking whose status no longer allows it, is \`409 INVALID_STATE_TRANSITION\`; an unknown request of this booking \`404\`. The customer is emailed. Audited as \`booking.change_request_approved\`. ${ANSWER}`,
      },
      errors: ['CAPACITY_UNAVAILABLE', 'IDEMPOTENCY_KEY_REUSED', 'INVALID_STATE_TRANSITION', 'STALE_STATE'],
    })
    .input(changeRequestActionInputSchema)
    .output(merchantBookingDetailSchema)
    .mutation(({ ctx, input }) =>
      mutateBooking(
        ctx,
        {
          id: input.id,
          operation: 'POST /merchant/bookings/:id/change-requests/:changeRequestId/approve',
          body: { changeRequestId: input.changeRequestId },
        },
        (trx, bookingCtx) =>
          approveChangeRequest(trx, bookingCtx, input.id, input.changeRequestId, merchantBy(ctx)),
      ),
    ),

  declineChangeRequest: merchantProcedureWith('bookings:manage')
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/bookings/{id}/change-requests/{changeRequestId}/decline',
        tags: TAGS,
        summary: "Decline a customer's change request",
        description: `Body \`{ reason? }\` (at most 500, sent to the customer). ${KEY_OPTIONAL} ${STAFF_MUTATION}\n\nThe \`PENDING\` request becomes \`DECLINED\`; the booking is unchanged. A request already decided is \`409 INVALID_STATE_TRANSITION\`; an unknown one \`404\`. Audited as \`booking.change_request_declined\`. ${ANSWER}`,
      },
      errors: ['IDEMPOTENCY_KEY_REUSED', 'INVALID_STATE_TRANSITION', 'STALE_STATE'],
    })
    .input(declineChangeRequestInputSchema)
    .output(merchantBookingDetailSchema)
    .mutation(({ ctx, input }) =>
      mutateBooking(
        ctx,
        {
          id: input.id,
          operation: 'POST /merchant/bookings/:id/change-requests/:changeRequestId/decline',
          body: { changeRequestId: input.changeRequestId, reason: input.reason },
        },
        (trx, bookingCtx) =>
          declineChangeRequest(
            trx,
            bookingCtx,
            input.id,
            input.changeRequestId,
            merchantBy(ctx, { reason: input.reason ?? null }),
          ),
      ),
    ),

  setAssignees: merchantProcedureWith('bookings:manage')
    .meta({
      openapi: {
        method: 'PUT',
        path: '/merchant/bookings/{id}/assignees',
        tags: TAGS,
        summary: "Replace a booking's assignees",
        description: `Body \`{ userIds[] }\`: at most 20 user ids, each of an active member of the organization, else \`400\` (\`userIds.N\`). Replaces the list; assigned Staff see and (with \`bookings:manage\`) act on the booking. ${KEY_OPTIONAL} ${STAFF_MUTATION} Audited as \`booking.assignees_updated\`. ${ANSWER}`,
      },
      errors: ['IDEMPOTENCY_KEY_REUSED', 'STALE_STATE'],
    })
    .input(assigneesInputSchema)
    .output(merchantBookingDetailSchema)
    .mutation(({ ctx, input }) =>
      mutateBooking(
        ctx,
        { id: input.id, operation: 'PUT /merchant/bookings/:id/assignees', body: { userIds: input.userIds } },
        (trx, bookingCtx) => setBookingAssignees(trx, bookingCtx, input.id, input.userIds, merchantBy(ctx)),
      ),
    ),
});
