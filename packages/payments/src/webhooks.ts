import { randomBytes } from 'node:crypto';
import Stripe from 'stripe';
import {
  type PaymentWebhookEvent,
  type PaymentWebhookEventType,
  WebhookPayloadError,
  WebhookSignatureError,
} from './provider.ts';

/** A webhook signature older or newer than this is refused. */
export const WEBHOOK_TOLERANCE_SECONDS = 300;

/**
 * Verifies a `Stripe-Signature` header with the official SDK (the same scheme
 * for both providers) at the injected time `now`, and reads the event out of
 * the raw body. The SDK refuses signatures older than the tolerance; one
 * dated further ahead than the tolerance is refused here too, so a signature
 * made on a clock that runs ahead cannot outlive its five minutes.
 */
export function verifySignedWebhook(
  secret: string,
  rawBody: string,
  signatureHeader: string | undefined,
  now: Date,
): PaymentWebhookEvent {
  if (signatureHeader === undefined || signatureHeader.trim() === '') {
    throw new WebhookSignatureError('The Stripe-Signature header is missing');
  }
  if (rawBody === '') throw new WebhookSignatureError('The webhook body is empty');
  let event: unknown;
  try {
    event = Stripe.webhooks.constructEvent(
      rawBody,
      signatureHeader,
      secret,
      WEBHOOK_TOLERANCE_SECONDS,
      undefined,
      now.getTime(),
    );
  } catch (error) {
    if (error instanceof Stripe.errors.StripeSignatureVerificationError) {
      // The SDK's first sentence names the reason (no signature, mismatch, stale); its remainder is advice.
      throw new WebhookSignatureError(`The webhook signature is invalid: ${firstSentence(error.message)}`);
    }
    // The signature held, so the body is what the sender meant: it is just not an event.
    throw new WebhookPayloadError();
  }
  const signedAt = signatureTimestamp(signatureHeader);
  if (signedAt - Math.floor(now.getTime() / 1000) > WEBHOOK_TOLERANCE_SECONDS) {
    throw new WebhookSignatureError('The webhook signature is invalid: Timestamp is in the future');
  }
  return toPaymentEvent(event, now);
}

function firstSentence(message: string): string {
  const end = message.search(/[.\n]/);
  return (end === -1 ? message : message.slice(0, end)).trim();
}

/** The `t=` of a header the SDK already accepted. */
function signatureTimestamp(header: string): number {
  for (const part of header.split(',')) {
    const [name, value] = part.split('=');
    if (name?.trim() === 't' && value !== undefined) return Number.parseInt(value, 10);
  }
  return Number.NaN;
}

type JsonRecord = Record<string, unknown>;
const isRecord = (value: unknown): value is JsonRecord =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function toPaymentEvent(raw: unknown, now: Date): PaymentWebhookEvent {
  if (!isRecord(raw) || typeof raw.id !== 'string' || raw.id === '' || typeof raw.type !== 'string') {
    throw new WebhookPayloadError('The webhook body is not an event with an id and a type');
  }
  const object = isRecord(raw.data) && isRecord(raw.data.object) ? raw.data.object : {};
  const isIntent = object.object === 'payment_intent' || raw.type.startsWith('payment_intent.');
  const metadata: Record<string, string> = {};
  if (isIntent && isRecord(object.metadata)) {
    for (const [name, value] of Object.entries(object.metadata)) {
      if (typeof value === 'string') metadata[name] = value;
    }
  }
  return {
    id: raw.id,
    type: raw.type,
    intentId: isIntent && typeof object.id === 'string' && object.id !== '' ? object.id : null,
    amountInCents: isIntent && Number.isSafeInteger(object.amount) ? (object.amount as number) : null,
    currency: isIntent && typeof object.currency === 'string' ? object.currency.toUpperCase() : null,
    metadata,
    createdAt: typeof raw.created === 'number' ? new Date(raw.created * 1000) : now,
  };
}

/**
 * The `Stripe-Signature` header value for `body` signed with `secret` at `at`
 * (`t=<unix>,v1=<hex>`): for tests, the sandbox's development tooling and
 * end-to-end runs. Never used to answer a request.
 */
export function signWebhookPayload(secret: string, body: string, at: Date): string {
  return Stripe.webhooks.generateTestHeaderString({
    payload: body,
    secret,
    timestamp: Math.floor(at.getTime() / 1000),
  });
}

export interface PaymentEventBodyInput {
  /** Defaults to a fresh `evt_…` id. */
  id?: string;
  type: PaymentWebhookEventType | (string & {});
  intentId: string;
  amountInCents?: number;
  currency?: string;
  metadata?: Record<string, string>;
  createdAt: Date;
}

/**
 * A webhook body shaped like Stripe's event for a payment intent: what the
 * sandbox's (simulated) processor would send. Sign it with `signWebhookPayload`.
 */
export function createPaymentEventBody(input: PaymentEventBodyInput): string {
  const status =
    input.type === 'payment_intent.succeeded'
      ? 'succeeded'
      : input.type === 'payment_intent.payment_failed'
        ? 'requires_payment_method'
        : 'processing';
  return JSON.stringify({
    id: input.id ?? `evt_sandbox_${randomBytes(12).toString('hex')}`,
    object: 'event',
    created: Math.floor(input.createdAt.getTime() / 1000),
    livemode: false,
    type: input.type,
    data: {
      object: {
        id: input.intentId,
        object: 'payment_intent',
        ...(input.amountInCents === undefined ? {} : { amount: input.amountInCents }),
        ...(input.currency === undefined ? {} : { currency: input.currency.toLowerCase() }),
        metadata: input.metadata ?? {},
        status,
      },
    },
  });
}
