import { AppError } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely } from 'kysely';
import { withCapacityLock } from '../../capacity/capacity-lock.ts';
import { insertClaims, releaseClaims } from '../../capacity/claims.ts';
import { openBookingPayment, recordConfirmedBookingSale } from '../booking-payments.ts';
import type { QuotedTax } from '../booking-tax.ts';
import type { ConversionRead, ConvertHoldInput } from '../convert-schemas.ts';
import { notifyBookingCustomer, notifyBookingMerchant } from '../notify.ts';
import { type Amounts, bookingOfFlow, flowOf, freezeAmounts, type LiveFlow } from './conversion-amounts.ts';
import { madeBooking, presentConversion, terminal } from './conversion-read.ts';
import type { ConvertContext } from './convert-context.ts';
import { claimStillHeld, claimWindowOf, holdUnitsStillFree, poolOfHold } from './hold-claims.ts';
import { markHoldConverted, retireHold } from './hold-steps.ts';
import {
  type ConversionDeliverySnapshot,
  deliveryModeOf,
  type HoldRow,
  type HoldSnapshot,
  holdDelivery,
  holdSnapshotSchema,
  type ServiceRow,
  type StoredCheckout,
  storedAgreementSchema,
  storedCheckoutSchema,
} from './hold-terms.ts';
import { customerOfTenant, insertBooking, linkedCustomer } from './insert-booking.ts';

/**
 * The conversion proper, in the idempotency transaction with the hold row
 * locked, as its steps in order: the email, the hold's own state, the service
 * it converts under, the agreement, the delivery and the frozen amounts; then
 * under the capacity lock the hold's claim and the booking its flow makes.
 */
export async function convert(
  trx: Kysely<Database>,
  ctx: ConvertContext,
  hold: HoldRow,
  body: ConvertHoldInput,
  currency: string,
  tax: QuotedTax | null,
): Promise<ConversionRead> {
  assertHoldEmail(hold, body);
  const ended = await endedHold(trx, ctx, hold, currency);
  if (ended) return ended;
  const terms = await convertibleService(trx, ctx, hold);
  if (!terms) {
    await retireHold(trx, ctx, hold, 'EXPIRED');
    return terminal('SERVICE_UNAVAILABLE', currency);
  }
  assertAgreementAccepted(terms.service, terms.agreementRequired, body);
  const delivery = holdDelivery(hold.snapshot, deliveryModeOf(terms.service));
  const amounts = freezeAmounts(terms.service, hold, terms.snapshot, delivery, terms.checkout, currency, tax);
  if (amounts === null) {
    await retireHold(trx, ctx, hold, 'EXPIRED');
    return terminal('SERVICE_UNAVAILABLE', currency);
  }
  return withCapacityLock(trx, ctx, poolOfHold(terms.snapshot), (locked) =>
    convertUnderLock(locked, ctx, { hold, body, ...terms, delivery, amounts }),
  );
}

/** The booking must be made in the email the hold was made with (`400` else). */
function assertHoldEmail(hold: HoldRow, body: ConvertHoldInput): void {
  if (hold.customer_email.toLowerCase() !== body.customerEmail.toLowerCase())
    throw AppError.validation([
      { path: 'customerEmail', message: 'must be the email the hold was made with' },
    ]);
}

/**
 * The answer for a hold that can no longer convert, else null: one already
 * converted reports its booking (the key's record was pruned, the booking
 * stands: as a replay would); a released one is `HOLD_RELEASED`; one no
 * longer active or past its expiry is retired and `HOLD_EXPIRED`.
 */
async function endedHold(
  trx: Kysely<Database>,
  ctx: ConvertContext,
  hold: HoldRow,
  currency: string,
): Promise<ConversionRead | null> {
  if (hold.status === 'CONVERTED') {
    const booking = await trx
      .selectFrom('bookings')
      .select('id')
      .where('organization_id', '=', ctx.organizationId)
      .where('hold_id', '=', hold.id)
      .executeTakeFirst();
    if (booking) return presentConversion(trx, ctx, booking.id, currency);
  }
  if (hold.status === 'RELEASED') return terminal('HOLD_RELEASED', currency);
  if (hold.status !== 'ACTIVE' || new Date(hold.expires_at).getTime() <= ctx.at.getTime()) {
    await retireHold(trx, ctx, hold, 'EXPIRED');
    return terminal('HOLD_EXPIRED', currency);
  }
  return null;
}

/** The service and the terms a conversion freezes, read back from the rows. */
interface ConvertibleService {
  service: ServiceRow;
  checkout: StoredCheckout;
  snapshot: HoldSnapshot;
  /** The service asks for its agreement to be accepted. */
  agreementRequired: boolean;
}

/**
 * The hold's service if it is still holdable: `ACTIVE`, with checkout terms,
 * the hold's snapshot and its agreement all readable; else null. A service no
 * longer holdable ends the hold: its key serves no other conversion, so its
 * claim would only block the units and count against the active-holds limit
 * until it expired.
 */
async function convertibleService(
  trx: Kysely<Database>,
  ctx: ConvertContext,
  hold: HoldRow,
): Promise<ConvertibleService | null> {
  const service = await trx
    .selectFrom('booking_services')
    .selectAll()
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', hold.service_id)
    .executeTakeFirstOrThrow();
  const checkout = storedCheckoutSchema.safeParse(service.checkout);
  const snapshot = holdSnapshotSchema.safeParse(hold.snapshot);
  const agreement = storedAgreementSchema.safeParse(service.agreement);
  if (service.status !== 'ACTIVE' || !checkout.success || !snapshot.success || !agreement.success) {
    return null;
  }
  return {
    service,
    checkout: checkout.data,
    snapshot: snapshot.data,
    agreementRequired: agreement.data !== null,
  };
}

/** A service with an agreement needs its current version accepted (`409 AGREEMENT_REQUIRED`). */
function assertAgreementAccepted(
  service: ServiceRow,
  agreementRequired: boolean,
  body: ConvertHoldInput,
): void {
  if (!agreementRequired) return;
  const accepted = body.agreement;
  if (!accepted || accepted.version !== service.agreement_version)
    throw new AppError('AGREEMENT_REQUIRED', 'The service agreement’s current version must be accepted', {
      serviceId: service.id,
      version: service.agreement_version,
    });
}

interface FrozenConversion extends ConvertibleService {
  hold: HoldRow;
  body: ConvertHoldInput;
  delivery: ConversionDeliverySnapshot | null;
  amounts: Amounts;
}

/**
 * Under the capacity lock of the hold's resources: the hold's claim must still
 * stand (else it is retired and the answer `CAPACITY_LOST`); its claims are
 * released (claims move under the lock), and a flow that keeps the units
 * checks they are still free; then the booking is inserted, the hold marked
 * converted, the units claimed for the booking, and the flow opened.
 */
async function convertUnderLock(
  locked: Kysely<Database>,
  ctx: ConvertContext,
  frozen: FrozenConversion,
): Promise<ConversionRead> {
  const { hold, snapshot, checkout, amounts } = frozen;
  if (!(await claimStillHeld(locked, ctx, hold, snapshot))) {
    await retireHold(locked, ctx, hold, 'EXPIRED');
    return terminal('CAPACITY_LOST', amounts.currency, amounts);
  }
  const flow = flowOf(checkout, amounts);
  await releaseClaims(locked, ctx, { kind: 'HOLD', id: hold.id });
  if (flow !== 'REQUEST' && !(await holdUnitsStillFree(locked, ctx, snapshot))) {
    await retireHold(locked, ctx, hold, 'EXPIRED');
    return terminal('CAPACITY_LOST', amounts.currency, amounts);
  }
  const booking = bookingOfFlow(flow, checkout, ctx.at, new Date(hold.starts_at));
  const customerId = await customerOfTenant(locked, ctx.organizationId, linkedCustomer(hold, ctx));
  const bookingId = await insertBooking(locked, ctx, {
    hold,
    service: frozen.service,
    snapshot,
    delivery: frozen.delivery,
    amounts,
    status: booking.status,
    customerId,
    body: frozen.body,
    paymentExpiresAt: booking.paymentExpiresAt,
    requestExpiresAt: booking.requestExpiresAt,
  });
  await markHoldConverted(locked, ctx, hold);
  if (flow !== 'REQUEST') await claimForBooking(locked, ctx, bookingId, snapshot, booking.paymentExpiresAt);
  const checkoutToken = await openFlow(locked, ctx, flow, bookingId, amounts, booking.paymentExpiresAt);
  return madeBooking(
    flow,
    { id: bookingId, status: booking.status, checkoutToken, paymentExpiresAt: booking.paymentExpiresAt },
    amounts,
  );
}

/** The hold's units, claimed for the booking over the hold's claim window, until `expiresAt` if any. */
async function claimForBooking(
  trx: Kysely<Database>,
  ctx: ConvertContext,
  bookingId: string,
  snapshot: HoldSnapshot,
  expiresAt: Date | null,
): Promise<void> {
  const window = claimWindowOf(snapshot);
  await insertClaims(
    trx,
    ctx,
    snapshot.allocations.map((allocation) => ({
      resourceId: allocation.resourceId,
      quantity: allocation.quantity,
      startsAt: window.startsAt,
      endsAt: window.endsAt,
      expiresAt,
      owner: { kind: 'BOOKING' as const, id: bookingId },
    })),
  );
}

/**
 * What each flow owes once the booking is made: a `REQUEST` emails the
 * customer that it was received and the merchant the new request; a
 * `PAYMENT` opens the checkout for the amount due (its `c1_` token is the
 * answer) and emails the payment link; a `CONFIRMED` records the sale and
 * emails both. Answers the checkout token, if any.
 */
async function openFlow(
  trx: Kysely<Database>,
  ctx: ConvertContext,
  flow: LiveFlow,
  bookingId: string,
  amounts: Amounts,
  paymentExpiresAt: Date | null,
): Promise<string | null> {
  if (flow === 'REQUEST') {
    await notifyBookingCustomer(trx, ctx, bookingId, 'REQUEST_RECEIVED');
    await notifyBookingMerchant(trx, ctx, bookingId, 'NEW_REQUEST');
    return null;
  }
  if (flow === 'PAYMENT') {
    const payment = await openBookingPayment(trx, ctx, bookingId, {
      amountInCents: amounts.amountDueNowInCents,
      expiresAt: paymentExpiresAt,
    });
    await notifyBookingCustomer(trx, ctx, bookingId, 'PAYMENT_REQUIRED', {
      paymentUrl: payment.paymentUrl,
    });
    return payment.checkoutToken;
  }
  await recordConfirmedBookingSale(trx, ctx, bookingId);
  await notifyBookingCustomer(trx, ctx, bookingId, 'CONFIRMED');
  await notifyBookingMerchant(trx, ctx, bookingId, 'NEW_BOOKING');
  return null;
}
