import { AppError, currencyExponent } from '@commerce/core';

/**
 * Stripe's own decimals per currency (its "Supported currencies" page): the
 * zero-decimal list, the three-decimal list, and two for every other
 * currency. They differ from ISO 4217 for ISK (ISO 0, Stripe 2: whole krónur
 * only, so a multiple of 100) and MGA (ISO 2, Stripe 0).
 */
const STRIPE_ZERO_DECIMAL = new Set([
  'BIF',
  'CLP',
  'DJF',
  'GNF',
  'JPY',
  'KMF',
  'KRW',
  'MGA',
  'PYG',
  'RWF',
  'UGX',
  'VND',
  'VUV',
  'XAF',
  'XOF',
  'XPF',
]);
const STRIPE_THREE_DECIMAL = new Set(['BHD', 'JOD', 'KWD', 'OMR', 'TND']);

function stripeExponent(currency: string): number {
  if (STRIPE_ZERO_DECIMAL.has(currency)) return 0;
  return STRIPE_THREE_DECIMAL.has(currency) ? 3 : 2;
}

/**
 * An amount in ISO 4217 minor units (`*InCents`) as Stripe's `amount`: ISK
 * gains two zeros, MGA loses two. Stripe takes a three-decimal amount only
 * with its last digit 0 (KWD 5.120, not 5.124). An amount Stripe cannot take
 * exactly is refused before the call (PROVIDER_ERROR, as Stripe would refuse
 * it): the service never charges another amount than the order's total.
 */
export function toStripeAmount(amountInMinorUnits: number, currency: string): number {
  const shift = stripeExponent(currency) - currencyExponent(currency);
  const divisor = 10 ** Math.max(0, -shift);
  if (amountInMinorUnits % divisor !== 0) {
    throw new AppError(
      'PROVIDER_ERROR',
      `The payment provider cannot charge this total: Stripe takes ${currency} in whole units only`,
    );
  }
  const amount = (amountInMinorUnits / divisor) * 10 ** Math.max(0, shift);
  if (STRIPE_THREE_DECIMAL.has(currency) && amount % 10 !== 0) {
    throw new AppError(
      'PROVIDER_ERROR',
      `The payment provider cannot charge this total: Stripe takes ${currency} amounts in multiples of 0.010 only`,
    );
  }
  return amount;
}

/** Stripe's `amount` back in ISO 4217 minor units; null when it is not a whole number of them. */
export function fromStripeAmount(stripeAmount: number, currency: string): number | null {
  const shift = stripeExponent(currency) - currencyExponent(currency);
  if (shift >= 0) {
    const divisor = 10 ** shift;
    return stripeAmount % divisor === 0 ? stripeAmount / divisor : null;
  }
  return stripeAmount * 10 ** -shift;
}
