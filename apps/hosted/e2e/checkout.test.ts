import { SANDBOX_PUBLISHABLE_KEY as PROVIDER_SANDBOX_KEY } from '@commerce/payments';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { paymentFormFor, SANDBOX_PUBLISHABLE_KEY } from '../src/lib/payment-form.ts';
import { RESULT_POLL_LIMIT_MS } from '../src/lib/result-polling.ts';
import {
  bodyOf,
  checkPage,
  heading,
  type Merchant,
  openCheckoutSession,
  ownerOf,
  readCheckoutSession,
} from './checkout-support.ts';
import { type Hosted, startHosted } from './harness.ts';

/**
 * The hosted checkout in headless Chromium: a positive total paid with the
 * sandbox card, a declined card then another, a free order, an expired link. One gateway and one
 * browser for the file; axe-core and a screenshot on every page visited.
 */
const SLUG = 'checkout-shop';
let hosted: Hosted;
let owner: Merchant;
let mug: string;
let sticker: string;

interface Session {
  id: string;
  checkoutToken: string;
  status: string;
  orderId: string | null;
  paymentStatus: string | null;
  totalInCents: number;
}

beforeAll(async () => {
  hosted = await startHosted();
  await hosted.provision(SLUG);
  owner = await ownerOf(hosted, SLUG);
  const item = (body: Record<string, unknown>) =>
    owner
      .created<{ id: string }>(
        owner.call('POST', '/merchant/items', { type: 'SALE', status: 'ACTIVE', ...body }),
        'item',
      )
      .then((created) => created.id);
  mug = await item({ slug: 'mug', name: 'Mug', priceInCents: 1250 });
  sticker = await item({ slug: 'sticker', name: 'Sticker', type: 'SERVICE', priceInCents: 0 });
  const zone = await owner.created<{ id: string }>(
    owner.call('POST', '/merchant/shipping/zones', { name: 'Americas', countries: ['US', 'CA'] }),
    'zone',
  );
  for (const [name, priceInCents] of [
    ['Standard', 500],
    ['Express', 1500],
  ] as const)
    await owner.created(
      owner.call('POST', `/merchant/shipping/zones/${zone.id}/rates`, { name, priceInCents }),
      'rate',
    );
});
afterAll(async () => hosted?.close());

const openSession = (lines: { itemId: string; quantity: number }[]) =>
  openCheckoutSession<Session>(hosted, SLUG, lines);
const readSession = (token: string) => readCheckoutSession<Session>(hosted, SLUG, token);

/** Fills the details and address form (labels as the customer sees them) and saves it. */
async function fillDetails(page: Page, options: { address: boolean }) {
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Full name').fill('Ada Lovelace');
  if (options.address) {
    await page.getByLabel('Address', { exact: true }).fill('1 Main Street');
    await page.getByLabel('City').fill('Springfield');
    await page.getByLabel('Postal code').fill('12345');
    await page.getByLabel('Country').selectOption('US');
  }
}

/** Types a test card; `keyboard` moves between the fields with Tab and submits with Enter. */
async function payWithCard(page: Page, number: string, options: { keyboard?: boolean } = {}) {
  if (options.keyboard) {
    await page.getByLabel('Card number').focus();
    await page.keyboard.type(number);
    await page.keyboard.press('Tab');
    await page.keyboard.type('12/39');
    await page.keyboard.press('Tab');
    await page.keyboard.type('123');
    await page.keyboard.press('Enter');
    return;
  }
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry (MM/YY)').fill('12/39');
  await page.getByLabel('CVC').fill('123');
  await page.getByRole('button', { name: /^Pay / }).click();
}

describe('checkout', () => {
  it('pays a positive total with the sandbox card at phone width, shipping to an address', async () => {
    const session = await openSession([{ itemId: mug, quantity: 2 }]);
    const { page } = await hosted.newPage({ width: 390 });
    await page.goto(`/hosted/${SLUG}/checkout?token=${session.checkoutToken}`);
    await heading(page, 'Checkout');
    expect(await page.getByText('$25.00').count()).toBeGreaterThan(0);
    await checkPage(page, 'checkout-details');

    await fillDetails(page, { address: true });
    await page.getByRole('button', { name: 'Continue to shipping' }).click();
    await page.getByRole('group', { name: 'Shipping method' }).waitFor();
    // The cheapest rate is chosen by the server; Express is picked by keyboard (arrow keys in the group).
    const standard = page.getByRole('radio', { name: /Standard/ });
    await expect.poll(() => standard.isChecked()).toBe(true);
    await standard.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => page.getByRole('radio', { name: /Express/ }).isChecked()).toBe(true);
    await page.getByText('$40.00').first().waitFor(); // 2 × 12.50 + 15.00, repriced by the server
    await checkPage(page, 'checkout-shipping');

    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await heading(page, 'Payment');
    await heading(page, 'Pay $40.00');
    // The new step takes the focus (the main region), not a button that is gone.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('main');
    await checkPage(page, 'checkout-payment');
    await payWithCard(page, '4242 4242 4242 4242');

    await heading(page, 'Thank you for your order');
    await page.getByText('Your payment was received and your order is placed.').waitFor();
    await checkPage(page, 'checkout-result-paid');

    // The order, as the store sees it: paid, with the address and the rate the customer chose.
    const paid = await readSession(session.checkoutToken);
    expect(paid).toMatchObject({ status: 'COMPLETED', paymentStatus: 'PAID', totalInCents: 4000 });
    const order = await bodyOf<{
      paymentStatus: string;
      totalInCents?: number;
      shippingAddress: { line1: string; country: string; name: string } | null;
      customerEmail?: string;
    }>(await owner.call('GET', `/merchant/orders/${paid.orderId}`), 'order', 200);
    expect(order.paymentStatus).toBe('PAID');
    expect(order.shippingAddress).toMatchObject({
      line1: '1 Main Street',
      country: 'US',
      name: 'Ada Lovelace',
    });
  });

  it('shows a declined card, re-arms the payment, then pays with another card', async () => {
    const session = await openSession([{ itemId: mug, quantity: 1 }]);
    const { page } = await hosted.newPage();
    await page.goto(`/hosted/${SLUG}/checkout?token=${session.checkoutToken}`);
    await fillDetails(page, { address: true });
    await page.getByRole('button', { name: 'Continue to shipping' }).click();
    await page.getByRole('group', { name: 'Shipping method' }).waitFor();
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await heading(page, 'Pay $17.50');

    // Before any card: the result page reads the server, which is still waiting for the processor.
    // Each result page runs on its own clock, so its 30 s of polling neither runs out nor depends on
    // how fast this machine pays: one is paused until the payment is made, one is moved past the wait.
    const waiting = await hosted.newPage();
    await waiting.page.clock.install();
    await waiting.page.goto(`/hosted/${SLUG}/checkout/result?token=${session.checkoutToken}`);
    await heading(waiting.page, 'Confirming your payment');
    await checkPage(waiting.page, 'checkout-result-processing');
    await waiting.page.clock.pauseAt(Date.now() + 1_000);
    const late = await hosted.newPage();
    await late.page.clock.install();
    await late.page.goto(`/hosted/${SLUG}/checkout/result?token=${session.checkoutToken}`);
    await heading(late.page, 'Confirming your payment');
    // Past the wait, polling stops and the page says so; it checks again only when asked.
    await late.page.clock.fastForward(RESULT_POLL_LIMIT_MS + 1_000);
    await heading(late.page, 'Your payment is still processing');
    await checkPage(late.page, 'checkout-result-still-processing');

    await payWithCard(page, '4000 0000 0000 9995');
    await page.getByText('Your card was declined: insufficient funds. Try another card.').waitFor();
    await checkPage(page, 'checkout-payment-declined');
    // The decline reached the server through the processor's webhook path; the page re-armed the same payment.
    await expect.poll(async () => (await readSession(session.checkoutToken)).status).toBe('AWAITING_PAYMENT');
    expect(await page.getByLabel('Card number').inputValue()).toBe('');

    await payWithCard(page, '4000 0000 0000 0002', { keyboard: true });
    await page.getByText('Your card was declined. Try another card.').waitFor();
    await payWithCard(page, '4242424242424242', { keyboard: true });
    await heading(page, 'Thank you for your order');
    expect(await readSession(session.checkoutToken)).toMatchObject({
      status: 'COMPLETED',
      paymentStatus: 'PAID',
    });
    // The waiting page, its clock running again, sees the server settle at its next poll.
    await waiting.page.clock.resume();
    await heading(waiting.page, 'Thank you for your order');
    // The page past its wait still says "processing" until asked to check again.
    expect(await late.page.getByRole('heading', { name: 'Your payment is still processing' }).count()).toBe(
      1,
    );
    await late.page.getByRole('button', { name: 'Check again' }).click();
    await heading(late.page, 'Thank you for your order');
  });

  it('places a free order through confirm-free, without a card', async () => {
    const session = await openSession([{ itemId: sticker, quantity: 1 }]);
    const { page } = await hosted.newPage();
    await page.goto(`/hosted/${SLUG}/checkout?token=${session.checkoutToken}`);
    await heading(page, 'Checkout');
    // A service line does not ship: no address is asked for.
    expect(await page.getByLabel('Postal code').count()).toBe(0);
    await fillDetails(page, { address: false });
    await page.getByRole('button', { name: 'Continue', exact: true }).click();
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await heading(page, 'Place your order');
    expect(await page.getByLabel('Card number').count()).toBe(0);
    await checkPage(page, 'checkout-free');
    await page.getByRole('button', { name: 'Place order' }).click();
    await heading(page, 'Thank you for your order');
    await page.getByText('Your order is placed.').waitFor();
    await checkPage(page, 'checkout-result-free');
    const done = await readSession(session.checkoutToken);
    expect(done).toMatchObject({ status: 'COMPLETED', paymentStatus: 'NOT_REQUIRED', totalInCents: 0 });
    expect(done.orderId).not.toBeNull();
  });

  it('says plainly that an expired or unknown checkout link does not work', async () => {
    const session = await openSession([{ itemId: mug, quantity: 1 }]);
    await hosted.database.db
      .updateTable('checkout_sessions')
      .set({ expires_at: new Date(Date.now() - 60_000) })
      .where('id', '=', session.id)
      .execute();
    const { page } = await hosted.newPage();
    await page.goto(`/hosted/${SLUG}/checkout?token=${session.checkoutToken}`);
    await heading(page, 'This checkout link does not work');
    await checkPage(page, 'checkout-expired');
    await page.goto(`/hosted/${SLUG}/checkout/pay?token=c1_unknown`);
    await heading(page, 'This checkout link does not work');
    await page.goto(`/hosted/${SLUG}/checkout/result?token=${session.checkoutToken}`);
    await heading(page, 'This checkout link does not work');
  });
});

describe('payment form choice', () => {
  // Stripe's Payment Element cannot load here (no network): the choice of form is what is tested.
  it('shows the sandbox card form for the sandbox processor’s key only, Stripe’s Payment Element otherwise', () => {
    expect(SANDBOX_PUBLISHABLE_KEY).toBe(PROVIDER_SANDBOX_KEY);
    expect(paymentFormFor(PROVIDER_SANDBOX_KEY)).toBe('SANDBOX');
    expect(paymentFormFor('pk_test_51HxYz')).toBe('STRIPE');
    expect(paymentFormFor('pk_live_51HxYz')).toBe('STRIPE');
  });
});
