import type { ApiDeps } from '@commerce/api';
import { retryOnAbort } from '@commerce/bookings';
import { AppError, type Clock } from '@commerce/core';
import { claimPaymentWebhookEvent } from '@commerce/db';
import {
  isHandledPaymentEvent,
  type PaymentEventHandler,
  type PaymentProvider,
  type PaymentWebhookEvent,
  WEBHOOK_TOLERANCE_SECONDS,
  WebhookPayloadError,
  WebhookSignatureError,
} from '@commerce/payments';
import type { Hono } from 'hono';
import type { Logger } from 'pino';
import type { GatewayEnv } from './env.ts';
import { toAppError } from './errors.ts';

/** Under `/api/v1`: where the payment processor delivers its signed events. */
export const PAYMENT_WEBHOOK_PATH = '/webhooks/payments';
const ROUTE = `POST /api/v1${PAYMENT_WEBHOOK_PATH}`;
/** Seconds the processor is told to wait before delivering an event that met a conflict again. */
const CONFLICT_RETRY_AFTER_SECONDS = 1;

/** Moves the payment attempt, sales record and order of the event's intent (checkout's settle step). */
export type GatewayPaymentEventHandler = PaymentEventHandler<ApiDeps['db']>;

export type PaymentWebhookOutcome = 'processed' | 'duplicate' | 'ignored';

export interface PaymentWebhookDeps {
  db: ApiDeps['db'];
  clock: Clock;
  payments: PaymentProvider;
  onPaymentEvent: GatewayPaymentEventHandler;
  logger: Logger;
}

/**
 * `POST /api/v1/webhooks/payments`, a native route because the signature
 * covers the raw bytes of the body. The body limit of every `/api/*` route
 * applies before it is read. Refused signatures change nothing (400
 * WEBHOOK_SIGNATURE_INVALID). A handled event's id is recorded and the
 * handler runs in one transaction: a replayed id is a 200 no-op, and a
 * handler failure records nothing, so the processor's retry applies it. The
 * handler's follow-up (a refund owed to the processor) runs after the commit.
 * An event whose transaction still loses to a concurrent change after its
 * reruns answers 503 SERVICE_UNAVAILABLE with Retry-After, nothing recorded,
 * so the processor delivers it again (it retries any answer but a 2xx).
 * Other event types are acknowledged and ignored.
 */
export function mountPaymentWebhook(app: Hono<GatewayEnv>, deps: PaymentWebhookDeps): void {
  app.post(`/api/v1${PAYMENT_WEBHOOK_PATH}`, async (c) => {
    c.set('route', ROUTE);
    const requestId = c.get('requestId');
    const rawBody = await c.req.text();
    const receivedAt = deps.clock.now();
    const event = verify(deps, rawBody, c.req.header('stripe-signature'), receivedAt, requestId);
    const outcome = await applyPaymentEvent(deps, event, receivedAt).catch((error: unknown) => {
      if (toAppError(error).appError.code !== 'STALE_STATE') throw error;
      deps.logger.warn(
        { requestId, eventId: event.id, eventType: event.type, err: error },
        'payment webhook lost to concurrent changes; answered 503 for the processor to deliver it again',
      );
      throw conflictRetryLater(error);
    });
    deps.logger.info(
      { requestId, eventId: event.id, eventType: event.type, intentId: event.intentId, outcome },
      'payment webhook',
    );
    return c.json({ received: true, outcome }, 200);
  });
}

/**
 * Applies one verified payment event as the webhook does: a handled event's id is recorded and the
 * handler runs in one transaction (a replayed id changes nothing), then the handler's follow-up runs
 * after the commit. The sandbox processor's test-card confirmation delivers its event here too, so
 * a sandbox payment settles exactly as a real processor's webhook would settle it.
 */
export async function applyPaymentEvent(
  deps: Pick<PaymentWebhookDeps, 'db' | 'onPaymentEvent'>,
  event: PaymentWebhookEvent,
  receivedAt: Date,
): Promise<PaymentWebhookOutcome> {
  if (!isHandledPaymentEvent(event)) return 'ignored';
  // A transaction PostgreSQL gave up to break a deadlock (or a serialization conflict) with a
  // concurrent change of the same payment is run again here, never answered 500.
  const applied = await retryOnAbort(() =>
    deps.db.transaction().execute(async (trx) => {
      if (!(await claimPaymentWebhookEvent(trx, event, receivedAt)))
        return { outcome: 'duplicate' as const, followUp: undefined };
      return { outcome: 'processed' as const, followUp: await deps.onPaymentEvent(trx, event) };
    }),
  );
  // After the commit: a processor call the event owes (a refund). Whatever fails stays owed for the worker.
  await applied.followUp?.();
  return applied.outcome;
}

/**
 * The answer to an event that lost to a concurrent change of the same payment on every rerun
 * (409 STALE_STATE to an API client): the processor is the one to retry, and it redelivers on a
 * 5xx, so 503 with Retry-After.
 */
function conflictRetryLater(cause: unknown): AppError {
  return new AppError(
    'SERVICE_UNAVAILABLE',
    'A concurrent change of this payment conflicted with the event; nothing was applied, deliver it again',
    { retryAfterSeconds: CONFLICT_RETRY_AFTER_SECONDS },
    { retryAfterSeconds: CONFLICT_RETRY_AFTER_SECONDS, cause },
  );
}

function verify(
  deps: PaymentWebhookDeps,
  rawBody: string,
  signature: string | undefined,
  receivedAt: Date,
  requestId: string,
): PaymentWebhookEvent {
  try {
    return deps.payments.verifyWebhook(rawBody, signature, receivedAt);
  } catch (error) {
    if (error instanceof WebhookSignatureError) {
      // The reason helps an operator with a wrong secret or a skewed clock; the sender gets one answer.
      deps.logger.warn({ requestId, reason: error.message }, 'payment webhook signature refused');
      throw new AppError('WEBHOOK_SIGNATURE_INVALID', undefined, undefined, { cause: error });
    }
    if (error instanceof WebhookPayloadError) {
      throw AppError.validation(
        [{ path: 'body', message: error.message }],
        'The webhook body is not an event',
      );
    }
    throw error;
  }
}

const errorResponse = (codes: string[]) => ({
  description: codes.join(', '),
  content: {
    'application/json': {
      schema: {
        allOf: [
          { $ref: '#/components/schemas/ErrorEnvelope' },
          {
            type: 'object',
            properties: { error: { type: 'object', properties: { code: { type: 'string', enum: codes } } } },
          },
        ],
      },
    },
  },
});

/** The route in OpenAPI form, for `buildOpenApiDocument`'s `extraPaths`. */
export const paymentWebhookOpenApiPaths: Record<string, Record<string, unknown>> = {
  [PAYMENT_WEBHOOK_PATH]: {
    post: {
      operationId: 'webhooks.payments',
      tags: ['Webhooks'],
      summary: 'Receive a payment processor event',
      description: [
        'Called by the payment processor, not by clients. The raw body is verified against the',
        '`Stripe-Signature` header: `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>">` keyed by',
        `\`PAYMENT_WEBHOOK_SECRET\`, accepted within ${WEBHOOK_TOLERANCE_SECONDS / 60} minutes of the server's`,
        'clock (several `v1` entries are allowed while a secret rotates). A missing, malformed or wrong',
        'signature, or one outside the window, answers `400 WEBHOOK_SIGNATURE_INVALID` and changes nothing.',
        '`payment_intent.succeeded` and `payment_intent.payment_failed` (with `data.object.id` the intent id)',
        'are applied once: a replayed event id answers `200` with `outcome: "duplicate"`. A success whose',
        "`amount` or `currency` is not the payment attempt's (or is missing) is recorded but leaves the order",
        'unpaid. A success for an order cancelled before it was paid is refunded in full through the processor',
        'and the order becomes `paymentStatus: REFUNDED` (audited, no confirmation email, no stock taken).',
        'A booking payment the booking cannot keep (it would take more than the open balance, its link was',
        'closed while it was being paid, the booking was cancelled, or a late payment came for a booking that',
        'started or lost its time) is recorded and refunded in full the same way. An event whose transaction',
        'loses a deadlock with a concurrent change is applied again before the answer, up to three times;',
        'when every rerun loses, it answers `503 SERVICE_UNAVAILABLE` with `Retry-After` and records nothing,',
        'so the processor delivers it again.',
        'Every other event type answers `200` with `outcome: "ignored"`.',
      ].join(' '),
      security: [],
      parameters: [
        {
          name: 'Stripe-Signature',
          in: 'header',
          required: true,
          description: '`t=<unix seconds>,v1=<hex HMAC-SHA256>`',
          schema: {
            type: 'string',
            example: 't=1763920800,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
          },
        },
      ],
      requestBody: {
        required: true,
        description: 'The processor event, exactly as signed (do not re-serialize it)',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['id', 'type', 'data'],
              properties: {
                id: {
                  type: 'string',
                  description: 'The event id; a replay of it is a no-op',
                  example: 'evt_1Q',
                },
                type: {
                  type: 'string',
                  example: 'payment_intent.succeeded',
                  description: '`payment_intent.succeeded` and `payment_intent.payment_failed` are acted on',
                },
                created: { type: 'integer', description: 'Unix seconds' },
                data: {
                  type: 'object',
                  required: ['object'],
                  properties: {
                    object: {
                      type: 'object',
                      required: ['id'],
                      properties: {
                        id: { type: 'string', description: 'The payment intent id', example: 'pi_3Q' },
                        object: { type: 'string', example: 'payment_intent' },
                        amount: { type: 'integer' },
                        currency: { type: 'string' },
                        metadata: { type: 'object', additionalProperties: { type: 'string' } },
                      },
                    },
                  },
                },
              },
            },
          },
        },
      },
      responses: {
        '200': {
          description: 'Acknowledged',
          content: {
            'application/json': {
              schema: {
                type: 'object',
                required: ['received', 'outcome'],
                additionalProperties: false,
                properties: {
                  received: { type: 'boolean', enum: [true] },
                  outcome: {
                    type: 'string',
                    enum: ['processed', 'duplicate', 'ignored'],
                    description:
                      'Applied now, applied before (a replay), or a type the service does not act on',
                  },
                },
              },
            },
          },
        },
        '400': errorResponse(['VALIDATION_FAILED', 'WEBHOOK_SIGNATURE_INVALID']),
        '413': errorResponse(['PAYLOAD_TOO_LARGE']),
        '500': errorResponse(['INTERNAL_ERROR']),
        // The database unavailable, or every rerun lost to a concurrent change: nothing applied; the
        // processor's redelivery is safe (events apply once).
        '503': errorResponse(['SERVICE_UNAVAILABLE']),
      },
    },
  },
};
