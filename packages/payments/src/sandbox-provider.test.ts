import { ManualClock } from '@commerce/core';
import { describe, expect, it } from 'vitest';
import { createPaymentProvider } from './create-payment-provider.ts';
import { WebhookSignatureError } from './provider.ts';
import { createSandboxPaymentProvider, SANDBOX_PUBLISHABLE_KEY } from './sandbox-provider.ts';
import { createPaymentEventBody, signWebhookPayload } from './webhooks.ts';

const SECRET = 'whsec_sandbox_test';
const input = {
  amountInCents: 4200,
  currency: 'USD',
  idempotencyKey: 'checkout:org_1:chk_1:1',
  metadata: { organizationId: 'org_1', checkoutSessionId: 'chk_1' },
};

describe('sandbox payment provider', () => {
  it('returns the contract handoff: pi_sandbox_ intent, <intentId>_secret_<random>, pk_test_sandbox', async () => {
    const handoff = await createSandboxPaymentProvider({ webhookSecret: SECRET }).createPaymentIntent(input);
    expect(handoff.intentId).toMatch(/^pi_sandbox_[0-9a-f]{24}$/);
    expect(handoff.clientSecret).toMatch(new RegExp(`^${handoff.intentId}_secret_[0-9a-f]{32}$`));
    expect(handoff.publishableKey).toBe(SANDBOX_PUBLISHABLE_KEY);
    expect(handoff).not.toHaveProperty('accountId');
  });

  it('gives the same intent for the same key in another process (another instance) and after a restart', async () => {
    const first = await createSandboxPaymentProvider({ webhookSecret: SECRET }).createPaymentIntent(input);
    const again = await createSandboxPaymentProvider({ webhookSecret: SECRET }).createPaymentIntent(input);
    expect(again).toEqual(first);
  });

  it('gives another intent for another key, and for the same key under another secret', async () => {
    const provider = createSandboxPaymentProvider({ webhookSecret: SECRET });
    const first = await provider.createPaymentIntent(input);
    const otherKey = await provider.createPaymentIntent({
      ...input,
      idempotencyKey: 'checkout:org_1:chk_1:2',
    });
    const otherSecret = await createSandboxPaymentProvider({
      webhookSecret: 'whsec_other',
    }).createPaymentIntent(input);
    expect(otherKey.intentId).not.toBe(first.intentId);
    expect(otherKey.clientSecret).not.toBe(first.clientSecret);
    expect(otherSecret.intentId).not.toBe(first.intentId);
  });

  it('refuses a key reused with another amount, as Stripe does, and still answers the original', async () => {
    const provider = createSandboxPaymentProvider({ webhookSecret: SECRET });
    const first = await provider.createPaymentIntent(input);
    await expect(provider.createPaymentIntent({ ...input, amountInCents: 4300 })).rejects.toMatchObject({
      code: 'PROVIDER_ERROR',
      status: 502,
    });
    await expect(
      provider.createPaymentIntent({ ...input, metadata: { ...input.metadata, orderId: 'ord_1' } }),
    ).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
    expect(await provider.createPaymentIntent({ ...input, metadata: { ...input.metadata } })).toEqual(first);
  });

  it.each([
    ['a zero amount', { amountInCents: 0 }],
    ['a fractional amount', { amountInCents: 10.5 }],
    ['a lower-case currency', { currency: 'usd' }],
    ['an empty key', { idempotencyKey: '' }],
    ['a key over 255 characters', { idempotencyKey: 'k'.repeat(256) }],
  ])('refuses %s as a provider error', async (_case, change) => {
    const provider = createSandboxPaymentProvider({ webhookSecret: SECRET });
    await expect(provider.createPaymentIntent({ ...input, ...change })).rejects.toMatchObject({
      code: 'PROVIDER_ERROR',
    });
  });

  it('verifies webhooks signed with its secret at the injected time', () => {
    const clock = new ManualClock('2026-11-23T18:00:00.000Z');
    const provider = createSandboxPaymentProvider({ webhookSecret: SECRET });
    const body = createPaymentEventBody({
      type: 'payment_intent.payment_failed',
      intentId: 'pi_sandbox_abc',
      createdAt: clock.now(),
    });
    const header = signWebhookPayload(SECRET, body, clock.now());
    expect(provider.verifyWebhook(body, header, clock.now())).toMatchObject({
      type: 'payment_intent.payment_failed',
      intentId: 'pi_sandbox_abc',
    });
    clock.advance(301_000);
    expect(() => provider.verifyWebhook(body, header, clock.now())).toThrow(WebhookSignatureError);
  });
});

describe('createPaymentProvider', () => {
  it('builds the sandbox by default and Stripe when configured', () => {
    expect(
      createPaymentProvider({ payments: { provider: 'sandbox', webhookSecret: SECRET, stripe: undefined } })
        .kind,
    ).toBe('sandbox');
    expect(
      createPaymentProvider({
        payments: {
          provider: 'stripe',
          webhookSecret: SECRET,
          stripe: { secretKey: 'sk_test_1', publishableKey: 'pk_test_1', accountId: undefined },
        },
      }).kind,
    ).toBe('stripe');
  });

  it('refuses stripe without its keys', () => {
    expect(() =>
      createPaymentProvider({ payments: { provider: 'stripe', webhookSecret: SECRET, stripe: undefined } }),
    ).toThrow(/STRIPE_SECRET_KEY/);
  });
});

describe('sandbox payment provider: cancelPaymentIntent', () => {
  it('cancels any intent of its shape, again and from another instance, without state', async () => {
    const provider = createSandboxPaymentProvider({ webhookSecret: SECRET });
    const { intentId } = await provider.createPaymentIntent(input);
    expect(await provider.cancelPaymentIntent(intentId, { idempotencyKey: 'pat_1:cancel' })).toEqual({
      outcome: 'canceled',
    });
    expect(await provider.cancelPaymentIntent(intentId, { idempotencyKey: 'pat_1:cancel' })).toEqual({
      outcome: 'canceled',
    });
    const restarted = createSandboxPaymentProvider({ webhookSecret: SECRET });
    expect(await restarted.cancelPaymentIntent(intentId, { idempotencyKey: 'other' })).toEqual({
      outcome: 'canceled',
    });
  });

  it.each([
    ['a Stripe intent id', 'pi_3QabcDEF'],
    ['a short sandbox id', 'pi_sandbox_abc'],
    ['an upper-case sandbox id', 'pi_sandbox_ABCDEF0123456789ABCDEF01'],
    ['a path', 'pi_sandbox_0123456789abcdef01234567/x'],
  ])('refuses %s as an unknown intent (PROVIDER_ERROR)', async (_case, intentId) => {
    const provider = createSandboxPaymentProvider({ webhookSecret: SECRET });
    await expect(provider.cancelPaymentIntent(intentId, { idempotencyKey: 'k' })).rejects.toMatchObject({
      code: 'PROVIDER_ERROR',
      status: 502,
    });
  });

  it('refuses an empty idempotency key', async () => {
    const provider = createSandboxPaymentProvider({ webhookSecret: SECRET });
    const { intentId } = await provider.createPaymentIntent(input);
    await expect(provider.cancelPaymentIntent(intentId, { idempotencyKey: '' })).rejects.toMatchObject({
      code: 'PROVIDER_ERROR',
    });
  });
});

describe('sandbox payment provider: refundPayment', () => {
  const refundOptions = { idempotencyKey: 'pat_1:refund', metadata: { orderId: 'ord_1' } };

  it('refunds an intent of its shape, the same refund again for the same key, another for another key', async () => {
    const provider = createSandboxPaymentProvider({ webhookSecret: SECRET });
    const { intentId } = await provider.createPaymentIntent(input);
    const first = await provider.refundPayment(intentId, refundOptions);
    expect(first).toEqual({
      outcome: 'refunded',
      refundId: expect.stringMatching(/^re_sandbox_[0-9a-f]{24}$/),
    });
    const again = await createSandboxPaymentProvider({ webhookSecret: SECRET }).refundPayment(
      intentId,
      refundOptions,
    );
    expect(again).toEqual(first);
    const other = await provider.refundPayment(intentId, {
      ...refundOptions,
      idempotencyKey: 'pat_2:refund',
    });
    expect(other).not.toEqual(first);
  });

  it('refuses an intent of another shape and an empty key as the processor would', async () => {
    const provider = createSandboxPaymentProvider({ webhookSecret: SECRET });
    await expect(provider.refundPayment('pi_unknown', refundOptions)).rejects.toMatchObject({
      code: 'PROVIDER_ERROR',
    });
    const { intentId } = await provider.createPaymentIntent(input);
    await expect(
      provider.refundPayment(intentId, { ...refundOptions, idempotencyKey: '' }),
    ).rejects.toMatchObject({ code: 'PROVIDER_ERROR' });
  });
});
