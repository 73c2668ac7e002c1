import { AppError, newId } from '@commerce/core';
import { type Database, recordAudit, withIdempotency } from '@commerce/db';
import type { Kysely } from 'kysely';
import { unavailableReason } from '../availability/rules.ts';
import { parseInstant } from '../availability/schemas.ts';
import { intervalShapeIssues, partySizeIssues, selectionIssues } from '../availability/validate.ts';
import { lockResources, retryOnAbort } from '../capacity/capacity-lock.ts';
import { insertClaims } from '../capacity/claims.ts';
import { priceBooking } from '../pricing/price.ts';
import { toEpochMinutes } from '../time/zone.ts';
import {
  capacityUnavailable,
  loadServiceTerms,
  MS_PER_MINUTE,
  planClaims,
  poolOf,
} from './booking-claims.ts';
import { unusedBookingCode } from './booking-codes.ts';
import { recordConfirmedBookingSale } from './booking-payments.ts';
import { type MerchantBookingDetail, readBookingDetail } from './booking-read.ts';
import { historyEntry } from './history.ts';
import type { CreateMerchantBookingInput } from './merchant-schemas.ts';
import { notifyBookingCustomer } from './notify.ts';
import { type BookingTransitionContext, writeAllocations } from './transitions.ts';

export const MERCHANT_BOOKING_CREATE_OPERATION = 'POST /merchant/bookings';

export interface MerchantActorRef {
  userId: string;
  email: string | null;
}

/**
 * `POST /merchant/bookings` (14.16): a `CONFIRMED` booking made by the
 * merchant, its balance open (sales record `NOT_REQUIRED`). The interval must
 * have the service's shape (400); `ignoreRules` skips hours, closures, lead
 * time and maximum advance (else `409 BOOKING_SLOT_UNAVAILABLE`), never
 * capacity: resources are assigned and claimed under the capacity lock, the
 * trigger checking every claim (`409 CAPACITY_UNAVAILABLE`). The idempotency
 * key is required and claimed in the same transaction: a same-key request
 * waits for the first and replays its booking, read fresh.
 */
export async function createMerchantBooking(
  db: Kysely<Database>,
  ctx: BookingTransitionContext,
  input: CreateMerchantBookingInput,
  options: { currency: string; idempotencyKey: string; actor: MerchantActorRef },
): Promise<{ booking: MerchantBookingDetail; replayed: boolean }> {
  const outcome = await retryOnAbort(() =>
    withIdempotency<MerchantBookingDetail>(
      db,
      {
        organizationId: ctx.organizationId,
        operation: MERCHANT_BOOKING_CREATE_OPERATION,
        key: options.idempotencyKey,
        intent: { body: input },
        retention: 'standard',
        now: ctx.at,
      },
      async (trx) => {
        const bookingId = await placeMerchantBooking(trx, ctx, input, options);
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

async function placeMerchantBooking(
  trx: Kysely<Database>,
  ctx: BookingTransitionContext,
  input: CreateMerchantBookingInput,
  options: { currency: string; actor: MerchantActorRef },
): Promise<string> {
  const terms = await loadServiceTerms(trx, ctx.organizationId, input.serviceId, options.currency);
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
        currency: options.currency,
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

  const startsAt = new Date(startMinute * MS_PER_MINUTE);
  const endsAt = new Date(endMinute * MS_PER_MINUTE);
  await lockResources(trx, ctx.organizationId, poolOf(terms), { clock: ctx.at });
  const plan = await planClaims(trx, ctx, terms, { startsAt, endsAt, quantity: input.quantity, selections });
  if (!plan.ok) throw capacityUnavailable(plan);

  const bookingId = newId('bkg', ctx.at);
  const subtotal = price?.subtotalInCents ?? 0;
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
      delivery: null,
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
      subtotal_in_cents: subtotal,
      delivery_fee_in_cents: 0,
      tax_in_cents: 0,
      total_in_cents: subtotal,
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
    },
    at: ctx.at,
  });
  return bookingId;
}
