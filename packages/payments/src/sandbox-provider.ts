import { createHmac } from 'node:crypto';
import { AppError } from '@commerce/core';
import type {
  CancelPaymentIntentResult,
  CreatePaymentIntentInput,
  PaymentIntentHandoff,
  PaymentProvider,
  RefundPaymentResult,
} from './provider.ts';
import { validateIntentActionInput, validateIntentInput } from './validate-input.ts';
import { verifySignedWebhook } from './webhooks.ts';

export const SANDBOX_PUBLISHABLE_KEY = 'pk_test_sandbox';
export const SANDBOX_INTENT_PREFIX = 'pi_sandbox_';
export const SANDBOX_REFUND_PREFIX = 're_sandbox_';
const SANDBOX_INTENT_ID = new RegExp(`^${SANDBOX_INTENT_PREFIX}[0-9a-f]{24}$`);

export interface SandboxProviderOptions {
  /** PAYMENT_WEBHOOK_SECRET: verifies webhooks and keys the derivation of intent ids. */
  webhookSecret: string;
  /** How many idempotency keys a process remembers to detect a key reused with other parameters. */
  rememberedKeys?: number;
}

/**
 * A payment processor that never leaves the process (the default provider).
 * Intent ids and client secrets are derived from the idempotency key with an
 * HMAC keyed by the webhook secret, so the same key reaches the same intent
 * in every gateway process and after a restart, as Stripe's would; nothing is
 * stored. Like Stripe, a key reused with another amount, currency or metadata
 * is refused (PROVIDER_ERROR), though only within the process that saw it first.
 * Outcomes arrive as signed webhooks (`createPaymentEventBody` + `signWebhookPayload`).
 *
 * Cancelling is stateless too: the sandbox cannot tell whether an intent of
 * its shape was ever paid, so every well-formed `pi_sandbox_` id answers
 * `canceled` (a success sent afterwards is a late webhook, which checkout
 * settles); an id of another shape is refused as Stripe refuses an unknown
 * intent (PROVIDER_ERROR). Refunds likewise: a well-formed id is refunded,
 * the refund id (`re_sandbox_` + 24 hex) derived from the idempotency key,
 * so a retry answers the same refund.
 */
export function createSandboxPaymentProvider(options: SandboxProviderOptions): PaymentProvider {
  const { webhookSecret } = options;
  const capacity = options.rememberedKeys ?? 10_000;
  // Insertion-ordered: the oldest key is forgotten first.
  const parametersByKey = new Map<string, string>();
  const derive = (purpose: string, key: string) =>
    createHmac('sha256', webhookSecret).update(`${purpose}\u0000${key}`, 'utf8').digest('hex');

  return {
    kind: 'sandbox',
    // The sandbox takes any whole amount of any currency.
    assertChargeable() {},
    async createPaymentIntent(input: CreatePaymentIntentInput): Promise<PaymentIntentHandoff> {
      validateIntentInput(input);
      const parameters = JSON.stringify([
        input.amountInCents,
        input.currency,
        Object.entries(input.metadata).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
      ]);
      const earlier = parametersByKey.get(input.idempotencyKey);
      if (earlier !== undefined && earlier !== parameters) {
        throw new AppError(
          'PROVIDER_ERROR',
          'The payment provider refused the request: the idempotency key was used with other parameters',
        );
      }
      if (earlier === undefined) {
        parametersByKey.set(input.idempotencyKey, parameters);
        if (parametersByKey.size > capacity) {
          parametersByKey.delete(parametersByKey.keys().next().value as string);
        }
      }
      const intentId = `${SANDBOX_INTENT_PREFIX}${derive('intent', input.idempotencyKey).slice(0, 24)}`;
      return {
        intentId,
        clientSecret: `${intentId}_secret_${derive('client-secret', input.idempotencyKey).slice(0, 32)}`,
        publishableKey: SANDBOX_PUBLISHABLE_KEY,
      };
    },
    async cancelPaymentIntent(intentId, cancelOptions): Promise<CancelPaymentIntentResult> {
      validateIntentActionInput(intentId, cancelOptions);
      if (!SANDBOX_INTENT_ID.test(intentId)) {
        throw new AppError(
          'PROVIDER_ERROR',
          'The payment provider refused the request: no such payment intent',
        );
      }
      return { outcome: 'canceled' };
    },
    async refundPayment(intentId, refundOptions): Promise<RefundPaymentResult> {
      validateIntentActionInput(intentId, refundOptions);
      if (!SANDBOX_INTENT_ID.test(intentId)) {
        throw new AppError(
          'PROVIDER_ERROR',
          'The payment provider refused the request: no such payment intent',
        );
      }
      return {
        outcome: 'refunded',
        refundId: `${SANDBOX_REFUND_PREFIX}${derive('refund', refundOptions.idempotencyKey).slice(0, 24)}`,
      };
    },
    verifyWebhook(rawBody, signatureHeader, now) {
      return verifySignedWebhook(webhookSecret, rawBody, signatureHeader, now);
    },
  };
}
