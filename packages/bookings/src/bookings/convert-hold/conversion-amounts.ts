import type { BookingStatus } from '@commerce/db';
import { pricingSchema } from '../../availability/schemas.ts';
import { depositFor, priceBooking } from '../../pricing/price.ts';
import { toEpochMinutes } from '../../time/zone.ts';
import { type QuotedTax, totalWithTax } from '../booking-tax.ts';
import type { ConversionFlow } from '../convert-schemas.ts';
import type {
  ConversionDeliverySnapshot,
  HoldRow,
  HoldSnapshot,
  ServiceRow,
  StoredCheckout,
} from './hold-terms.ts';

const MS_PER_MINUTE = 60_000;
const MS_PER_HOUR = 3_600_000;

/** The frozen amounts of a conversion. */
export interface Amounts {
  currency: string;
  subtotalInCents: number;
  deliveryFeeInCents: number;
  taxInCents: number;
  totalInCents: number;
  amountDueNowInCents: number;
}

/**
 * The frozen price: the pricing then in force, the hold's delivery fee, the
 * tax quoted (`totalWithTax`); what is due now follows the payment mode. Null
 * when the service's pricing no longer parses or prices the hold.
 */
export function freezeAmounts(
  service: Pick<ServiceRow, 'pricing'>,
  hold: Pick<HoldRow, 'starts_at' | 'ends_at' | 'quantity'>,
  snapshot: Pick<HoldSnapshot, 'timezone'>,
  delivery: ConversionDeliverySnapshot | null,
  checkout: StoredCheckout,
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

export type LiveFlow = Exclude<ConversionFlow, 'TERMINAL'>;

/**
 * The conversion's flow once no terminal condition holds: a manual approval,
 * or a pay-later booking with something to pay, is a `REQUEST`; something due
 * now is a `PAYMENT`; else `CONFIRMED`.
 */
export function flowOf(
  checkout: StoredCheckout,
  amounts: Pick<Amounts, 'totalInCents' | 'amountDueNowInCents'>,
): LiveFlow {
  if (
    checkout.approvalMode === 'MANUAL' ||
    (checkout.paymentMode === 'PAY_LATER' && amounts.totalInCents > 0)
  )
    return 'REQUEST';
  if (amounts.amountDueNowInCents > 0) return 'PAYMENT';
  return 'CONFIRMED';
}

/** The earlier of two instants. */
const earlier = (a: Date, b: Date) => (a.getTime() <= b.getTime() ? a : b);

/**
 * The booking a flow makes: its status, and its deadline, never after the
 * booking starts: a `PAYMENT` must be paid within the service's payment window,
 * a `REQUEST` answered within its request expiry.
 */
export function bookingOfFlow(
  flow: LiveFlow,
  checkout: Pick<StoredCheckout, 'paymentWindowMinutes' | 'requestExpiryHours'>,
  at: Date,
  startsAt: Date,
): { status: BookingStatus; paymentExpiresAt: Date | null; requestExpiresAt: Date | null } {
  const status: BookingStatus =
    flow === 'REQUEST' ? 'REQUESTED' : flow === 'PAYMENT' ? 'PENDING_PAYMENT' : 'CONFIRMED';
  const paymentExpiresAt =
    flow === 'PAYMENT'
      ? earlier(new Date(at.getTime() + checkout.paymentWindowMinutes * MS_PER_MINUTE), startsAt)
      : null;
  const requestExpiresAt =
    flow === 'REQUEST'
      ? earlier(new Date(at.getTime() + checkout.requestExpiryHours * MS_PER_HOUR), startsAt)
      : null;
  return { status, paymentExpiresAt, requestExpiresAt };
}
