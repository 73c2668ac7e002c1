import type { TaxProvider, TaxQuoteInput } from './tax-provider.ts';

/**
 * The sandbox's destination rates in basis points: standard VAT/GST rates of
 * a few countries, and one flat rate standing in for US sales tax. Other
 * countries are untaxed. Illustrative, not advice.
 */
export const SANDBOX_TAX_RATES: Readonly<Record<string, number>> = {
  AU: 1000,
  CA: 500,
  CH: 810,
  DE: 1900,
  ES: 2100,
  FR: 2000,
  GB: 2000,
  IE: 2300,
  IT: 2200,
  NL: 2100,
  NZ: 1500,
  SE: 2500,
  US: 725,
};

/**
 * Tax on goods and shipping together, rounded half up to the cent. When the
 * prices include tax, the tax they hold: amount × rate / (1 + rate), so
 * 12.00 at 20 % holds 2.00.
 */
export function sandboxTaxOf(
  input: Pick<TaxQuoteInput, 'country' | 'subtotalInCents' | 'shippingInCents' | 'pricesIncludeTax'>,
): {
  taxInCents: number;
  rateBasisPoints: number;
} {
  const rateBasisPoints = input.country ? (SANDBOX_TAX_RATES[input.country] ?? 0) : 0;
  const taxable = input.subtotalInCents + input.shippingInCents;
  if (input.pricesIncludeTax) {
    const divisor = 10_000 + rateBasisPoints;
    return {
      taxInCents: Math.floor((2 * taxable * rateBasisPoints + divisor) / (2 * divisor)),
      rateBasisPoints,
    };
  }
  return { taxInCents: Math.floor((taxable * rateBasisPoints + 5000) / 10_000), rateBasisPoints };
}

export const sandboxTaxProvider: TaxProvider = {
  kind: 'sandbox',
  quote: async (input) => sandboxTaxOf(input),
};
