import { AppError, hashToken, newId } from '@commerce/core';
import { type BookingStatus, type Database, withIdempotency } from '@commerce/db';
import type { Kysely, Selectable } from 'kysely';
import { z } from 'zod';
import { freeUnits, resourceLoad } from '../availability/capacity.ts';
import { pricingSchema } from '../availability/schemas.ts';
import { retryOnAbort, withCapacityLock } from '../capacity/capacity-lock.ts';
import { insertClaims, releaseClaims } from '../capacity/claims.ts';
import { readLiveClaims } from '../capacity/live-claims.ts';
import { type DeliverySnapshot, parseDeliverySnapshot } from '../delivery/schemas.ts';
import { findHold, holdNotFound } from '../holds/find-hold.ts';
import { depositFor, priceBooking } from '../pricing/price.ts';
import { toEpochMinutes } from '../time/zone.ts';
import { unusedBookingCode } from './booking-codes.ts';
import {
  openBookingPayment,
  recordConfirmedBookingSale,
  reissueBookingCheckoutToken,
} from './booking-payments.ts';
import {
  type BookingTax,
  hasTaxProvider,
  type QuotedTax,
  quoteBookingTax,
  totalWithTax,
} from './booking-tax.ts';
import type { ConversionFlow, ConversionRead, ConvertHoldInput, TerminalReason } from './convert-schemas.ts';
import { historyEntry } from './history.ts';
import { type BookingNotifyContext, notifyBookingCustomer, notifyBookingMerchant } from './notify.ts';

export const HOLD_CONVERT_OPERATION = 'POST /public/booking-holds/:id/checkout';

const MS_PER_MINUTE = 60_000;
const MS_PER_HOUR = 3_600_000;

/** Who converts: the tenant, the instant, the email configuration, and a signed-in customer if any. */
export interface ConvertContext extends BookingNotifyContext {
  /** A valid customer session of the tenant: links the booking (and says `CUSTOMER` in its history). */
  customerId?: string | null;
}

type HoldRow = Selectable<Database['booking_holds']>;
type ServiceRow = Selectable<Database['booking_services']>;

/** What a hold froze (holds.ts), read back defensively. */
const holdSnapshotSchema = z
  .object({
    timezone: z.string().min(1),
    allocations: z
      .array(
        z
          .object({
            requirementId: z.string().min(1),
            resourceId: z.string().min(1),
            quantity: z.number().int().min(1),
            selection: z.enum(['AUTO', 'OPTIONAL', 'REQUIRED']),
          })
          .loose(),
      )
      .min(1),
    claim: z.object({ startMinute: z.number().int(), endMinute: z.number().int() }),
  })
  .loose();
type HoldSnapshot = z.output<typeof holdSnapshotSchema>;

export type ConversionDeliverySnapshot = DeliverySnapshot;

/**
 * The hold's frozen delivery (14.12), read with `parseDeliverySnapshot`: a
 * missing or malformed one is 409 STALE_STATE (`DELIVERY_SNAPSHOT_INVALID`),
 * never a fallback to pickup; a `REQUIRED` service needs a delivery. Pickup
 * is null on the booking.
 */
function holdDelivery(snapshot: unknown, deliveryMode: string): ConversionDeliverySnapshot | null {
  const parsed = parseDeliverySnapshot(snapshot);
  if (deliveryMode === 'REQUIRED' && parsed.method !== 'DELIVERY') {
    throw new AppError('STALE_STATE', 'The hold’s delivery snapshot is missing or malformed', {
      reason: 'DELIVERY_SNAPSHOT_INVALID',
    });
  }
  return parsed.method === 'PICKUP' ? null : parsed;
}

const storedCheckoutSchema = z
  .object({
    approvalMode: z.enum(['AUTOMATIC', 'MANUAL']).catch('AUTOMATIC'),
    paymentMode: z.enum(['PAY_NOW', 'DEPOSIT', 'PAY_LATER']),
    deposit: z.union([z.object({ percent: z.number() }), z.object({ amountInCents: z.number() })]).nullish(),
    paymentWindowMinutes: z.number().int().min(1).catch(30),
    requestExpiryHours: z.number().int().min(1).catch(72),
  })
  .loose();

const storedAgreementSchema = z.object({ title: z.string(), bodyText: z.string() }).loose().nullable();

/** Key possession (14.10): the hold's own key, else the neutral 404 (an unknown or foreign hold alike). */
function assertPossession(hold: HoldRow | undefined, idempotencyKey: string): asserts hold is HoldRow {
  if (!hold || hold.key_hash !== hashToken(idempotencyKey)) throw holdNotFound();
}

/** The frozen amounts of a conversion. */
interface Amounts {
  currency: string;
  subtotalInCents: number;
  deliveryFeeInCents: number;
  taxInCents: number;
  totalInCents: number;
  amountDueNowInCents: number;
}

function terminal(reason: TerminalReason, currency: string, amounts?: Partial<Amounts>): ConversionRead {
  const total = amounts?.totalInCents ?? 0;
  const due = amounts?.amountDueNowInCents ?? 0;
  return {
    flow: 'TERMINAL',
    bookingId: null,
    bookingStatus: null,
    checkoutToken: null,
    paymentExpiresAt: null,
    amountDueNowInCents: due,
    remainingBalanceInCents: total - due,
    totalInCents: total,
    currency,
    terminalReason: reason,
  };
}

/**
 * Marks a hold that will never convert (its expiry or release found at
 * conversion), releasing its claims; a hold already marked is left as is.
 */
async function retireHold(
  trx: Kysely<Database>,
  ctx: ConvertContext,
  hold: HoldRow,
  status: 'EXPIRED' | 'RELEASED',
) {
  if (hold.status !== 'ACTIVE') return;
  await trx
    .updateTable('booking_holds')
    .set({ status, updated_at: ctx.at })
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', hold.id)
    .execute();
  await releaseClaims(trx, ctx, { kind: 'HOLD', id: hold.id });
}

/** The frozen price (14.9): the pricing then in force, the hold's delivery fee, the tax quoted (`totalWithTax`). */
function freezeAmounts(
  service: ServiceRow,
  hold: HoldRow,
  snapshot: HoldSnapshot,
  delivery: ConversionDeliverySnapshot | null,
  checkout: z.output<typeof storedCheckoutSchema>,
  currency: string,
  tax: QuotedTax | null = null,
): Amounts | null {
  const pricing = pricingSchema.nullable().safeParse(service.pricing);
  if (!pricing.success) return null;
  let subtotalInCents = 0;
  if (pricing.data !== null) {
    const preview = priceBooking({
      pricing: pricing.data,
      checkout: { paymentMode: checkout.paymentMode, deposit: checkout.deposit ?? null },
      currency,
      timeZone: snapshot.timezone,
      startsAt: toEpochMinutes(new Date(hold.starts_at).getTime()),
      endsAt: toEpochMinutes(new Date(hold.ends_at).getTime()),
      quantity: hold.quantity,
    });
    if (preview === null) return null;
    subtotalInCents = preview.subtotalInCents;
  }
  const deliveryFeeInCents = delivery?.feeInCents ?? 0;
  const { taxInCents, totalInCents } = totalWithTax(subtotalInCents, deliveryFeeInCents, tax);
  const amountDueNowInCents =
    checkout.paymentMode === 'PAY_NOW'
      ? totalInCents
      : checkout.paymentMode === 'DEPOSIT' && checkout.deposit
        ? depositFor(totalInCents, checkout.deposit)
        : 0;
  return { currency, subtotalInCents, deliveryFeeInCents, taxInCents, totalInCents, amountDueNowInCents };
}

/** 14.13's flow, in its order after the terminal conditions. */
function flowOf(
  checkout: z.output<typeof storedCheckoutSchema>,
  amounts: Amounts,
): Exclude<ConversionFlow, 'TERMINAL'> {
  if (
    checkout.approvalMode === 'MANUAL' ||
    (checkout.paymentMode === 'PAY_LATER' && amounts.totalInCents > 0)
  )
    return 'REQUEST';
  if (amounts.amountDueNowInCents > 0) return 'PAYMENT';
  return 'CONFIRMED';
}

/**
 * The tax of a conversion (14.9), quoted before its transaction like every
 * provider call (14.10): on the price the hold would convert at now, for the
 * delivery's country, else the business country. Null when there is nothing
 * to quote (no provider, a hold that will not convert); the transaction checks
 * the price it freezes is the one quoted.
 */
async function quoteConversionTax(
  db: Kysely<Database>,
  ctx: ConvertContext,
  hold: HoldRow,
  currency: string,
  tax: BookingTax | undefined,
): Promise<QuotedTax | null> {
  if (!hasTaxProvider(tax)) return null;
  const service = await db
    .selectFrom('booking_services')
    .selectAll()
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', hold.service_id)
    .executeTakeFirst();
  const checkout = storedCheckoutSchema.safeParse(service?.checkout);
  const snapshot = holdSnapshotSchema.safeParse(hold.snapshot);
  if (!service || !checkout.success || !snapshot.success) return null;
  let delivery: ConversionDeliverySnapshot | null;
  try {
    const mode = z.object({ mode: z.string() }).loose().safeParse(service.delivery);
    delivery = holdDelivery(hold.snapshot, mode.success ? mode.data.mode : 'PICKUP_ONLY');
  } catch {
    return null;
  }
  const amounts = freezeAmounts(service, hold, snapshot.data, delivery, checkout.data, currency);
  if (amounts === null) return null;
  return quoteBookingTax(db, ctx, tax, {
    currency,
    subtotalInCents: amounts.subtotalInCents,
    deliveryFeeInCents: amounts.deliveryFeeInCents,
    deliveryCountry: delivery?.address?.country ?? null,
  });
}

/** The earlier of two instants. */
const earlier = (a: Date, b: Date) => (a.getTime() <= b.getTime() ? a : b);

/**
 * Whether the hold's claims are still live under the lock, and its units
 * still free once they are set aside: a conversion racing its expiry and a
 * new hold for the same units is decided here (the loser gets CAPACITY_LOST).
 */
async function claimStillHeld(
  trx: Kysely<Database>,
  ctx: ConvertContext,
  hold: HoldRow,
  snapshot: HoldSnapshot,
): Promise<boolean> {
  const live = await trx
    .selectFrom('booking_capacity_claims')
    .select(['resource_id', 'quantity'])
    .where('organization_id', '=', ctx.organizationId)
    .where('hold_id', '=', hold.id)
    .where('released_at', 'is', null)
    .where((eb) => eb.or([eb('expires_at', 'is', null), eb('expires_at', '>', ctx.at)]))
    .execute();
  const needed = new Map<string, number>();
  for (const allocation of snapshot.allocations)
    needed.set(allocation.resourceId, (needed.get(allocation.resourceId) ?? 0) + allocation.quantity);
  const held = new Map<string, number>();
  for (const claim of live) held.set(claim.resource_id, (held.get(claim.resource_id) ?? 0) + claim.quantity);
  for (const [resourceId, units] of needed) if ((held.get(resourceId) ?? 0) < units) return false;
  return true;
}

/** Inserts the booking row, its allocations and its first history entry. */
async function insertBooking(
  trx: Kysely<Database>,
  ctx: ConvertContext,
  input: {
    hold: HoldRow;
    service: ServiceRow;
    snapshot: HoldSnapshot;
    delivery: ConversionDeliverySnapshot | null;
    amounts: Amounts;
    status: BookingStatus;
    customerId: string | null;
    body: ConvertHoldInput;
    checkout: z.output<typeof storedCheckoutSchema>;
    paymentExpiresAt: Date | null;
    requestExpiresAt: Date | null;
  },
): Promise<string> {
  const { hold, service, snapshot, amounts, body } = input;
  const id = newId('bkg', ctx.at);
  const agreement = storedAgreementSchema.parse(service.agreement);
  const agreements =
    agreement && body.agreement
      ? [
          {
            title: agreement.title,
            version: body.agreement.version,
            signerName: body.agreement.signerName,
            acceptedAt: ctx.at.toISOString(),
          },
        ]
      : [];
  const serviceSnapshot = {
    name: service.name,
    slug: service.slug,
    periodMode: service.period_mode,
    timezone: service.timezone,
    requirements: snapshot.allocations.map(({ requirementId, selection }) => ({ requirementId, selection })),
    policies: service.policies,
    checkout: service.checkout,
    pricing: service.pricing,
    agreement: agreement ? { title: agreement.title, version: service.agreement_version } : null,
    claim: snapshot.claim,
  };
  await trx
    .insertInto('bookings')
    .values({
      organization_id: ctx.organizationId,
      id,
      code: await unusedBookingCode(trx, ctx.organizationId),
      service_id: service.id,
      hold_id: hold.id,
      status: input.status,
      starts_at: hold.starts_at,
      ends_at: hold.ends_at,
      quantity: hold.quantity,
      timezone: snapshot.timezone,
      customer_id: input.customerId,
      customer_name: body.customerName,
      customer_email: hold.customer_email,
      customer_phone: body.customerPhone ?? null,
      customer_note: body.customerNote ?? null,
      billing_address: body.billingAddress ? JSON.stringify(body.billingAddress) : null,
      delivery: input.delivery ? JSON.stringify(input.delivery) : null,
      snapshot: JSON.stringify(serviceSnapshot),
      currency: amounts.currency,
      subtotal_in_cents: amounts.subtotalInCents,
      delivery_fee_in_cents: amounts.deliveryFeeInCents,
      tax_in_cents: amounts.taxInCents,
      total_in_cents: amounts.totalInCents,
      amount_due_now_in_cents: amounts.amountDueNowInCents,
      payment_expires_at: input.paymentExpiresAt,
      request_expires_at: input.requestExpiresAt,
      // While unpaid, the booking counts against its hold's client and email limits (holds.ts).
      client_key: hold.client_key,
      email_proven: hold.email_proven,
      agreements: JSON.stringify(agreements),
      history: JSON.stringify([
        historyEntry(ctx, { from: null, to: input.status, actor: input.customerId ? 'CUSTOMER' : 'GUEST' }),
      ]),
      created_at: ctx.at,
      updated_at: ctx.at,
    })
    .execute();
  await trx
    .insertInto('booking_allocations')
    .values(
      snapshot.allocations.map((allocation, position) => ({
        organization_id: ctx.organizationId,
        booking_id: id,
        requirement_id: allocation.requirementId,
        resource_id: allocation.resourceId,
        quantity: allocation.quantity,
        selection: allocation.selection,
        position,
      })),
    )
    .execute();
  return id;
}

/** The customer a conversion links: the hold's (`customer_id`), else the session's. */
function linkedCustomer(hold: HoldRow, ctx: ConvertContext): string | null {
  return hold.customer_id ?? ctx.customerId ?? null;
}

async function customerOfTenant(trx: Kysely<Database>, organizationId: string, customerId: string | null) {
  if (customerId === null) return null;
  const row = await trx
    .selectFrom('customers')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('id', '=', customerId)
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Conversion proper, in the idempotency transaction, the hold row locked. */
async function convert(
  trx: Kysely<Database>,
  ctx: ConvertContext,
  hold: HoldRow,
  body: ConvertHoldInput,
  currency: string,
  tax: QuotedTax | null,
): Promise<ConversionRead> {
  if (hold.customer_email.toLowerCase() !== body.customerEmail.toLowerCase())
    throw AppError.validation([
      { path: 'customerEmail', message: 'must be the email the hold was made with' },
    ]);
  if (hold.status === 'CONVERTED') {
    // The key's record was pruned, the booking stands: report it as a replay would.
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
  const service = await trx
    .selectFrom('booking_services')
    .selectAll()
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', hold.service_id)
    .executeTakeFirstOrThrow();
  const checkout = storedCheckoutSchema.safeParse(service.checkout);
  const snapshot = holdSnapshotSchema.safeParse(hold.snapshot);
  const agreement = storedAgreementSchema.safeParse(service.agreement);
  // A service no longer holdable ends the hold: its key serves no other conversion (14.10), so its
  // claim would only block the units and count against the active-holds limit until it expired.
  if (service.status !== 'ACTIVE' || !checkout.success || !snapshot.success || !agreement.success) {
    await retireHold(trx, ctx, hold, 'EXPIRED');
    return terminal('SERVICE_UNAVAILABLE', currency);
  }
  if (agreement.data !== null) {
    const accepted = body.agreement;
    if (!accepted || accepted.version !== service.agreement_version)
      throw new AppError('AGREEMENT_REQUIRED', 'The service agreement’s current version must be accepted', {
        serviceId: service.id,
        version: service.agreement_version,
      });
  }
  const deliveryMode = z.object({ mode: z.string() }).loose().safeParse(service.delivery);
  const delivery = holdDelivery(hold.snapshot, deliveryMode.success ? deliveryMode.data.mode : 'PICKUP_ONLY');
  const amounts = freezeAmounts(service, hold, snapshot.data, delivery, checkout.data, currency, tax);
  if (amounts === null) {
    await retireHold(trx, ctx, hold, 'EXPIRED');
    return terminal('SERVICE_UNAVAILABLE', currency);
  }

  const pool = [...new Set(snapshot.data.allocations.map((allocation) => allocation.resourceId))];
  const claimStart = new Date(snapshot.data.claim.startMinute * MS_PER_MINUTE);
  const claimEnd = new Date(snapshot.data.claim.endMinute * MS_PER_MINUTE);
  return withCapacityLock(trx, ctx, pool, async (locked) => {
    if (!(await claimStillHeld(locked, ctx, hold, snapshot.data))) {
      await retireHold(locked, ctx, hold, 'EXPIRED');
      return terminal('CAPACITY_LOST', currency, amounts);
    }
    const flow = flowOf(checkout.data, amounts);
    // Claims move under the lock (14.19 rule 4): the hold's are released first.
    await releaseClaims(locked, ctx, { kind: 'HOLD', id: hold.id });
    if (flow !== 'REQUEST') {
      // Set aside the hold's own units, nothing else may hold them: a claim lost to its expiry shows here.
      const loads = await readLiveClaims(locked, ctx, pool, { startsAt: claimStart, endsAt: claimEnd });
      const byResource = new Map(loads.map((row) => [row.resourceId, resourceLoad(row)]));
      const needed = new Map<string, number>();
      for (const allocation of snapshot.data.allocations)
        needed.set(allocation.resourceId, (needed.get(allocation.resourceId) ?? 0) + allocation.quantity);
      for (const [resourceId, units] of needed) {
        const load = byResource.get(resourceId);
        const free = load
          ? freeUnits(load, snapshot.data.claim.startMinute, snapshot.data.claim.endMinute)
          : 0;
        if (free < units) {
          await retireHold(locked, ctx, hold, 'EXPIRED');
          return terminal('CAPACITY_LOST', currency, amounts);
        }
      }
    }
    const startsAt = new Date(hold.starts_at);
    const status: BookingStatus =
      flow === 'REQUEST' ? 'REQUESTED' : flow === 'PAYMENT' ? 'PENDING_PAYMENT' : 'CONFIRMED';
    const paymentExpiresAt =
      flow === 'PAYMENT'
        ? earlier(new Date(ctx.at.getTime() + checkout.data.paymentWindowMinutes * MS_PER_MINUTE), startsAt)
        : null;
    const requestExpiresAt =
      flow === 'REQUEST'
        ? earlier(new Date(ctx.at.getTime() + checkout.data.requestExpiryHours * MS_PER_HOUR), startsAt)
        : null;
    const customerId = await customerOfTenant(locked, ctx.organizationId, linkedCustomer(hold, ctx));
    const bookingId = await insertBooking(locked, ctx, {
      hold,
      service,
      snapshot: snapshot.data,
      delivery,
      amounts,
      status,
      customerId,
      body,
      checkout: checkout.data,
      paymentExpiresAt,
      requestExpiresAt,
    });
    await locked
      .updateTable('booking_holds')
      .set({ status: 'CONVERTED', updated_at: ctx.at })
      .where('organization_id', '=', ctx.organizationId)
      .where('id', '=', hold.id)
      .execute();
    if (flow !== 'REQUEST') {
      await insertClaims(
        locked,
        ctx,
        snapshot.data.allocations.map((allocation) => ({
          resourceId: allocation.resourceId,
          quantity: allocation.quantity,
          startsAt: claimStart,
          endsAt: claimEnd,
          expiresAt: paymentExpiresAt,
          owner: { kind: 'BOOKING' as const, id: bookingId },
        })),
      );
    }
    let checkoutToken: string | null = null;
    if (flow === 'REQUEST') {
      await notifyBookingCustomer(locked, ctx, bookingId, 'REQUEST_RECEIVED');
      await notifyBookingMerchant(locked, ctx, bookingId, 'NEW_REQUEST');
    } else if (flow === 'PAYMENT') {
      const payment = await openBookingPayment(locked, ctx, bookingId, {
        amountInCents: amounts.amountDueNowInCents,
        expiresAt: paymentExpiresAt,
      });
      checkoutToken = payment.checkoutToken;
      await notifyBookingCustomer(locked, ctx, bookingId, 'PAYMENT_REQUIRED', {
        paymentUrl: payment.paymentUrl,
      });
    } else {
      await recordConfirmedBookingSale(locked, ctx, bookingId);
      await notifyBookingCustomer(locked, ctx, bookingId, 'CONFIRMED');
      await notifyBookingMerchant(locked, ctx, bookingId, 'NEW_BOOKING');
    }
    return {
      flow,
      bookingId,
      bookingStatus: status,
      checkoutToken,
      paymentExpiresAt: paymentExpiresAt?.toISOString() ?? null,
      amountDueNowInCents: amounts.amountDueNowInCents,
      remainingBalanceInCents: amounts.totalInCents - amounts.amountDueNowInCents,
      totalInCents: amounts.totalInCents,
      currency: amounts.currency,
      terminalReason: null,
    };
  });
}

const TERMINAL_OF: Partial<Record<BookingStatus, TerminalReason>> = {
  DECLINED: 'BOOKING_DECLINED',
  CANCELLED: 'BOOKING_CANCELLED',
  EXPIRED: 'BOOKING_EXPIRED',
};

/**
 * A conversion's answer as the booking stands now (14.13: a replay reads the
 * present): PENDING_PAYMENT is PAYMENT with a new `c1_` for the same checkout
 * (never a second payment intent), CONFIRMED and REQUESTED their flows, and a
 * booking since declined, cancelled or expired TERMINAL with BOOKING_*.
 */
async function presentConversion(
  trx: Kysely<Database>,
  ctx: ConvertContext,
  bookingId: string,
  currency: string,
): Promise<ConversionRead> {
  const booking = await trx
    .selectFrom('bookings')
    .select(['id', 'status', 'currency', 'total_in_cents', 'amount_due_now_in_cents', 'payment_expires_at'])
    .where('organization_id', '=', ctx.organizationId)
    .where('id', '=', bookingId)
    .executeTakeFirst();
  if (!booking) return terminal('HOLD_EXPIRED', currency);
  const amounts = {
    amountDueNowInCents: booking.amount_due_now_in_cents,
    remainingBalanceInCents: booking.total_in_cents - booking.amount_due_now_in_cents,
    totalInCents: booking.total_in_cents,
    currency: booking.currency,
  };
  const reason = TERMINAL_OF[booking.status];
  if (reason) {
    return {
      ...amounts,
      flow: 'TERMINAL',
      bookingId: booking.id,
      bookingStatus: booking.status,
      checkoutToken: null,
      paymentExpiresAt: null,
      terminalReason: reason,
    };
  }
  if (booking.status === 'PENDING_PAYMENT') {
    const reissued = await reissueBookingCheckoutToken(trx, ctx, booking.id);
    return {
      ...amounts,
      flow: 'PAYMENT',
      bookingId: booking.id,
      bookingStatus: booking.status,
      checkoutToken: reissued?.checkoutToken ?? null,
      paymentExpiresAt: booking.payment_expires_at
        ? new Date(booking.payment_expires_at).toISOString()
        : null,
      terminalReason: null,
    };
  }
  return {
    ...amounts,
    flow: booking.status === 'REQUESTED' ? 'REQUEST' : 'CONFIRMED',
    bookingId: booking.id,
    bookingStatus: booking.status,
    checkoutToken: null,
    paymentExpiresAt: null,
    terminalReason: null,
  };
}

/**
 * `POST /public/booking-holds/:id/checkout` (14.13). The hold's own
 * idempotency key proves possession (another key, an unknown or another
 * tenant's hold: the neutral 404) and makes the conversion happen once: the
 * key is recorded in the conversion's transaction, a concurrent duplicate
 * waits and then replays it. Checked in order, with the hold row locked: the
 * email (400), the terminal conditions (hold not ACTIVE or expired, service
 * not ACTIVE), the agreement (409 AGREEMENT_REQUIRED), the delivery snapshot
 * (409 STALE_STATE), then under the capacity lock the hold's claim (lost to
 * expiry: TERMINAL CAPACITY_LOST); then the flow: REQUEST (claim released),
 * PAYMENT (claim kept until `paymentExpiresAt`, a checkout bound to the due
 * amount) or CONFIRMED (claim kept). A replay reads the booking's present.
 */
export async function convertHold(
  db: Kysely<Database>,
  ctx: ConvertContext,
  holdId: string,
  body: ConvertHoldInput,
  options: { currency: string; idempotencyKey: string; tax?: BookingTax },
): Promise<{ conversion: ConversionRead; replayed: boolean }> {
  const found = await findHold(db, ctx.organizationId, holdId);
  assertPossession(found, options.idempotencyKey);
  // A provider call is a read without effect, before the transaction where the key is claimed.
  const tax =
    found.status === 'ACTIVE'
      ? await quoteConversionTax(db, ctx, found, options.currency, options.tax)
      : null;
  const outcome = await retryOnAbort(() =>
    withIdempotency<ConversionRead>(
      db,
      {
        organizationId: ctx.organizationId,
        operation: HOLD_CONVERT_OPERATION,
        key: options.idempotencyKey,
        intent: { params: { id: holdId }, body },
        retention: 'standard',
        now: ctx.at,
      },
      async (trx) => {
        const hold = await findHold(trx, ctx.organizationId, holdId, { forUpdate: true });
        assertPossession(hold, options.idempotencyKey);
        return { status: 200, body: await convert(trx, ctx, hold, body, options.currency, tax) };
      },
      {
        // A raw credential is never stored: a replay issues a new one for the same checkout.
        toRecord: (conversion) => ({ ...conversion, checkoutToken: null }),
        fromRecord: async (trx, recorded) => {
          const conversion = recorded.body as ConversionRead;
          if (conversion.bookingId === null) return conversion;
          return presentConversion(trx, ctx, conversion.bookingId, conversion.currency);
        },
      },
    ),
  );
  return { conversion: outcome.body, replayed: outcome.replayed };
}
