/**
 * Which payment form a payment session asks for. The sandbox processor answers its own publishable
 * key (`pk_test_sandbox`, packages/payments): the page shows its test-card form, which posts to
 * `public.sandboxPayments.confirm`. Any other key is Stripe's: the page loads Stripe.js with it and
 * mounts the Payment Element on the session's `clientSecret` (the page never creates an intent).
 */
export const SANDBOX_PUBLISHABLE_KEY = 'pk_test_sandbox';

export type PaymentFormKind = 'SANDBOX' | 'STRIPE';

export function paymentFormFor(publishableKey: string): PaymentFormKind {
  return publishableKey === SANDBOX_PUBLISHABLE_KEY ? 'SANDBOX' : 'STRIPE';
}
