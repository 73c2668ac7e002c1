import { createHmac } from 'node:crypto';
import { ManualClock } from '@commerce/core';
import { describe, expect, it } from 'vitest';
import { WebhookPayloadError, WebhookSignatureError } from './provider.ts';
import { createPaymentEventBody, signWebhookPayload, verifySignedWebhook } from './webhooks.ts';

const SECRET = 'whsec_test_0123456789';
const clock = new ManualClock('2026-11-23T18:00:00.000Z');
const body = createPaymentEventBody({
  id: 'evt_1',
  type: 'payment_intent.succeeded',
  intentId: 'pi_123',
  amountInCents: 2599,
  currency: 'EUR',
  metadata: { organizationId: 'org_1', checkoutSessionId: 'chk_1' },
  createdAt: clock.now(),
});

/** The `Stripe-Signature` scheme written out by hand, independent of the SDK. */
function contractSignature(secret: string, payload: string, unixSeconds: number): string {
  const hex = createHmac('sha256', secret).update(`${unixSeconds}.${payload}`).digest('hex');
  return `t=${unixSeconds},v1=${hex}`;
}

const unix = (date: Date) => Math.floor(date.getTime() / 1000);
const verify = (header: string | undefined, payload = body, at = clock.now()) =>
  verifySignedWebhook(SECRET, payload, header, at);

describe('signWebhookPayload', () => {
  it('produces exactly the contract header: t=<unix>,v1=<hex HMAC-SHA256 of "<t>.<body>">', () => {
    expect(signWebhookPayload(SECRET, body, clock.now())).toBe(
      contractSignature(SECRET, body, unix(clock.now())),
    );
  });
});

describe('verifySignedWebhook', () => {
  it('accepts a contract signature and reads the payment intent out of the event', () => {
    expect(verify(contractSignature(SECRET, body, unix(clock.now())))).toEqual({
      id: 'evt_1',
      type: 'payment_intent.succeeded',
      intentId: 'pi_123',
      amountInCents: 2599,
      currency: 'EUR',
      metadata: { organizationId: 'org_1', checkoutSessionId: 'chk_1' },
      createdAt: clock.now(),
    });
  });

  it('accepts a signature up to five minutes old or ahead, and refuses one a second beyond', () => {
    const now = clock.now();
    const at = (seconds: number) => contractSignature(SECRET, body, unix(now) + seconds);
    expect(verify(at(-300)).id).toBe('evt_1');
    expect(verify(at(300)).id).toBe('evt_1');
    expect(() => verify(at(-301))).toThrow(/tolerance/);
    expect(() => verify(at(301))).toThrow(/future/);
    expect(() => verify(at(-301))).toThrow(WebhookSignatureError);
    expect(() => verify(at(301))).toThrow(WebhookSignatureError);
  });

  it('accepts a header carrying several v1 signatures when one matches (secret rotation)', () => {
    const t = unix(clock.now());
    const good = contractSignature(SECRET, body, t).split(',')[1];
    const other = contractSignature('whsec_old', body, t).split(',')[1];
    expect(verify(`t=${t},${other},${good}`).id).toBe('evt_1');
  });

  it.each([
    ['a missing header', undefined],
    ['an empty header', ''],
    ['a header without a timestamp', `v1=${'a'.repeat(64)}`],
    ['a header without a v1 signature', `t=${unix(clock.now())},v0=${'a'.repeat(64)}`],
    ['a wrong signature', `t=${unix(clock.now())},v1=${'0'.repeat(64)}`],
    ['another secret', contractSignature('whsec_other', body, unix(clock.now()))],
    ['garbage', 'not a signature'],
  ])('refuses %s', (_case, header) => {
    expect(() => verify(header)).toThrow(WebhookSignatureError);
  });

  it('refuses a body changed after signing', () => {
    const header = contractSignature(SECRET, body, unix(clock.now()));
    expect(() => verify(header, body.replace('2599', '1'))).toThrow(WebhookSignatureError);
    expect(() => verify(header, `${body} `)).toThrow(WebhookSignatureError);
  });

  it('refuses a signed body that is not an event as a payload error, not a signature error', () => {
    for (const payload of ['not json', '[]', '{"type":"payment_intent.succeeded"}', '{"id":"evt_2"}']) {
      const header = contractSignature(SECRET, payload, unix(clock.now()));
      expect(() => verify(header, payload), payload).toThrow(WebhookPayloadError);
    }
  });

  it('reads other event types with no intent when their object is not a payment intent', () => {
    const payload = JSON.stringify({
      id: 'evt_3',
      type: 'customer.created',
      created: unix(clock.now()),
      data: { object: { id: 'cus_1', object: 'customer', metadata: { a: 'b' } } },
    });
    expect(verify(contractSignature(SECRET, payload, unix(clock.now())), payload)).toMatchObject({
      id: 'evt_3',
      type: 'customer.created',
      intentId: null,
      amountInCents: null,
      metadata: {},
    });
  });
});
