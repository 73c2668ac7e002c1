import type { Config } from '@commerce/core';
import type { PaymentProvider } from './provider.ts';
import { createSandboxPaymentProvider } from './sandbox-provider.ts';
import { createStripePaymentProvider, type StripeProviderOptions } from './stripe-provider.ts';

/** The provider PAYMENT_PROVIDER names, built once at start. */
export function createPaymentProvider(
  config: Pick<Config, 'payments'>,
  options: Pick<StripeProviderOptions, 'api' | 'timeoutMs' | 'maxNetworkRetries'> = {},
): PaymentProvider {
  const { payments } = config;
  if (payments.provider === 'sandbox') {
    return createSandboxPaymentProvider({ webhookSecret: payments.webhookSecret });
  }
  if (!payments.stripe) {
    // loadConfig refuses this; a hand-built Config could still carry it.
    throw new Error('PAYMENT_PROVIDER=stripe needs STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY');
  }
  return createStripePaymentProvider({
    ...payments.stripe,
    webhookSecret: payments.webhookSecret,
    ...options,
  });
}
