import { sandboxTaxProvider } from './sandbox-tax.ts';
import { noTaxProvider, type TaxProvider } from './tax-provider.ts';

/** The provider TAX_PROVIDER names. */
export function taxProviderFor(kind: 'none' | 'sandbox'): TaxProvider {
  return kind === 'sandbox' ? sandboxTaxProvider : noTaxProvider;
}
