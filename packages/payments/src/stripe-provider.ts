import { AppError } from '@commerce/core';
import Stripe from 'stripe';
import type {
  CancelPaymentIntentResult,
  CreatePaymentIntentInput,
  PaymentIntentHandoff,
  PaymentProvider,
  RefundPaymentResult,
} from './provider.ts';
import { fromStripeAmount, toStripeAmount } from './stripe-amounts.ts';
import { validateIntentActionInput, validateIntentInput } from './validate-input.ts';
import { verifySignedWebhook } from './webhooks.ts';

export interface StripeProviderOptions {
  secretKey: string;
  publishableKey: string;
  /** A connected account: intents are created on it (direct charges) and the storefront is told its id. */
  accountId?: string | undefined;
  webhookSecret: string;
  /** Where the API lives; tests point it at a local fake. Stripe's own by default. */
  api?: { host: string; port: number; protocol: 'http' | 'https' };
  /** Per attempt; checkout waits for the answer outside its transaction. */
  timeoutMs?: number;
  /** Retries of connection failures, 409s and 5xx, each with the same Idempotency-Key. */
  maxNetworkRetries?: number;
}

/**
 * Stripe through its official SDK. Every create carries the caller's key as
 * Stripe's `Idempotency-Key`, so a retry (the SDK's own, or the client's after
 * a 503) returns the intent already created instead of a second one.
 * Cancellations carry the caller's key the same way, with the reason
 * `abandoned`, and so do refunds (of the whole intent). Amounts cross in
 * Stripe's decimals for the currency (`toStripeAmount`), and a webhook's
 * amount comes back in ISO 4217 minor units.
 */
export function createStripePaymentProvider(options: StripeProviderOptions): PaymentProvider {
  const stripe = new Stripe(options.secretKey, {
    timeout: options.timeoutMs ?? 10_000,
    maxNetworkRetries: options.maxNetworkRetries ?? 2,
    telemetry: false,
    ...(options.api ?? {}),
  });
  const { accountId, publishableKey, webhookSecret } = options;

  return {
    kind: 'stripe',
    assertChargeable(amountInCents, currency) {
      toStripeAmount(amountInCents, currency);
    },
    async createPaymentIntent(input: CreatePaymentIntentInput): Promise<PaymentIntentHandoff> {
      validateIntentInput(input);
      let intent: Stripe.PaymentIntent;
      try {
        intent = await stripe.paymentIntents.create(
          {
            amount: toStripeAmount(input.amountInCents, input.currency),
            currency: input.currency.toLowerCase(),
            automatic_payment_methods: { enabled: true },
            metadata: input.metadata,
          },
          { idempotencyKey: input.idempotencyKey, ...(accountId ? { stripeAccount: accountId } : {}) },
        );
      } catch (error) {
        throw toProviderError(error);
      }
      if (!intent.client_secret) {
        throw new AppError(
          'PROVIDER_ERROR',
          'The payment provider returned an intent without a client secret',
        );
      }
      return {
        intentId: intent.id,
        clientSecret: intent.client_secret,
        publishableKey,
        ...(accountId ? { accountId } : {}),
      };
    },
    async cancelPaymentIntent(intentId, options): Promise<CancelPaymentIntentResult> {
      validateIntentActionInput(intentId, options);
      try {
        const intent = await stripe.paymentIntents.cancel(
          intentId,
          { cancellation_reason: 'abandoned' },
          { idempotencyKey: options.idempotencyKey, ...(accountId ? { stripeAccount: accountId } : {}) },
        );
        return cancelResultOf(intent.status);
      } catch (error) {
        // Stripe refuses to cancel an intent that is canceled, succeeded or processing; the intent it
        // attaches to the error says which. Canceled before is what was asked; the others are the webhook's.
        if (
          error instanceof Stripe.errors.StripeInvalidRequestError &&
          error.code === 'payment_intent_unexpected_state'
        ) {
          return cancelResultOf(error.payment_intent?.status ?? null);
        }
        throw toProviderError(error);
      }
    },
    async refundPayment(intentId, options): Promise<RefundPaymentResult> {
      validateIntentActionInput(intentId, options);
      try {
        const refund = await stripe.refunds.create(
          { payment_intent: intentId, metadata: options.metadata },
          { idempotencyKey: options.idempotencyKey, ...(accountId ? { stripeAccount: accountId } : {}) },
        );
        return { outcome: 'refunded', refundId: refund.id };
      } catch (error) {
        // Refunded in full before (another key, or a person in the Dashboard): what was asked is done.
        if (
          error instanceof Stripe.errors.StripeInvalidRequestError &&
          error.code === 'charge_already_refunded'
        ) {
          return { outcome: 'already_refunded' };
        }
        throw toProviderError(error);
      }
    },
    verifyWebhook(rawBody, signatureHeader, now) {
      const event = verifySignedWebhook(webhookSecret, rawBody, signatureHeader, now);
      // Another currency than an ISO code fails the attempt's currency check on its own.
      if (event.amountInCents === null || event.currency === null || !/^[A-Z]{3}$/.test(event.currency))
        return event;
      return { ...event, amountInCents: fromStripeAmount(event.amountInCents, event.currency) };
    },
  };
}

function cancelResultOf(intentStatus: string | null): CancelPaymentIntentResult {
  return intentStatus === 'canceled' ? { outcome: 'canceled' } : { outcome: 'not_cancelable', intentStatus };
}

/**
 * Sorts an SDK failure by what a client can do about it (SPEC "Errors" retry
 * posture: on 502 or 503 keep the intent and retry the same route). Stripe
 * could not be reached, timed out or asked us to slow down: 503
 * PROVIDER_UNAVAILABLE. Stripe answered with a refusal (card, invalid request,
 * authentication, permission, idempotency, API error): 502 PROVIDER_ERROR.
 * The message never quotes Stripe's, which can echo request parameters; the
 * SDK error stays attached as the cause for the log. Anything that is not an
 * SDK error is a bug here and is rethrown as it is.
 */
export function toProviderError(error: unknown): unknown {
  if (error instanceof Stripe.errors.StripeConnectionError) {
    return new AppError('PROVIDER_UNAVAILABLE', 'The payment provider could not be reached', undefined, {
      cause: error,
    });
  }
  if (error instanceof Stripe.errors.StripeRateLimitError) {
    return new AppError('PROVIDER_UNAVAILABLE', 'The payment provider is busy; retry later', undefined, {
      cause: error,
    });
  }
  if (error instanceof Stripe.errors.StripeError) {
    return new AppError('PROVIDER_ERROR', 'The payment provider refused the request', undefined, {
      cause: error,
    });
  }
  return error;
}
