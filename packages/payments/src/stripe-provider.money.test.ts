import { AppError, ManualClock } from '@commerce/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type FakeStripe, startFakeStripe, stripeError } from '../test/fake-stripe.ts';
import { fromStripeAmount, toStripeAmount } from './stripe-amounts.ts';
import { createStripePaymentProvider } from './stripe-provider.ts';
import { createPaymentEventBody, signWebhookPayload } from './webhooks.ts';

const SECRET = 'whsec_stripe_money';
let fake: FakeStripe;

beforeAll(async () => {
  fake = await startFakeStripe();
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

function provider(accountId?: string) {
  return createStripePaymentProvider({
    secretKey: 'sk_test_fake123',
    publishableKey: 'pk_test_fake123',
    webhookSecret: SECRET,
    api: fake.api,
    maxNetworkRetries: 0,
    timeoutMs: 2_000,
    ...(accountId ? { accountId } : {}),
  });
}

let keys = 0;
const intentInput = (amountInCents: number, currency: string) => ({
  amountInCents,
  currency,
  idempotencyKey: `money-key-${++keys}`,
  metadata: { organizationId: 'org_1' },
});

describe('Stripe amounts in each currency', () => {
  it.each([
    ['USD', 1999, '1999'],
    ['JPY', 1280, '1280'],
    ['KRW', 15000, '15000'],
    ['KWD', 12340, '12340'],
    ['ISK', 500, '50000'],
    ['HUF', 123450, '123450'],
  ])('sends %s %i minor units as amount=%s', async (currency, amount, sent) => {
    await provider().createPaymentIntent(intentInput(amount, currency));
    expect(fake.requests).toHaveLength(1);
    expect(fake.requests[0]!.form.get('amount')).toBe(sent);
    expect(fake.requests[0]!.form.get('currency')).toBe(currency.toLowerCase());
  });

  it('refuses, before calling Stripe, a three-decimal amount whose last digit is not 0', async () => {
    const error = await provider()
      .createPaymentIntent(intentInput(12345, 'KWD'))
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'PROVIDER_ERROR', message: expect.stringContaining('0.010') });
    expect(fake.requests).toHaveLength(0);
  });

  it('answers whether it can charge an amount without calling Stripe (assertChargeable)', () => {
    expect(() => provider().assertChargeable(12340, 'KWD')).not.toThrow();
    expect(() => provider().assertChargeable(500, 'ISK')).not.toThrow();
    for (const [amount, currency] of [
      [12345, 'KWD'],
      [1001, 'BHD'],
      [1250, 'MGA'],
    ] as const) {
      let caught: unknown;
      try {
        provider().assertChargeable(amount, currency);
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({
        code: 'PROVIDER_ERROR',
        message: expect.stringContaining('cannot charge'),
      });
    }
    expect(fake.requests).toHaveLength(0);
  });

  it('converts both ways where Stripe and ISO 4217 differ', () => {
    expect(toStripeAmount(5, 'ISK')).toBe(500);
    expect(fromStripeAmount(500, 'ISK')).toBe(5);
    expect(fromStripeAmount(550, 'ISK')).toBeNull();
    // MGA: ISO 2 decimals, Stripe none.
    expect(toStripeAmount(1200, 'MGA')).toBe(12);
    expect(() => toStripeAmount(1250, 'MGA')).toThrow(AppError);
    expect(fromStripeAmount(12, 'MGA')).toBe(1200);
    expect(fromStripeAmount(1280, 'JPY')).toBe(1280);
    expect(fromStripeAmount(12340, 'KWD')).toBe(12340);
  });

  it('reads a webhook amount back in ISO 4217 minor units', () => {
    const clock = new ManualClock('2026-11-26T03:00:00.000Z');
    const body = createPaymentEventBody({
      id: 'evt_isk',
      type: 'payment_intent.succeeded',
      intentId: 'pi_fake_isk',
      amountInCents: 50000,
      currency: 'ISK',
      createdAt: clock.now(),
    });
    const event = provider().verifyWebhook(body, signWebhookPayload(SECRET, body, clock.now()), clock.now());
    expect(event).toMatchObject({ amountInCents: 500, currency: 'ISK' });
  });
});

describe('Stripe payment provider: refundPayment', () => {
  it('refunds the whole intent with the Idempotency-Key and metadata, on the connected account', async () => {
    const { intentId } = await provider().createPaymentIntent(intentInput(4200, 'EUR'));
    fake.reset();
    const result = await provider('acct_123').refundPayment(intentId, {
      idempotencyKey: 'pat_1:refund',
      metadata: { orderId: 'ord_1' },
    });
    expect(result).toEqual({ outcome: 'refunded', refundId: expect.stringMatching(/^re_fake/) });
    const [request] = fake.requests;
    expect(request).toMatchObject({ method: 'POST', path: '/v1/refunds' });
    expect(request!.headers['idempotency-key']).toBe('pat_1:refund');
    expect(request!.headers['stripe-account']).toBe('acct_123');
    expect(Object.fromEntries(request!.form)).toEqual({
      payment_intent: intentId,
      'metadata[orderId]': 'ord_1',
    });
  });

  it('answers the same refund for the same key, and already_refunded under another key', async () => {
    const { intentId } = await provider().createPaymentIntent(intentInput(4200, 'EUR'));
    const options = { idempotencyKey: 'pat_2:refund', metadata: {} };
    const first = await provider().refundPayment(intentId, options);
    expect(await provider().refundPayment(intentId, options)).toEqual(first);
    expect(await provider().refundPayment(intentId, { ...options, idempotencyKey: 'pat_2:other' })).toEqual({
      outcome: 'already_refunded',
    });
  });

  it('maps refusals to 502 and a rate limit to 503, without quoting Stripe', async () => {
    fake.script.push(stripeError(400, 'invalid_request_error', 'Secret detail: cus_private'));
    const refused = await provider()
      .refundPayment('pi_x', { idempotencyKey: 'refund-refused', metadata: {} })
      .catch((caught: unknown) => caught as AppError);
    expect(refused).toMatchObject({ code: 'PROVIDER_ERROR' });
    expect((refused as AppError).message).not.toContain('cus_private');
    fake.script.push(stripeError(429, 'rate_limit_error', 'Too many requests'));
    await expect(
      provider().refundPayment('pi_x', { idempotencyKey: 'refund-busy', metadata: {} }),
    ).rejects.toMatchObject({ code: 'PROVIDER_UNAVAILABLE' });
  });

  it('refuses an intent id that is not one before calling Stripe', async () => {
    await expect(
      provider().refundPayment('pi_1/../../customers', { idempotencyKey: 'refund-bad', metadata: {} }),
    ).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
    expect(fake.requests).toHaveLength(0);
  });
});
