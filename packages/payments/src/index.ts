export { createPaymentProvider } from './create-payment-provider.ts';
export {
  type CancelPaymentIntentOptions,
  type CancelPaymentIntentResult,
  type CreatePaymentIntentInput,
  isHandledPaymentEvent,
  type PaymentEventHandler,
  type PaymentIntentHandoff,
  type PaymentProvider,
  type PaymentWebhookEvent,
  type RefundPaymentOptions,
  WebhookPayloadError,
  WebhookSignatureError,
} from './provider.ts';
export { createSandboxPaymentProvider, SANDBOX_PUBLISHABLE_KEY } from './sandbox-provider.ts';
export { createStripePaymentProvider } from './stripe-provider.ts';
export { createPaymentEventBody, signWebhookPayload, WEBHOOK_TOLERANCE_SECONDS } from './webhooks.ts';
