import type { Pricing } from '../availability/schemas.ts';
import { durationBetween, startedLocalPeriods } from '../time/zone.ts';

/**
 * The one price function before conversion: service reads, search
 * slots, holds and group previews all call it, so their previews agree.
 * Conversion freezes its own amounts later; these are `authoritative: false`.
 */

export type PaymentMode = 'PAY_NOW' | 'DEPOSIT' | 'PAY_LATER';
export type DepositTerms = { percent: number } | { amountInCents: number };

export interface CheckoutTerms {
  paymentMode: PaymentMode;
  /** `DEPOSIT` only. */
  deposit?: DepositTerms | null | undefined;
}

export interface PriceInput {
  pricing: Pricing;
  checkout: CheckoutTerms;
  currency: string;
  /** The service zone: `DAY` and `WEEK` periods and whole-day durations count its local days. */
  timeZone: string;
  /** Epoch minutes, the booked interval without buffers. */
  startsAt: number;
  endsAt: number;
  quantity: number;
  /**
   * A hold's frozen delivery fee: added to the subtotal for the total
   * the deposit is taken from, as conversion will. Omitted by service
   * reads and search slots, which know no destination.
   */
  deliveryFeeInCents?: number;
}

export interface PricePreview {
  authoritative: false;
  currency: string;
  subtotalInCents: number;
  /** The deposit due at checkout for `DEPOSIT` services; null for the other payment modes. */
  depositInCents: number | null;
  /** With a delivery fee only: the fee, and the subtotal plus the fee (tax comes at conversion). */
  deliveryFeeInCents?: number;
  totalInCents?: number;
}

const MINUTES_PER_HOUR = 60;

/** Base price of one booking (or one participant) before the floor, or null when the table has no price. */
function basePrice(input: PriceInput): number | null {
  const { pricing } = input;
  switch (pricing.basis) {
    case 'FLAT':
      return pricing.amountInCents;
    case 'PER_PERIOD': {
      const periods =
        pricing.period === 'HOUR'
          ? Math.ceil((input.endsAt - input.startsAt) / MINUTES_PER_HOUR)
          : startedLocalPeriods(
              input.timeZone,
              input.startsAt,
              input.endsAt,
              pricing.period === 'DAY' ? 1 : 7,
            );
      return periods * pricing.amountInCents;
    }
    case 'DURATION_TABLE': {
      const duration = durationBetween(input.timeZone, input.startsAt, input.endsAt);
      const row = pricing.durationPrices.find((price) => price.durationMinutes === duration);
      return row ? row.amountInCents : null;
    }
  }
}

/** Percent of the total rounded half up, or the fixed amount capped at the total. */
export function depositFor(totalInCents: number, deposit: DepositTerms): number {
  if ('percent' in deposit) return Math.floor((totalInCents * deposit.percent + 50) / 100);
  return Math.min(deposit.amountInCents, totalInCents);
}

/**
 * The preview of one booking, or null when the pricing does not price this
 * interval (a duration missing from a table): such an interval is not offered.
 */
export function priceBooking(input: PriceInput): PricePreview | null {
  const base = basePrice(input);
  if (base === null) return null;
  const { pricing, checkout } = input;
  const raw = pricing.perParticipant ? base * input.quantity : base;
  const subtotalInCents = Math.max(raw, pricing.minimumInCents ?? 0);
  const totalInCents = subtotalInCents + (input.deliveryFeeInCents ?? 0);
  const depositInCents =
    checkout.paymentMode === 'DEPOSIT' && checkout.deposit
      ? depositFor(totalInCents, checkout.deposit)
      : null;
  const preview: PricePreview = {
    authoritative: false,
    currency: input.currency,
    subtotalInCents,
    depositInCents,
  };
  if (input.deliveryFeeInCents === undefined) return preview;
  return { ...preview, deliveryFeeInCents: input.deliveryFeeInCents, totalInCents };
}
