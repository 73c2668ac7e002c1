/**
 * The payment processor behind checkout, an interface like every outside
 * provider's: the sandbox by default, Stripe with PAYMENT_PROVIDER=stripe. Checkout asks it
 * for one payment intent per bound session; the durable outcome arrives by
 * the signed webhook, never from the browser.
 */
export interface PaymentProvider {
  /** `sandbox` or `stripe`, for logs and stored attempts. */
  readonly kind: 'sandbox' | 'stripe';
  /**
   * Creates a payment intent for `amountInCents` of `currency`, or returns the
   * one created before for the same `idempotencyKey` (a retry after a timeout
   * must never create a second payment). Throws AppError PROVIDER_ERROR (502)
   * when the processor refuses and PROVIDER_UNAVAILABLE (503) when it cannot
   * be reached.
   */
  createPaymentIntent(input: CreatePaymentIntentInput): Promise<PaymentIntentHandoff>;
  /**
   * Throws AppError PROVIDER_ERROR (502) when the processor cannot charge
   * exactly `amountInCents` (ISO 4217 minor units) of `currency`, without
   * calling it: checkout asks before it places an order, so an amount the
   * processor would refuse never holds stock for a payment window.
   */
  assertChargeable(amountInCents: number, currency: string): void;
  /**
   * Cancels an intent nobody will pay any more (a checkout whose payment
   * window passed), so a late confirmation cannot charge the shopper. An
   * intent canceled before answers `canceled` again. One that succeeded, or is
   * processing, cannot be canceled: `not_cancelable`, and its outcome arrives
   * by webhook. Errors as createPaymentIntent's: PROVIDER_ERROR (502) for a
   * refusal (an unknown intent among them), PROVIDER_UNAVAILABLE (503) when
   * the processor cannot be reached.
   */
  cancelPaymentIntent(
    intentId: string,
    options: CancelPaymentIntentOptions,
  ): Promise<CancelPaymentIntentResult>;
  /**
   * Refunds a succeeded intent in full: a payment that arrived for an order
   * cancelled meanwhile. One refund per
   * `idempotencyKey`, so a retry never refunds twice; an intent already
   * refunded in full answers `already_refunded`. Errors as
   * createPaymentIntent's: PROVIDER_ERROR (502) for a refusal,
   * PROVIDER_UNAVAILABLE (503) when the processor cannot be reached.
   */
  refundPayment(intentId: string, options: RefundPaymentOptions): Promise<RefundPaymentResult>;
  /**
   * Verifies a webhook's raw body against its `Stripe-Signature` header
   * (`t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">`
   * keyed by PAYMENT_WEBHOOK_SECRET, 5-minute tolerance) and returns the
   * event, or throws WebhookSignatureError. A correctly signed body that is
   * not an event throws WebhookPayloadError.
   */
  verifyWebhook(rawBody: string, signatureHeader: string | undefined, now: Date): PaymentWebhookEvent;
}

export interface CreatePaymentIntentInput {
  amountInCents: number;
  /** ISO 4217, upper-case. */
  currency: string;
  /**
   * Stable per bound checkout session, so every retry reaches the same intent.
   * The processor scopes keys by account, not by tenant: derive it from ids
   * that are unique across tenants (e.g. `checkout:<organizationId>:<sessionId>:<attempt>`),
   * never from a client's raw header alone. At most 255 characters.
   */
  idempotencyKey: string;
  /** Non-secret references (organization, checkout session, order ids): no customer data. */
  metadata: Record<string, string>;
}

export interface CancelPaymentIntentOptions {
  /**
   * Sent as the processor's idempotency key, so the SDK's own retries reach
   * one cancellation. Derive it from ids unique across tenants. At most 255 characters.
   */
  idempotencyKey: string;
}

export type CancelPaymentIntentResult =
  /** Canceled now, or before: no payment can be made on it any more. */
  | { outcome: 'canceled' }
  /** It succeeded or is processing (Stripe's `payment_intent_unexpected_state`): the webhook settles it. */
  | { outcome: 'not_cancelable'; intentStatus: string | null };

export interface RefundPaymentOptions {
  /** Sent as the processor's idempotency key; derive it from ids unique across tenants. At most 255 characters. */
  idempotencyKey: string;
  /** Non-secret references (organization, order, attempt ids): no customer data. */
  metadata: Record<string, string>;
}

export type RefundPaymentResult =
  /** Refunded now (or by an earlier call with the same key): the processor's refund id. */
  | { outcome: 'refunded'; refundId: string }
  /** The processor says the whole amount was refunded before, under another key. */
  | { outcome: 'already_refunded' };

/** What the storefront needs to render the processor's payment form (docs/checkout.md "Payments"). */
export interface PaymentIntentHandoff {
  intentId: string;
  /** `<intentId>_secret_<random>`. */
  clientSecret: string;
  publishableKey: string;
  accountId?: string;
}

export type PaymentWebhookEventType = 'payment_intent.succeeded' | 'payment_intent.payment_failed';

/** The event types the service acts on; every other type is acknowledged and ignored. */
export const HANDLED_PAYMENT_EVENT_TYPES: readonly PaymentWebhookEventType[] = [
  'payment_intent.succeeded',
  'payment_intent.payment_failed',
];

export function isHandledPaymentEvent(
  event: PaymentWebhookEvent,
): event is PaymentWebhookEvent & { type: PaymentWebhookEventType; intentId: string } {
  return (HANDLED_PAYMENT_EVENT_TYPES as readonly string[]).includes(event.type) && event.intentId !== null;
}

export interface PaymentWebhookEvent {
  /** The processor's event id: a replay of the same id is a no-op. */
  id: string;
  /** Other event types are acknowledged and ignored. */
  type: PaymentWebhookEventType | (string & {});
  /** `data.object.id`: the payment intent (null when the object is not one). */
  intentId: string | null;
  /** `data.object.amount` of a payment intent, in ISO 4217 minor units of `currency` (null when absent or not a whole number of them). */
  amountInCents: number | null;
  /** `data.object.currency`, upper-cased. */
  currency: string | null;
  /** `data.object.metadata`: the references given at creation (organization, session ids). */
  metadata: Record<string, string>;
  /** When the processor created the event. */
  createdAt: Date;
}

/**
 * Applies one verified, first-seen payment event inside the transaction that
 * records its id, so a failure records nothing and the processor's retry runs
 * it again. `Db` is the transaction handle (`Kysely<Database>`); this package
 * does not depend on the database package. It may return a follow-up that the
 * caller runs after the commit: a processor call the event made owed (a
 * refund), never made inside the transaction.
 */
export type PaymentEventHandler<Db> = (
  trx: Db,
  event: PaymentWebhookEvent,
) => Promise<PaymentEventFollowUp | undefined>;

/** Runs after the event's transaction commits; what it fails to do stays owed and is retried by the worker. */
export type PaymentEventFollowUp = () => Promise<void>;

export class WebhookSignatureError extends Error {
  constructor(message = 'The webhook signature is invalid') {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** A correctly signed body that is not a processor event (not JSON, or without an id or type). */
export class WebhookPayloadError extends Error {
  constructor(message = 'The webhook body is not a payment event') {
    super(message);
    this.name = 'WebhookPayloadError';
  }
}
