import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, checkPage, heading, type Merchant, ownerOf } from './checkout-support.ts';
import { type Hosted, signIn, startHosted } from './harness.ts';

/**
 * The whole shopper journey in one browser session: sign in by a code read from the mail
 * log, check out a positive total with the sandbox card from the link a storefront hands over
 * (`/checkout/<c1_ token>`), see the order in the account once the store ships it, open a return and
 * cancel it. The other files test each part in depth; this one proves they join up.
 */
const SLUG = 'journey-shop';
const EMAIL = 'ada@example.com';
let hosted: Hosted;
let owner: Merchant;
let lamp: string;

beforeAll(async () => {
  hosted = await startHosted();
  await hosted.provision(SLUG);
  owner = await ownerOf(hosted, SLUG);
  lamp = (
    await owner.created<{ id: string }>(
      owner.call('POST', '/merchant/items', {
        slug: 'lamp',
        name: 'Lamp',
        type: 'SALE',
        status: 'ACTIVE',
        priceInCents: 2000,
      }),
      'item',
    )
  ).id;
  const zone = await owner.created<{ id: string }>(
    owner.call('POST', '/merchant/shipping/zones', { name: 'Domestic', countries: ['US'] }),
    'zone',
  );
  await owner.created(
    owner.call('POST', `/merchant/shipping/zones/${zone.id}/rates`, { name: 'Standard', priceInCents: 500 }),
    'rate',
  );
});
afterAll(async () => hosted?.close());

describe('the shopper journey', () => {
  it('signs in by code, pays with the sandbox card, sees the shipped order, opens a return and cancels it', async () => {
    const { page } = await hosted.newPage();
    await signIn(hosted, page, SLUG, EMAIL);

    // The storefront's server creates the session and sends the shopper to the hosted page.
    const session = await bodyOf<{ checkoutToken: string }>(
      await hosted.api('/public/checkout/sessions', {
        method: 'POST',
        slug: SLUG,
        body: JSON.stringify({ lines: [{ itemId: lamp, quantity: 2 }], email: EMAIL }),
      }),
      'session',
      201,
    );
    await page.goto(`/hosted/${SLUG}/checkout/${session.checkoutToken}`);
    await heading(page, 'Checkout');
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Full name').fill('Ada Lovelace');
    await page.getByLabel('Address', { exact: true }).fill('1 Main Street');
    await page.getByLabel('City').fill('Springfield');
    await page.getByLabel('Postal code').fill('12345');
    await page.getByLabel('Country').selectOption('US');
    await page.getByRole('button', { name: 'Continue to shipping' }).click();
    await page.getByRole('group', { name: 'Shipping method' }).waitFor();
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await heading(page, 'Pay $45.00');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/39');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: /^Pay / }).click();
    await heading(page, 'Thank you for your order');
    await checkPage(page, 'journey-paid');

    // The store ships it (a direct fulfillment), which makes it returnable.
    const paid = await bodyOf<{ orderId: string; paymentStatus: string }>(
      await hosted.api(`/public/checkout/sessions/${session.checkoutToken}`, { slug: SLUG }),
      'session read',
      200,
    );
    expect(paid.paymentStatus).toBe('PAID');
    const order = await bodyOf<{ orderNumber: number; orderReference: string; items: { id: string }[] }>(
      await owner.call('GET', `/merchant/orders/${paid.orderId}`),
      'order',
      200,
    );
    for (const status of ['CONFIRMED', 'PROCESSING'])
      await bodyOf(
        await owner.call('PATCH', `/merchant/orders/${paid.orderId}/status`, { status }),
        status,
        200,
      );
    await owner.created(
      owner.call(
        'POST',
        `/merchant/commerce/orders/${paid.orderId}/fulfillments`,
        {
          lines: [{ lineId: order.items[0]!.id, quantity: 2 }],
          notifyCustomer: false,
          tracking: { carrier: 'UPS', trackingNumber: '1Z999' },
        },
        { 'x-idempotency-key': `journey-${paid.orderId}` },
      ),
      'fulfillment',
    );

    // The account shows the order the shopper just paid, with its shipment.
    await page.goto(`/hosted/${SLUG}/account`);
    await page.getByRole('link', { name: 'Orders and returns' }).click();
    await page.getByRole('heading', { name: 'Your orders' }).waitFor();
    await page.getByRole('link', { name: `Order #${order.orderNumber}` }).click();
    await page.getByRole('heading', { name: `Order #${order.orderNumber}` }).waitFor();
    expect(page.url()).toBe(`${hosted.origin}/hosted/${SLUG}/account/orders/${order.orderReference}`);
    await page.getByRole('cell', { name: 'Lamp' }).waitFor();
    expect(await page.getByText('1Z999').count()).toBe(1);
    await checkPage(page, 'journey-order');

    // A return of one lamp, then cancelled while it is still requested.
    await page.getByLabel('Quantity to return (up to 2)').fill('1');
    await page.getByLabel('Reason').selectOption('SIZE_OR_FIT');
    await page.getByRole('button', { name: 'Request return' }).click();
    await page.getByText('Your return was requested.').waitFor();
    await checkPage(page, 'journey-return');
    await page.getByRole('button', { name: 'Cancel this return' }).click();
    await page.getByText('Cancelled', { exact: true }).waitFor();
    const returns = await hosted.database.db.selectFrom('returns').select(['status', 'order_id']).execute();
    expect(returns).toEqual([{ status: 'CANCELLED', order_id: paid.orderId }]);
  });
});
