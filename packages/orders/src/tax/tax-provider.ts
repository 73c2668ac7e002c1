/**
 * Tax at bind (docs/checkout.md "Tax"): a provider behind an interface,
 * chosen by TAX_PROVIDER. `none` (the
 * default) adds no tax; `sandbox` applies a per-country rate table. A real
 * provider (Stripe Tax, TaxJar …) implements the same interface; it is called
 * before the binding transaction, never inside it.
 */
export interface TaxProvider {
  readonly kind: 'none' | 'sandbox';
  quote(input: TaxQuoteInput): Promise<TaxQuote>;
}

export interface TaxQuoteInput {
  organizationId: string;
  currency: string;
  /** ISO 3166-1 alpha-2 destination; null when nothing ships. */
  country: string | null;
  subtotalInCents: number;
  shippingInCents: number;
  /**
   * The amounts already hold the tax (settings `checkoutSettings.taxIncludedInPrices`): the
   * quote is the part of them that is tax, to record, not to add.
   */
  pricesIncludeTax: boolean;
}

export interface TaxQuote {
  taxInCents: number;
  /** Basis points applied (1 bp = 0.01 %), for display; 0 without tax. */
  rateBasisPoints: number;
}

export const noTaxProvider: TaxProvider = {
  kind: 'none',
  quote: async () => ({ taxInCents: 0, rateBasisPoints: 0 }),
};
