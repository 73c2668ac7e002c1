import { queueAbandonedCartEmails } from '@commerce/orders';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Hosted, linkOf, screenshot, seriousViolations, shippedOrder, startHosted } from './harness.ts';

let hosted: Hosted;
beforeAll(async () => {
  hosted = await startHosted();
  await hosted.provision('acme');
});
afterAll(async () => hosted?.close());

/** An item with one variant at `inventoryQuantity`, created by the Owner. */
async function itemWithVariant(inventoryQuantity: number) {
  const item = await hosted.merchant<{ id: string }>('acme', 'POST', '/merchant/items', {
    slug: `lamp-${Date.now()}`,
    name: 'Lamp',
    type: 'SALE',
    status: 'ACTIVE',
    priceInCents: 9900,
  });
  const variant = await hosted.merchant<{ id: string }>(
    'acme',
    'POST',
    `/merchant/items/${item.id}/variants`,
    {
      name: 'Brass',
      priceInCents: 2500,
      inventoryQuantity,
    },
  );
  return { itemId: item.id, variantId: variant.id };
}

describe('emailed links', () => {
  it('opens the order-status link of the confirmation email, read-only and without sign-in', async () => {
    const sent = new Date();
    const order = await shippedOrder(hosted, 'acme', 'status@example.com');
    const mail = await hosted.mail('status@example.com', sent, /order-status\?token=/);
    const link = linkOf(mail.text, '/order-status?token=');
    expect(link).toBe(`${hosted.origin}/hosted/acme/order-status?token=${order.orderStatusToken}`);

    const { page } = await hosted.newPage();
    await page.goto(link);
    await page.getByRole('heading', { name: `Order #${order.orderNumber}` }).waitFor();
    await page.getByRole('cell', { name: 'Tee' }).waitFor();
    expect(await page.getByText('TRACK123').count()).toBe(1);
    expect(await page.getByText('$30.00').count()).toBeGreaterThan(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'order-status');

    // At the root (a base without {orgSlug}) the token names the store.
    await page.goto(`/order-status?token=${order.orderStatusToken}`);
    await page.getByRole('heading', { name: `Order #${order.orderNumber}` }).waitFor();
    expect(page.url()).toBe(link);

    await page.goto('/hosted/acme/order-status?token=o1_unknown');
    await page.getByRole('heading', { name: 'Order not found' }).waitFor();
    await page.goto('/order-status?token=o1_unknown');
    await page.getByRole('heading', { name: 'We could not tell which store this is' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('unsubscribes from back-in-stock emails through the link of one', async () => {
    const { itemId, variantId } = await itemWithVariant(0);
    const signup = await hosted.api(`/public/items/${itemId}/stock-notifications`, {
      method: 'POST',
      slug: 'acme',
      body: JSON.stringify({ email: 'waiting@example.com', variantId }),
    });
    expect(signup.status).toBeLessThan(300);
    const sent = new Date();
    await hosted.merchant('acme', 'PATCH', `/merchant/items/${itemId}/variants/${variantId}`, {
      inventoryQuantity: 3,
    });
    const mail = await hosted.mail('waiting@example.com', sent, /email\/unsubscribe\?token=/);
    const link = linkOf(mail.text, '/email/unsubscribe?token=');
    expect(link.startsWith(`${hosted.origin}/hosted/acme/email/unsubscribe?token=u1_`)).toBe(true);

    const { page } = await hosted.newPage();
    await page.goto(link);
    await page.getByRole('heading', { name: 'Unsubscribe from these emails' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // Opening the link changes nothing: a press does.
    expect(await hosted.database.db.selectFrom('stock_subscriptions').select('status').execute()).toEqual([
      { status: 'NOTIFIED' },
    ]);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
    expect(await page.getByText('You will get no more emails about Lamp').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'email-unsubscribe');
    expect(await hosted.database.db.selectFrom('stock_subscriptions').select('status').execute()).toEqual([
      { status: 'UNSUBSCRIBED' },
    ]);

    await page.goto('/hosted/acme/email/unsubscribe?token=u1_unknown');
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByRole('heading', { name: 'This link does not work' }).waitFor();
  });

  it('stops abandoned-cart reminders through the link of one', async () => {
    const { itemId, variantId } = await itemWithVariant(5);
    const session = await hosted.api('/public/checkout/sessions', {
      method: 'POST',
      slug: 'acme',
      body: JSON.stringify({ lines: [{ itemId, variantId, quantity: 1 }], email: 'cart@example.com' }),
    });
    expect(session.status).toBe(201);
    const sent = new Date();
    // The worker's reminder sweep, with no delay so that the session is due now (the worker sends
    // what is due by the system clock).
    const queued = await queueAbandonedCartEmails(hosted.database.db, {
      at: new Date(),
      delayMinutes: 0,
      email: { emailFrom: hosted.config.email.from, linkBase: hosted.config.hostedCheckoutUrl },
    });
    expect(queued).toBe(1);
    const mail = await hosted.mail('cart@example.com', sent, /cart\/reminders\/unsubscribe\?token=/);
    const link = linkOf(mail.text, '/cart/reminders/unsubscribe?token=');
    expect(link.startsWith(`${hosted.origin}/hosted/acme/cart/reminders/unsubscribe?token=u1_`)).toBe(true);

    const { page } = await hosted.newPage();
    // At the root: the token names the store.
    await page.goto(link.replace('/hosted/acme', ''));
    await page.getByRole('heading', { name: 'Stop cart reminders' }).waitFor();
    expect(page.url()).toBe(link);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Unsubscribe' }).click();
    await page.getByRole('heading', { name: 'You are unsubscribed' }).waitFor();
    expect(await page.getByText('You will get no more cart reminders from this store.').count()).toBe(1);
    expect(await hosted.database.db.selectFrom('abandoned_cart_opt_outs').select('email').execute()).toEqual([
      { email: 'cart@example.com' },
    ]);
  });
});
