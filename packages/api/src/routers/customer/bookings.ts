import {
  type BookingNotifyContext,
  bookingDetailSchema,
  type CustomerActionRequest,
  type CustomerActionResult,
  cancelRequestInputSchema,
  customerActionResultSchema,
  customerBookingIdInputSchema,
  customerBookingListQuerySchema,
  customerBookingSummarySchema,
  getCustomerBooking,
  getGuestBooking,
  guestTokenInputSchema,
  listCustomerBookings,
  requestCustomerBookingChange,
  requestGuestBookingChange,
  rescheduleRequestInputSchema,
  retryOnAbort,
} from '@commerce/bookings';
import { type ErrorCode, pageSchema } from '@commerce/core';
import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey, withIdempotency } from '@commerce/db';
import type { ApiContext, CustomerIdentity } from '../../context.ts';
import { customerEmailConfig } from '../../hosted-origin.ts';
import { customerProcedure, router, tenantProcedure } from '../../trpc.ts';

const ACCOUNT_TAGS = ['Customer: bookings'];
const GUEST_TAGS = ['Customer: guest bookings'];

const OWNED =
  'A booking is the customer’s when linked to their account or placed with their verified email (case-insensitive). An unknown, malformed, another store’s or another customer’s booking id is the same neutral `404 RESOURCE_NOT_FOUND`.';
const TOKEN =
  'The `m1_` token of the booking’s emails is the credential (no sign-in), scoped to its store: the `x-organization-slug` header is required. It expires 30 days after the booking ends; a newer email’s token revokes an unused older one. An unknown, malformed, expired, revoked or another store’s token is the same neutral `404 RESOURCE_NOT_FOUND`. The token never appears in logs (they carry the route template).';
const POLICY = [
  'The service’s policy decides (14.17), per action: `SELF_SERVICE` applies at once before `startsAt` − `cutoffMinutes` (whole days count local days) and requests after; `REQUEST` requests; `NONE` is `409 INVALID_STATE_TRANSITION` with `details.reason: POLICY`. `REQUESTED` and `PENDING_PAYMENT` bookings are cancelled at once and never rescheduled (`reason: STATUS`). Once the booking has started no request is taken (`BOOKING_STARTED`: the worker withdraws pending requests at the start); from `endsAt` on nothing is (`BOOKING_ENDED`); a terminal booking takes nothing (`STATUS`).',
  'A request records a `PENDING` change request (no capacity is held), emails the merchant `CHANGE_REQUESTED` and the customer `CHANGE_REQUEST_RECEIVED`, and awaits the merchant; one pending per booking, another is `409 INVALID_STATE_TRANSITION` with `details.reason: CHANGE_REQUEST_PENDING`.',
].join('\n\n');
const CANCEL =
  'Body `{ reason? }` (at most 500). `APPLIED`: the booking is `CANCELLED` at once, its claim released (no automatic refund; an open payment is closed), the customer emailed `CANCELLED` and the merchant `CUSTOMER_CANCELLED`; a pending change request is withdrawn. Answers `200 { outcome: APPLIED | REQUESTED, booking }`, the booking as it is after.';
const RESCHEDULE =
  'Body `{ startsAt, endsAt, reason? }`: ISO 8601 instants with an offset on a whole minute; `endsAt` keeps the booked duration (14.5): a booking of whole local days (a multiple of 1,440 minutes, the same wall time n days later) keeps its wall times across a daylight-saving change, any other its elapsed minutes; else `400` on `endsAt`. The interval is checked as the move itself would be, for a request too: its shape on the service grid (`400`), hours, closures, lead time and maximum advance (`409 BOOKING_SLOT_UNAVAILABLE`), free capacity with the booking’s own claim released (`409 CAPACITY_UNAVAILABLE`). `APPLIED`: the booking moves at once (its price is kept) and the customer is emailed `RESCHEDULED`. Answers `200 { outcome, booking }`.';
const GUEST_ONCE =
  'One token makes one change: afterwards its detail shows every action `NONE`; the same route with the same body (whatever the key order) answers the recorded result again with `idempotent-replayed: true` and changes nothing; any other change is `409 INVALID_STATE_TRANSITION` with `details.reason: TOKEN_CONSUMED`. Concurrent requests with one token queue on it, so the change happens once. A refused change (`409`, `400`) records nothing: the token stays usable. The emails a change sends carry a fresh token for the next change; the used one stays readable until it expires.';

const ACTION_ERRORS: ErrorCode[] = [
  'INVALID_STATE_TRANSITION',
  'BOOKING_SLOT_UNAVAILABLE',
  'CAPACITY_UNAVAILABLE',
  'STALE_STATE',
];

const owner = (ctx: { customer: CustomerIdentity }) => ({
  organizationId: ctx.customer.organizationId,
  customerId: ctx.customer.id,
});

function notifyContext(ctx: ApiContext, organizationId: string): BookingNotifyContext {
  return {
    organizationId,
    at: ctx.clock.now(),
    email: customerEmailConfig(ctx),
  };
}

type CustomerCtx = ApiContext & { customer: CustomerIdentity };

/** Runs a transition's after-commit work (a provider call); a failure is logged, the change stands (its module owes the call). */
async function runAfterCommit(
  ctx: ApiContext,
  afterCommit: (() => Promise<void>) | undefined,
  bookingRef: string,
) {
  if (!afterCommit) return;
  await afterCommit().catch((error: unknown) => {
    ctx.services.logger?.error({ err: error, bookingId: bookingRef }, 'booking after-commit work failed');
  });
}

/**
 * An account change under the optional `x-idempotency-key` (14.10): the same
 * key and body replay the recorded outcome with the booking read fresh.
 */
async function accountChange(
  ctx: CustomerCtx,
  bookingId: string,
  operation: string,
  request: CustomerActionRequest,
): Promise<CustomerActionResult> {
  const bookingCtx = notifyContext(ctx, ctx.customer.organizationId);
  const key = readIdempotencyKey(ctx.request.headers);
  if (key === undefined) {
    const { result, afterCommit } = await requestCustomerBookingChange(
      ctx.db,
      bookingCtx,
      owner(ctx),
      bookingId,
      request,
    );
    await runAfterCommit(ctx, afterCommit, bookingId);
    return result;
  }
  let afterCommit: (() => Promise<void>) | undefined;
  const { kind: _kind, ...body } = request;
  const outcome = await retryOnAbort(() =>
    withIdempotency<CustomerActionResult>(
      ctx.db,
      {
        organizationId: bookingCtx.organizationId,
        operation,
        key,
        intent: { params: { id: bookingId }, body },
        retention: 'standard',
        now: bookingCtx.at,
      },
      async (trx) => {
        const change = await requestCustomerBookingChange(trx, bookingCtx, owner(ctx), bookingId, request);
        afterCommit = change.afterCommit;
        return { status: 200, body: change.result };
      },
      {
        fromRecord: async (trx, recorded) => ({
          outcome: (recorded.body as CustomerActionResult).outcome,
          booking: await getCustomerBooking(trx, bookingCtx, owner(ctx), bookingId),
        }),
      },
    ),
  );
  if (outcome.replayed) {
    ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return outcome.body;
  }
  await runAfterCommit(ctx, afterCommit, bookingId);
  return outcome.body;
}

/** A change through a management link: its one use replays (14.17) with `idempotent-replayed: true`. */
async function guestChange(
  ctx: ApiContext & { tenant: { organizationId: string } },
  token: string,
  request: CustomerActionRequest,
): Promise<CustomerActionResult> {
  const { result, replayed, afterCommit } = await requestGuestBookingChange(
    ctx.db,
    notifyContext(ctx, ctx.tenant.organizationId),
    token,
    request,
  );
  if (replayed) ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
  await runAfterCommit(ctx, afterCommit, result.booking.id);
  return result;
}

const KEY_OPTIONAL =
  'Header `x-idempotency-key` (alias `Idempotency-Key`) is optional: with it, the same key and body replay the outcome (`idempotent-replayed: true`, the booking read fresh), another body is `409 IDEMPOTENCY_KEY_REUSED`. Without it a repeated change is refused by state (`409`), never made twice.';

export const customerBookingsRouter = router({
  list: customerProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/customer/account/bookings',
        tags: ACCOUNT_TAGS,
        summary: 'The customer’s bookings',
        description: [
          '`{ data, nextCursor }`: pass `nextCursor` as `cursor` (`limit` 1 to 200, default 50); a cursor that names no booking of the customer is `400`. `status`: a comma list. `timeframe`: `UPCOMING` (ending after now) by `startsAt` ascending, `PAST` (ended) by `startsAt` descending; without it every booking, `startsAt` descending.',
          'Each entry is a summary: `id`, `code`, `status`, `service { id, slug, name }`, `timezone`, `startsAt`/`endsAt` in its offset, `quantity`, `price { currency, totalInCents }`, `actions` as the detail’s, `hasPendingChangeRequest`, `createdAt`. The detail has the rest.',
          OWNED,
        ].join('\n\n'),
      },
    })
    .input(customerBookingListQuerySchema)
    .output(pageSchema(customerBookingSummarySchema))
    .query(({ ctx, input }) =>
      listCustomerBookings(
        ctx.db,
        { organizationId: ctx.customer.organizationId, at: ctx.clock.now() },
        owner(ctx),
        input,
      ),
    ),

  get: customerProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/customer/account/bookings/{id}',
        tags: ACCOUNT_TAGS,
        summary: 'One of the customer’s bookings',
        description: `The detail of 14.17, with \`actions { cancel, reschedule, cancelCutoffAt, rescheduleCutoffAt }\` (\`APPLY\`, \`REQUEST\` or \`NONE\` now) and \`changeRequests[]\`. ${OWNED}`,
      },
      errors: ['RESOURCE_NOT_FOUND'],
    })
    .input(customerBookingIdInputSchema)
    .output(bookingDetailSchema)
    .query(({ ctx, input }) =>
      getCustomerBooking(
        ctx.db,
        { organizationId: ctx.customer.organizationId, at: ctx.clock.now() },
        owner(ctx),
        input.id,
      ),
    ),

  cancelRequest: customerProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/customer/account/bookings/{id}/cancel-request',
        tags: ACCOUNT_TAGS,
        summary: 'Cancel a booking, or ask the merchant to',
        description: [CANCEL, POLICY, KEY_OPTIONAL, OWNED].join('\n\n'),
      },
      errors: [...ACTION_ERRORS, 'IDEMPOTENCY_KEY_REUSED'],
    })
    .input(cancelRequestInputSchema.extend(customerBookingIdInputSchema.shape))
    .output(customerActionResultSchema)
    .mutation(({ ctx, input }) => {
      const { id, ...body } = input;
      return accountChange(ctx, id, 'POST /customer/account/bookings/{id}/cancel-request', {
        kind: 'CANCEL',
        ...body,
      });
    }),

  rescheduleRequest: customerProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/customer/account/bookings/{id}/reschedule-request',
        tags: ACCOUNT_TAGS,
        summary: 'Move a booking, or ask the merchant to',
        description: [RESCHEDULE, POLICY, KEY_OPTIONAL, OWNED].join('\n\n'),
      },
      errors: [...ACTION_ERRORS, 'IDEMPOTENCY_KEY_REUSED'],
    })
    .input(rescheduleRequestInputSchema.safeExtend(customerBookingIdInputSchema.shape))
    .output(customerActionResultSchema)
    .mutation(({ ctx, input }) => {
      const { id, ...body } = input;
      return accountChange(ctx, id, 'POST /customer/account/bookings/{id}/reschedule-request', {
        kind: 'RESCHEDULE',
        ...body,
      });
    }),
});

export const guestBookingsRouter = router({
  get: tenantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/customer/bookings/{token}',
        tags: GUEST_TAGS,
        summary: 'The booking a management link opens',
        description: `The detail of 14.17, as the account route gives it; after the token’s one change every action is \`NONE\`. ${TOKEN}`,
      },
      rateLimit: 'public-read',
    })
    .input(guestTokenInputSchema)
    .output(bookingDetailSchema)
    .query(({ ctx, input }) =>
      getGuestBooking(
        ctx.db,
        { organizationId: ctx.tenant.organizationId, at: ctx.clock.now() },
        input.token,
      ),
    ),

  cancelRequest: tenantProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/customer/bookings/{token}/cancel-request',
        tags: GUEST_TAGS,
        summary: 'Cancel a booking through its management link, or ask the merchant to',
        description: [CANCEL, POLICY, GUEST_ONCE, TOKEN].join('\n\n'),
      },
      rateLimit: 'public-read',
      errors: ACTION_ERRORS,
    })
    .input(cancelRequestInputSchema.extend(guestTokenInputSchema.shape))
    .output(customerActionResultSchema)
    .mutation(({ ctx, input }) => {
      const { token, ...body } = input;
      return guestChange(ctx, token, { kind: 'CANCEL', ...body });
    }),

  rescheduleRequest: tenantProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/customer/bookings/{token}/reschedule-request',
        tags: GUEST_TAGS,
        summary: 'Move a booking through its management link, or ask the merchant to',
        description: [RESCHEDULE, POLICY, GUEST_ONCE, TOKEN].join('\n\n'),
      },
      rateLimit: 'public-read',
      errors: ACTION_ERRORS,
    })
    .input(rescheduleRequestInputSchema.safeExtend(guestTokenInputSchema.shape))
    .output(customerActionResultSchema)
    .mutation(({ ctx, input }) => {
      const { token, ...body } = input;
      return guestChange(ctx, token, { kind: 'RESCHEDULE', ...body });
    }),
});
