import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedStripeRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  form: URLSearchParams;
}

export type ScriptedStripeAnswer = (response: ServerResponse, request: RecordedStripeRequest) => void;

/**
 * A local stand-in for api.stripe.com, for tests of the Stripe provider and
 * of checkout over it: idempotent intent creates (an intent per
 * `Idempotency-Key`), cancellations and full refunds with Stripe's refusals,
 * or the scripted answers a test queues. Listens on 127.0.0.1, port 0.
 */
export interface FakeStripe {
  /** `api` option of `createStripePaymentProvider`. */
  api: { host: string; port: number; protocol: 'http' };
  port: number;
  requests: RecordedStripeRequest[];
  /** Answers for the next requests, first in first out, before the built-in behaviour. */
  script: ScriptedStripeAnswer[];
  intentsById: Map<string, Record<string, unknown>>;
  refunds: Record<string, unknown>[];
  /** Forgets the recorded requests and the script (intents stay). */
  reset(): void;
  close(): Promise<void>;
}

export function answerJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_fake' });
  response.end(JSON.stringify(body));
}

/** A scripted Stripe error answer. */
export const stripeError =
  (status: number, type: string, message: string, code = 'some_code'): ScriptedStripeAnswer =>
  (response) =>
    answerJson(response, status, { error: { type, code, message } });

export async function startFakeStripe(): Promise<FakeStripe> {
  const requests: RecordedStripeRequest[] = [];
  const script: ScriptedStripeAnswer[] = [];
  const intentsByKey = new Map<string, Record<string, unknown>>();
  const intentsById = new Map<string, Record<string, unknown>>();
  const refundsByKey = new Map<string, Record<string, unknown>>();
  const refunds: Record<string, unknown>[] = [];

  const missing = (response: ServerResponse, what: string, id: string) =>
    answerJson(response, 404, {
      error: { type: 'invalid_request_error', code: 'resource_missing', message: `No such ${what}: '${id}'` },
    });

  /** Stripe's rules for POST /v1/payment_intents/:id/cancel: unknown is 404, canceled or succeeded is 400 with the intent. */
  const cancelIntent = (response: ServerResponse, id: string) => {
    const intent = intentsById.get(id);
    if (!intent) return missing(response, 'payment_intent', id);
    if (intent.status === 'canceled' || intent.status === 'succeeded' || intent.status === 'processing') {
      return answerJson(response, 400, {
        error: {
          type: 'invalid_request_error',
          code: 'payment_intent_unexpected_state',
          message: `You cannot cancel this PaymentIntent because it has a status of ${String(intent.status)}.`,
          payment_intent: intent,
        },
      });
    }
    intent.status = 'canceled';
    answerJson(response, 200, intent);
  };

  /** POST /v1/refunds of a whole intent: one refund per key; a refunded intent is `charge_already_refunded`. */
  const refund = (response: ServerResponse, request: RecordedStripeRequest) => {
    const key = String(request.headers['idempotency-key']);
    const earlier = refundsByKey.get(key);
    if (earlier) return answerJson(response, 200, earlier);
    const intentId = request.form.get('payment_intent') ?? '';
    const intent = intentsById.get(intentId);
    if (!intent) return missing(response, 'payment_intent', intentId);
    if (intent.refunded === true) {
      return answerJson(response, 400, {
        error: {
          type: 'invalid_request_error',
          code: 'charge_already_refunded',
          message: 'Charge has already been refunded.',
        },
      });
    }
    intent.refunded = true;
    const created = {
      id: `re_fake${refunds.length + 1}`,
      object: 'refund',
      amount: intent.amount,
      currency: intent.currency,
      payment_intent: intentId,
      status: 'succeeded',
    };
    refundsByKey.set(key, created);
    refunds.push(created);
    answerJson(response, 200, created);
  };

  const createIntent = (response: ServerResponse, request: RecordedStripeRequest) => {
    const key = String(request.headers['idempotency-key']);
    let intent = intentsByKey.get(key);
    if (!intent) {
      const id = `pi_fake${intentsByKey.size + 1}`;
      intent = {
        id,
        object: 'payment_intent',
        amount: Number(request.form.get('amount')),
        currency: request.form.get('currency'),
        client_secret: `${id}_secret_fake${intentsByKey.size + 1}`,
        status: 'requires_payment_method',
      };
      intentsByKey.set(key, intent);
      intentsById.set(id, intent);
    }
    answerJson(response, 200, intent);
  };

  const server: Server = createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const request: RecordedStripeRequest = {
        method: incoming.method ?? '',
        path: incoming.url ?? '',
        headers: incoming.headers,
        form: new URLSearchParams(Buffer.concat(chunks).toString('utf8')),
      };
      requests.push(request);
      const scripted = script.shift();
      if (scripted) return scripted(response, request);
      const cancel = /^\/v1\/payment_intents\/([^/]+)\/cancel$/.exec(request.path);
      if (cancel) return cancelIntent(response, decodeURIComponent(cancel[1]!));
      if (request.path === '/v1/refunds') return refund(response, request);
      createIntent(response, request);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    api: { host: '127.0.0.1', port, protocol: 'http' },
    port,
    requests,
    script,
    intentsById,
    refunds,
    reset: () => {
      requests.length = 0;
      script.length = 0;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
