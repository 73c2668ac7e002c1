import { loadConfig } from '@commerce/core';
import { createPaymentEventBody, signWebhookPayload } from '@commerce/payments';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { created, createItem, createVariant } from '../support/catalog-fixture.ts';
import { createHarness, expectError, type Harness } from '../support/harness.ts';
import { createRoleFixture, type RoleFixture } from '../support/roles.ts';

// The harness's configuration: the same webhook secret.
const config = loadConfig({ NODE_ENV: 'test' });

let h: Harness;
let shop: RoleFixture;
let itemId: string;
let variantId: string;

beforeAll(async () => {
  h = await createHarness();
  shop = await createRoleFixture(h, 'cancel-shop');
  itemId = await createItem(shop, { slug: 'kettle', name: 'Kettle', type: 'SALE', status: 'ACTIVE' });
  variantId = await createVariant(shop, itemId, { name: 'Steel', priceInCents: 4200, inventoryQuantity: 1 });
});

afterAll(async () => {
  await h.close();
});

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  h.app.request(`/api/v1${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const steps = (token: string) => `/public/checkout/sessions/${token}`;

const stock = async () =>
  (
    (await (await shop.call('owner', 'GET', `/merchant/items/${itemId}/variants/${variantId}`)).json()) as {
      inventoryQuantity: number;
    }
  ).inventoryQuantity;

const order = async (orderId: string) =>
  (await (await shop.call('owner', 'GET', `/merchant/orders/${orderId}`)).json()) as {
    status: string;
    paymentStatus: string;
  };

function webhook(type: string, intentId: string) {
  const body = createPaymentEventBody({
    type,
    intentId,
    amountInCents: 4200,
    currency: 'USD',
    createdAt: h.clock.now(),
  });
  return h.app.request('/api/v1/webhooks/payments', {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': signWebhookPayload(config.payments.webhookSecret, body, h.clock.now()),
    },
    body,
  });
}

describe('a cancelled order over HTTP', () => {
  it('gives the stock back, refuses payment-session, and refunds a payment that still arrives', async () => {
    const session = await created<{ checkoutToken: string }>(
      await post(
        '/public/checkout/sessions',
        {
          lines: [{ itemId, variantId, quantity: 1 }],
          email: 'grace@example.com',
          customerName: 'Grace Hopper',
        },
        { 'x-organization-slug': 'cancel-shop' },
      ),
      'session',
    );
    expect(
      (await post(`${steps(session.checkoutToken)}/bind`, {}, { 'x-organization-slug': 'cancel-shop' }))
        .status,
    ).toBe(200);
    const paying = await post(`${steps(session.checkoutToken)}/payment-session`, {});
    expect(paying.status).toBe(200);
    const handoff = (await paying.json()) as { clientSecret: string; orderId: string };
    const [intentId] = handoff.clientSecret.split('_secret_');
    expect(await stock()).toBe(0);

    const cancelled = await shop.call('owner', 'PATCH', `/merchant/orders/${handoff.orderId}/status`, {
      status: 'CANCELLED',
    });
    expect(cancelled.status).toBe(200);
    expect(await cancelled.json()).toMatchObject({ status: 'CANCELLED', paymentStatus: 'FAILED' });
    expect(await stock()).toBe(1);

    const again = await expectError(
      await post(`${steps(session.checkoutToken)}/payment-session`, {}),
      409,
      'INVALID_STATE_TRANSITION',
    );
    expect(again.message).toContain('cancelled');

    const late = await webhook('payment_intent.succeeded', intentId!);
    expect(late.status).toBe(200);
    expect(await late.json()).toEqual({ received: true, outcome: 'processed' });
    expect(await order(handoff.orderId)).toEqual(
      expect.objectContaining({ status: 'CANCELLED', paymentStatus: 'REFUNDED' }),
    );
    expect(await stock()).toBe(1);
    // The sandbox refunded it right after the webhook's commit.
    const attempt = await h.database.db
      .selectFrom('payment_attempts')
      .select(['status', 'provider_action', 'refund_id'])
      .where('order_id', '=', handoff.orderId)
      .executeTakeFirstOrThrow();
    expect(attempt).toEqual({
      status: 'REFUNDED',
      provider_action: null,
      refund_id: expect.stringMatching(/^re_sandbox_[0-9a-f]{24}$/),
    });
    const emails = await h.database.db
      .selectFrom('outbox')
      .select('metadata')
      .where('organization_id', '=', shop.organizationId)
      .execute();
    expect(emails.map((row) => (row.metadata as { templateType: string }).templateType)).not.toContain(
      'ORDER_CONFIRMATION',
    );
    const refundedOrders = await shop.call('owner', 'GET', '/merchant/orders?paymentStatus=REFUNDED');
    expect(((await refundedOrders.json()) as { data: { id: string }[] }).data.map((row) => row.id)).toEqual([
      handoff.orderId,
    ]);
    expect(
      h.logs.some(
        (line) =>
          line.msg === 'payment for a cancelled order: refunding it' && line.orderId === handoff.orderId,
      ),
    ).toBe(true);
  });

  it('documents REFUNDED and CANCELLED in the OpenAPI enums', async () => {
    const document = (await (await h.app.request('/api/v1/openapi.json')).json()) as unknown;
    const text = JSON.stringify(document);
    const enums = [...text.matchAll(/"enum":\[([^\]]*)\]/g)].map((match) => match[1]!);
    expect(enums).toContain('"NOT_REQUIRED","AWAITING_PAYMENT","PAID","FAILED","REFUNDED"');
    expect(enums).toContain(
      '"OPEN","BOUND","AWAITING_PAYMENT","PAYMENT_FAILED","COMPLETED","EXPIRED","CANCELLED"',
    );
  });
});
