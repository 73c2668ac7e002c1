import { AppError, newId } from '@commerce/core';
import { type Database, isIdempotencyKeyRecorded, recordAudit, withIdempotency } from '@commerce/db';
import type { Kysely } from 'kysely';
import { unavailableReason } from '../availability/rules.ts';
import { parseInstant } from '../availability/schemas.ts';
import { intervalShapeIssues, partySizeIssues, selectionIssues } from '../availability/validate.ts';
import { lockResources, retryOnAbort } from '../capacity/capacity-lock.ts';
import { insertClaims } from '../capacity/claims.ts';
import type { BookingClockContext } from '../context.ts';
import type { DistanceProvider } from '../delivery/distance-provider.ts';
import { quoteDelivery } from '../delivery/quote-delivery.ts';
import type { DeliverySnapshot } from '../delivery/schemas.ts';
import { priceBooking } from '../pricing/price.ts';
import { toEpochMinutes } from '../time/zone.ts';
import {
  type BookingServiceTerms,
  capacityUnavailable,
  loadServiceTerms,
  MS_PER_MINUTE,
  planClaims,
  poolOf,
} from './booking-claims.ts';
import { unusedBookingCode } from './booking-codes.ts';
import { recordConfirmedBookingSale } from './booking-payments.ts';
import { type MerchantBookingDetail, readBookingDetail } from './booking-read.ts';
import { type BookingTax, type QuotedTax, quoteBookingTax, totalWithTax } from './booking-tax.ts';
import { emitBookingEvent } from './booking-webhooks.ts';
import { historyEntry } from './history.ts';
import type { CreateMerchantBookingInput } from './merchant-schemas.ts';
import { notifyBookingCustomer } from './notify.ts';
import { type BookingTransitionContext, writeAllocations } from './transitions/transition-steps.ts';

export const MERCHANT_BOOKING_CREATE_OPERATION = 'POST /merchant/bookings';

export interface MerchantActorRef {
  userId: string;
  email: string | null;
}

/** What a merchant booking decides before its transaction: the delivery, and the tax quoted on the price. */
interface MerchantBookingQuote {
  delivery: DeliverySnapshot;
  tax: QuotedTax | null;
}

/**
 * The request checked against its service as it stands (none of it needs the
 * capacity lock): not `ARCHIVED` (409 INVALID_STATE_TRANSITION), the party
 * size, the interval's shape, the selections and a price for the duration
 * (400), then the time rules unless `ignoreRules` (409
 * BOOKING_SLOT_UNAVAILABLE). Answers the interval and the price.
 */
function checkRequest(
  ctx: BookingClockContext,
  terms: BookingServiceTerms,
  input: CreateMerchantBookingInput,
) {
  if (terms.status === 'ARCHIVED') {
    throw new AppError('INVALID_STATE_TRANSITION', 'The service is archived: restore it first', {
      reason: 'SERVICE_ARCHIVED',
    });
  }
  const startMinute = toEpochMinutes(parseInstant(input.startsAt)!);
  const endMinute = toEpochMinutes(parseInstant(input.endsAt)!);
  const selections = input.resourceSelections ?? [];
  const issues = [
    ...partySizeIssues(terms.rules, input.quantity),
    ...intervalShapeIssues(terms.rules, startMinute, endMinute),
    ...selectionIssues(terms.rules, input.quantity, selections, {
      path: 'resourceSelections',
      complete: false,
    }),
  ];
  const price = terms.rules.pricing
    ? priceBooking({
        pricing: terms.rules.pricing,
        checkout: terms.rules.checkout,
        currency: terms.rules.currency,
        timeZone: terms.rules.timezone,
        startsAt: startMinute,
        endsAt: endMinute,
        quantity: input.quantity,
      })
    : null;
  if (terms.rules.pricing && price === null && issues.length === 0) {
    issues.push({ path: 'endsAt', message: "the service's pricing has no price for this duration" });
  }
  if (issues.length > 0) throw AppError.validation(issues);
  if (!input.ignoreRules) {
    const reason = unavailableReason(terms.rules, ctx.at, startMinute, endMinute);
    if (reason !== null) {
      throw new AppError('BOOKING_SLOT_UNAVAILABLE', 'The interval is not offered now', { reason });
    }
  }
  return { startMinute, endMinute, selections, subtotalInCents: price?.subtotalInCents ?? 0 };
}

/**
 * Before the transaction, reads and provider calls only: the service
 * (404), the request against it (`checkRequest`: nothing is rated for a
 * request bound to fail), the delivery as a hold rates it (`quoteDelivery`:
 * its refusals, or the distance provider's failure, record nothing),
 * then the tax on the subtotal and the delivery fee (`quoteBookingTax`).
 */
async function quoteMerchantBooking(
  db: Kysely<Database>,
  ctx: BookingTransitionContext,
  input: CreateMerchantBookingInput,
  options: { currency: string; distance: DistanceProvider; tax?: BookingTax | undefined },
): Promise<MerchantBookingQuote> {
  const terms = await loadServiceTerms(db, ctx.organizationId, input.serviceId, options.currency);
  const { subtotalInCents } = checkRequest(ctx, terms, input);
  const delivery = await quoteDelivery(ctx, terms.delivery, input, options.distance);
  const tax = await quoteBookingTax(db, ctx, options.tax, {
    currency: options.currency,
    subtotalInCents,
    deliveryFeeInCents: delivery.feeInCents,
    deliveryCountry: delivery.address?.country ?? null,
  });
  return { delivery, tax };
}

/**
 * `POST /merchant/bookings`: a `CONFIRMED` booking made by the
 * merchant, its balance open (sales record `NOT_REQUIRED`). The interval must
 * have the service's shape (400); `ignoreRules` skips hours, closures, lead
 * time and maximum advance (else `409 BOOKING_SLOT_UNAVAILABLE`), never
 * capacity nor delivery. First, outside any transaction, the delivery is rated
 * as for a hold (the same refusals) and the tax quoted: a
 * failure records nothing, so a retry with the same key runs again. Then
 * resources are assigned and claimed under the capacity lock, the trigger
 * checking every claim (`409 CAPACITY_UNAVAILABLE`), and the delivery, its fee
 * and the tax frozen on the booking. The idempotency key is required and
 * claimed in that transaction: a same-key request waits for the first and
 * replays its booking, read fresh; a key already recorded replays without a
 * check or a provider call.
 */
export async function createMerchantBooking(
  db: Kysely<Database>,
  ctx: BookingTransitionContext,
  input: CreateMerchantBookingInput,
  options: {
    currency: string;
    idempotencyKey: string;
    actor: MerchantActorRef;
    distance: DistanceProvider;
    tax?: BookingTax | undefined;
  },
): Promise<{ booking: MerchantBookingDetail; replayed: boolean }> {
  const request = {
    organizationId: ctx.organizationId,
    operation: MERCHANT_BOOKING_CREATE_OPERATION,
    key: options.idempotencyKey,
    now: ctx.at,
  };
  // A replay (or a reuse, refused with 409) is answered from the record: no check or provider may preempt it.
  const quote = (await isIdempotencyKeyRecorded(db, request))
    ? undefined
    : await quoteMerchantBooking(db, ctx, input, options);
  const outcome = await retryOnAbort(() =>
    withIdempotency<MerchantBookingDetail>(
      db,
      { ...request, intent: { body: input }, retention: 'standard' },
      async (trx) => {
        // The record seen before the transaction expired meanwhile: nothing was rated for this request.
        if (!quote) throw new AppError('STALE_STATE', 'The idempotency key expired meanwhile; retry');
        const bookingId = await placeMerchantBooking(trx, ctx, input, { ...options, quote });
        await emitBookingEvent(trx, ctx, bookingId, 'booking.confirmed');
        return { status: 201, body: (await readBookingDetail(trx, ctx, bookingId, 'MERCHANT'))! };
      },
      {
        fromRecord: async (trx, recorded) => {
          const detail = await readBookingDetail(
            trx,
            ctx,
            (recorded.body as MerchantBookingDetail).id,
            'MERCHANT',
          );
          if (!detail) throw AppError.notFound('Booking not found');
          return detail;
        },
      },
    ),
  );
  return { booking: outcome.body, replayed: outcome.replayed };
}

/**
 * The booking, in the idempotency transaction: the request checked again on
 * the service as it is now, the claim planned under the capacity lock, then
 * the row at the frozen amounts (the quoted tax must be on this subtotal and
 * fee, else `409 STALE_STATE`), its claims, allocations, sales record, email
 * and audit entry.
 */
async function placeMerchantBooking(
  trx: Kysely<Database>,
  ctx: BookingTransitionContext,
  input: CreateMerchantBookingInput,
  options: { currency: string; actor: MerchantActorRef; quote: MerchantBookingQuote },
): Promise<string> {
  const terms = await loadServiceTerms(trx, ctx.organizationId, input.serviceId, options.currency);
  const { startMinute, endMinute, selections, subtotalInCents } = checkRequest(ctx, terms, input);
  const { delivery } = options.quote;
  const { taxInCents, totalInCents } = totalWithTax(subtotalInCents, delivery.feeInCents, options.quote.tax);

  const startsAt = new Date(startMinute * MS_PER_MINUTE);
  const endsAt = new Date(endMinute * MS_PER_MINUTE);
  await lockResources(trx, ctx.organizationId, poolOf(terms), { clock: ctx.at });
  const plan = await planClaims(trx, ctx, terms, { startsAt, endsAt, quantity: input.quantity, selections });
  if (!plan.ok) throw capacityUnavailable(plan);

  const bookingId = newId('bkg', ctx.at);
  await trx
    .insertInto('bookings')
    .values({
      organization_id: ctx.organizationId,
      id: bookingId,
      code: await unusedBookingCode(trx, ctx.organizationId),
      service_id: terms.id,
      hold_id: null,
      status: 'CONFIRMED',
      starts_at: startsAt,
      ends_at: endsAt,
      quantity: input.quantity,
      timezone: terms.rules.timezone,
      customer_id: null,
      customer_name: input.customer.name,
      customer_email: input.customer.email,
      customer_phone: input.customer.phone ?? null,
      customer_note: null,
      billing_address: null,
      // Pickup is null on the booking, as conversion leaves it.
      delivery: delivery.method === 'DELIVERY' ? JSON.stringify(delivery) : null,
      snapshot: JSON.stringify({
        name: terms.name,
        slug: terms.slug,
        timezone: terms.rules.timezone,
        requirements: terms.rules.requirements,
        policies: terms.policies,
        checkout: terms.checkout,
        pricing: terms.rules.pricing ?? null,
        claim: { startMinute: plan.claimStart, endMinute: plan.claimEnd },
      }),
      currency: options.currency,
      subtotal_in_cents: subtotalInCents,
      delivery_fee_in_cents: delivery.feeInCents,
      tax_in_cents: taxInCents,
      total_in_cents: totalInCents,
      amount_due_now_in_cents: 0,
      sales_record_id: null,
      payment_expires_at: null,
      request_expires_at: null,
      voided_at: null,
      history: JSON.stringify([
        historyEntry(ctx, { from: null, to: 'CONFIRMED', actor: 'MERCHANT', userId: options.actor.userId }),
      ]),
      created_at: ctx.at,
      updated_at: ctx.at,
    })
    .execute();
  await insertClaims(
    trx,
    ctx,
    plan.allocations.map((allocation) => ({
      resourceId: allocation.resourceId,
      quantity: allocation.quantity,
      startsAt: new Date(plan.claimStart * MS_PER_MINUTE),
      endsAt: new Date(plan.claimEnd * MS_PER_MINUTE),
      expiresAt: null,
      owner: { kind: 'BOOKING' as const, id: bookingId },
    })),
  );
  await writeAllocations(trx, ctx, bookingId, terms, plan.allocations);
  await recordConfirmedBookingSale(trx, ctx, bookingId);
  await notifyBookingCustomer(trx, ctx, bookingId, 'CONFIRMED');
  await recordAudit(trx, {
    organizationId: ctx.organizationId,
    actor: { userId: options.actor.userId, email: options.actor.email },
    action: 'booking.created',
    targetType: 'booking',
    targetId: bookingId,
    metadata: {
      bookingId,
      serviceId: terms.id,
      from: null,
      to: 'CONFIRMED',
      startsAt: startsAt.toISOString(),
      endsAt: endsAt.toISOString(),
      ignoreRules: input.ignoreRules,
      deliveryMethod: delivery.method,
    },
    at: ctx.at,
  });
  return bookingId;
}
