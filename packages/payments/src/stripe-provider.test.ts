import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { AppError, ManualClock } from '@commerce/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { answerJson, type FakeStripe, startFakeStripe, stripeError } from '../test/fake-stripe.ts';
import { WebhookSignatureError } from './provider.ts';
import { createStripePaymentProvider, type StripeProviderOptions } from './stripe-provider.ts';
import { createPaymentEventBody, signWebhookPayload } from './webhooks.ts';

let fake: FakeStripe;
let requests: FakeStripe['requests'];
let script: FakeStripe['script'];
let intentsById: FakeStripe['intentsById'];
const answer = answerJson;

beforeAll(async () => {
  fake = await startFakeStripe();
  ({ requests, script, intentsById } = fake);
});

afterAll(() => fake.close());

beforeEach(() => fake.reset());

const SECRET = 'whsec_stripe_test';
function provider(options: Partial<StripeProviderOptions> = {}) {
  return createStripePaymentProvider({
    secretKey: 'sk_test_fake123',
    publishableKey: 'pk_test_fake123',
    webhookSecret: SECRET,
    api: fake.api,
    maxNetworkRetries: 0,
    timeoutMs: 2_000,
    ...options,
  });
}

const input = {
  amountInCents: 1999,
  currency: 'EUR',
  idempotencyKey: 'checkout:org_1:chk_1:1',
  metadata: { organizationId: 'org_1', checkoutSessionId: 'chk_1' },
};

async function failureOf(promise: Promise<unknown>): Promise<AppError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe('Stripe payment provider', () => {
  it('creates an intent with automatic payment methods, metadata and the Idempotency-Key', async () => {
    const handoff = await provider().createPaymentIntent({ ...input, idempotencyKey: 'key-create-1' });
    expect(handoff).toEqual({
      intentId: 'pi_fake1',
      clientSecret: 'pi_fake1_secret_fake1',
      publishableKey: 'pk_test_fake123',
    });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/payment_intents' });
    expect(request!.headers.authorization).toBe('Bearer sk_test_fake123');
    expect(request!.headers['idempotency-key']).toBe('key-create-1');
    expect(request!.headers['stripe-account']).toBeUndefined();
    expect(Object.fromEntries(request!.form)).toEqual({
      amount: '1999',
      currency: 'eur',
      'automatic_payment_methods[enabled]': 'true',
      'metadata[organizationId]': 'org_1',
      'metadata[checkoutSessionId]': 'chk_1',
    });
  });

  it('reaches the same intent again with the same key', async () => {
    const first = await provider().createPaymentIntent({ ...input, idempotencyKey: 'key-same' });
    const again = await provider().createPaymentIntent({ ...input, idempotencyKey: 'key-same' });
    expect(again).toEqual(first);
    expect(requests.map((request) => request.headers['idempotency-key'])).toEqual(['key-same', 'key-same']);
  });

  it('creates the intent on the connected account and hands its id to the storefront', async () => {
    const handoff = await provider({ accountId: 'acct_123' }).createPaymentIntent({
      ...input,
      idempotencyKey: 'key-connect',
    });
    expect(handoff.accountId).toBe('acct_123');
    expect(requests[0]!.headers['stripe-account']).toBe('acct_123');
  });

  it('retries a 500 with the same Idempotency-Key and returns the one intent', async () => {
    script.push(stripeError(500, 'api_error', 'Something went wrong'));
    const handoff = await provider({ maxNetworkRetries: 1 }).createPaymentIntent({
      ...input,
      idempotencyKey: 'key-retry',
    });
    expect(handoff.intentId).toMatch(/^pi_fake/);
    expect(requests.map((request) => request.headers['idempotency-key'])).toEqual(['key-retry', 'key-retry']);
  });

  it.each([
    ['a card error', 402, 'card_error'],
    ['an invalid request', 400, 'invalid_request_error'],
    ['an API error', 500, 'api_error'],
    ['a bad API key', 401, 'authentication_error'],
    ['a key without permission', 403, 'invalid_request_error'],
    ['an idempotency conflict', 400, 'idempotency_error'],
  ])('maps %s to 502 PROVIDER_ERROR without quoting Stripe', async (_case, status, type) => {
    script.push(stripeError(status, type, 'Secret detail from Stripe: cus_private'));
    const error = await failureOf(provider().createPaymentIntent(input));
    expect(error.code).toBe('PROVIDER_ERROR');
    expect(error.status).toBe(502);
    expect(error.message).not.toContain('cus_private');
    expect(error.details).toBeUndefined();
  });

  it('maps a rate limit to 503 PROVIDER_UNAVAILABLE', async () => {
    script.push(stripeError(429, 'rate_limit_error', 'Too many requests'));
    const error = await failureOf(provider().createPaymentIntent(input));
    expect(error.code).toBe('PROVIDER_UNAVAILABLE');
  });

  it('maps a timeout to 503 PROVIDER_UNAVAILABLE', async () => {
    script.push((response) => {
      setTimeout(() => answer(response, 200, {}), 1_000).unref();
    });
    const error = await failureOf(provider({ timeoutMs: 100 }).createPaymentIntent(input));
    expect(error.code).toBe('PROVIDER_UNAVAILABLE');
    expect(error.status).toBe(503);
  });

  it('maps a refused connection to 503 PROVIDER_UNAVAILABLE', async () => {
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const error = await failureOf(
      provider({ api: { host: '127.0.0.1', port: closedPort, protocol: 'http' } }).createPaymentIntent(input),
    );
    expect(error.code).toBe('PROVIDER_UNAVAILABLE');
  });

  it('refuses an intent without a client secret as a provider error', async () => {
    script.push((response) =>
      answer(response, 200, { id: 'pi_x', object: 'payment_intent', client_secret: null }),
    );
    expect((await failureOf(provider().createPaymentIntent(input))).code).toBe('PROVIDER_ERROR');
  });

  it('refuses bad input before calling Stripe', async () => {
    expect((await failureOf(provider().createPaymentIntent({ ...input, amountInCents: -1 }))).code).toBe(
      'PROVIDER_ERROR',
    );
    expect(requests).toHaveLength(0);
  });

  it('verifies webhooks with PAYMENT_WEBHOOK_SECRET at the injected time', () => {
    const clock = new ManualClock('2026-11-23T18:00:00.000Z');
    const body = createPaymentEventBody({
      id: 'evt_s1',
      type: 'payment_intent.succeeded',
      intentId: 'pi_fake1',
      createdAt: clock.now(),
    });
    expect(
      provider().verifyWebhook(body, signWebhookPayload(SECRET, body, clock.now()), clock.now()),
    ).toMatchObject({ id: 'evt_s1', intentId: 'pi_fake1' });
    expect(() =>
      provider().verifyWebhook(body, signWebhookPayload('whsec_wrong', body, clock.now()), clock.now()),
    ).toThrow(WebhookSignatureError);
  });
});

describe('Stripe payment provider: cancelPaymentIntent', () => {
  async function createdIntent(key: string): Promise<string> {
    const { intentId } = await provider().createPaymentIntent({ ...input, idempotencyKey: key });
    requests.length = 0;
    return intentId;
  }

  it('cancels an open intent as abandoned, with the Idempotency-Key, on the connected account', async () => {
    const intentId = await createdIntent('key-cancel-open');
    const result = await provider({ accountId: 'acct_123' }).cancelPaymentIntent(intentId, {
      idempotencyKey: 'pat_1:cancel:1',
    });
    expect(result).toEqual({ outcome: 'canceled' });
    expect(requests).toHaveLength(1);
    const [request] = requests;
    expect(request).toMatchObject({ method: 'POST', path: `/v1/payment_intents/${intentId}/cancel` });
    expect(request!.headers['idempotency-key']).toBe('pat_1:cancel:1');
    expect(request!.headers['stripe-account']).toBe('acct_123');
    expect(Object.fromEntries(request!.form)).toEqual({ cancellation_reason: 'abandoned' });
    expect(intentsById.get(intentId)!.status).toBe('canceled');
  });

  it('treats an intent canceled before as canceled', async () => {
    const intentId = await createdIntent('key-cancel-twice');
    await provider().cancelPaymentIntent(intentId, { idempotencyKey: 'cancel-first' });
    expect(await provider().cancelPaymentIntent(intentId, { idempotencyKey: 'cancel-second' })).toEqual({
      outcome: 'canceled',
    });
    expect(requests).toHaveLength(2);
  });

  it.each([['succeeded'], ['processing']])(
    'answers not_cancelable for a %s intent (the webhook settles it)',
    async (status) => {
      const intentId = await createdIntent(`key-cancel-${status}`);
      intentsById.get(intentId)!.status = status;
      expect(await provider().cancelPaymentIntent(intentId, { idempotencyKey: `cancel-${status}` })).toEqual({
        outcome: 'not_cancelable',
        intentStatus: status,
      });
      expect(intentsById.get(intentId)!.status).toBe(status);
    },
  );

  it('answers not_cancelable with an unknown status when Stripe leaves the intent out of the error', async () => {
    script.push((response) =>
      answer(response, 400, {
        error: { type: 'invalid_request_error', code: 'payment_intent_unexpected_state', message: 'no' },
      }),
    );
    expect(await provider().cancelPaymentIntent('pi_bare', { idempotencyKey: 'cancel-bare' })).toEqual({
      outcome: 'not_cancelable',
      intentStatus: null,
    });
  });

  it('maps an unknown intent and other refusals to 502 PROVIDER_ERROR without quoting Stripe', async () => {
    const unknown = await failureOf(
      provider().cancelPaymentIntent('pi_nobody', { idempotencyKey: 'cancel-unknown' }),
    );
    expect(unknown.code).toBe('PROVIDER_ERROR');
    expect(unknown.message).not.toContain('pi_nobody');
    script.push(stripeError(401, 'authentication_error', 'Secret detail from Stripe: sk_test_fake123'));
    const refused = await failureOf(
      provider().cancelPaymentIntent('pi_x', { idempotencyKey: 'cancel-auth' }),
    );
    expect(refused.code).toBe('PROVIDER_ERROR');
    expect(refused.message).not.toContain('sk_test');
  });

  it('maps a rate limit and a timeout to 503 PROVIDER_UNAVAILABLE', async () => {
    script.push(stripeError(429, 'rate_limit_error', 'Too many requests'));
    expect(
      (await failureOf(provider().cancelPaymentIntent('pi_x', { idempotencyKey: 'cancel-429' }))).code,
    ).toBe('PROVIDER_UNAVAILABLE');
    script.push((response) => {
      setTimeout(() => answer(response, 200, {}), 1_000).unref();
    });
    expect(
      (
        await failureOf(
          provider({ timeoutMs: 100 }).cancelPaymentIntent('pi_x', { idempotencyKey: 'cancel-timeout' }),
        )
      ).code,
    ).toBe('PROVIDER_UNAVAILABLE');
  });

  it('retries a 500 with the same Idempotency-Key', async () => {
    const intentId = await createdIntent('key-cancel-retry');
    script.push(stripeError(500, 'api_error', 'Something went wrong'));
    expect(
      await provider({ maxNetworkRetries: 1 }).cancelPaymentIntent(intentId, {
        idempotencyKey: 'cancel-retry',
      }),
    ).toEqual({ outcome: 'canceled' });
    expect(requests.map((request) => request.headers['idempotency-key'])).toEqual([
      'cancel-retry',
      'cancel-retry',
    ]);
  });

  it('refuses an intent id that is not one before calling Stripe', async () => {
    for (const intentId of ['', 'pi_1/../../customers', 'pi 1']) {
      expect(
        (await failureOf(provider().cancelPaymentIntent(intentId, { idempotencyKey: 'cancel-bad' }))).code,
      ).toBe('PROVIDER_ERROR');
    }
    expect((await failureOf(provider().cancelPaymentIntent('pi_1', { idempotencyKey: '' }))).code).toBe(
      'PROVIDER_ERROR',
    );
    expect(requests).toHaveLength(0);
  });
});
