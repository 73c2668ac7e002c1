import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, checkPage, heading, type Merchant, ownerOf } from './checkout-support.ts';
import { type Hosted, screenshot, signIn, startHosted } from './harness.ts';

/**
 * The pages after checkout: the confirmation names the order as the store does (its
 * number), where it ships and how, what was paid and a way back to the store's website; the
 * customer's order page says one status that agrees with the shipments, shows the ship-to address,
 * and its totals read as checkout's did (same labels, order and amounts). One order, paid through
 * the pages with sandbox tax, then shipped and delivered by the Owner.
 */
const SLUG = 'order-pages';
const WEBSITE = 'https://order-pages.example.com/';
const EMAIL = 'ada@example.com';
let hosted: Hosted;
let owner: Merchant;
let mug: string;
/** The checkout summary's totals as the shopper saw them before paying: [label, amount] pairs. */
let checkoutTotals: string[][];
let placed: { id: string; orderNumber: number; orderReference: string; items: { id: string }[] };

/** The ship-to address as the pages show it, line by line. */
const SHIP_TO = ['Ada Lovelace', '1 Main Street', 'Springfield, 12345', 'United States'];
/** A time with its zone named: "Nov 29, 2026, 7:05 AM UTC" (or GMT+1, PST, …). */
const WITH_ZONE = /\d{1,2}:\d{2}\s?[AP]M\s+(UTC|GMT([+-]\d{1,2}(:\d{2})?)?|[A-Z]{2,5})$/;

beforeAll(async () => {
  hosted = await startHosted({ TAX_PROVIDER: 'sandbox' });
  await hosted.provision(SLUG);
  owner = await ownerOf(hosted, SLUG);
  mug = (
    await owner.created<{ id: string }>(
      owner.call('POST', '/merchant/items', {
        type: 'SALE',
        status: 'ACTIVE',
        slug: 'mug',
        name: 'Mug',
        priceInCents: 1250,
      }),
      'item',
    )
  ).id;
  const zone = await owner.created<{ id: string }>(
    owner.call('POST', '/merchant/shipping/zones', { name: 'Americas', countries: ['US'] }),
    'zone',
  );
  await owner.created(
    owner.call('POST', `/merchant/shipping/zones/${zone.id}/rates`, { name: 'Standard', priceInCents: 500 }),
    'rate',
  );
  await owner.created(
    owner.call('PATCH', '/merchant/settings', { businessProfile: { websiteUrl: WEBSITE } }),
    'settings',
    200,
  );
});
afterAll(async () => hosted?.close());

/** The label and amount of every line of the totals list in `scope`. */
async function totalsOf(page: Page, scope: string): Promise<string[][]> {
  const list = page.locator(`${scope} dl.totals`).first();
  await list.waitFor();
  const labels = await list.locator('dt').allTextContents();
  const amounts = await list.locator('dd').allTextContents();
  return labels.map((label, index) => [label.trim(), amounts[index]!.trim()]);
}

describe('the pages after checkout', () => {
  it('confirms with the order number, ship-to, method, payment, placed time with zone and "Continue shopping"', async () => {
    const session = await bodyOf<{ checkoutToken: string }>(
      await hosted.api('/public/checkout/sessions', {
        method: 'POST',
        slug: SLUG,
        body: JSON.stringify({ lines: [{ itemId: mug, quantity: 2 }] }),
      }),
      'session',
      201,
    );
    const { page } = await hosted.newPage({ width: 1280 });
    await page.goto(`/hosted/${SLUG}/checkout?token=${session.checkoutToken}`);
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
    await heading(page, /^Pay /);
    checkoutTotals = await totalsOf(page, '.summary');
    // Bound with sandbox tax (7.25 % in the US): the summary has a tax line to compare.
    expect(checkoutTotals.map(([label]) => label)).toEqual(['Subtotal', 'Shipping', 'Tax', 'Total']);

    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/39');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: /^Pay / }).click();
    await heading(page, 'Thank you for your order');

    const read = await bodyOf<{ orderId: string }>(
      await hosted.api(`/public/checkout/sessions/${session.checkoutToken}`, { slug: SLUG }),
      'session read',
      200,
    );
    placed = await bodyOf(await owner.call('GET', `/merchant/orders/${read.orderId}`), 'order', 200);

    const facts = page.locator('dl.confirmation');
    await facts.getByText(`#${placed.orderNumber}`, { exact: true }).waitFor();
    expect(await facts.locator('dt').allTextContents()).toEqual(['Order number', 'Placed', 'Payment']);
    const [, placedAt, payment] = await facts.locator('dd').allTextContents();
    expect(placedAt).toMatch(WITH_ZONE);
    const total = checkoutTotals.at(-1)![1]!;
    expect(payment).toBe(`${total} paid by card`);
    // The number the store and its emails use, never the internal reference or id.
    const text = await page.locator('main').innerText();
    expect(text).not.toContain(placed.orderReference);
    expect(text).not.toContain(placed.id);

    const shipTo = page.getByRole('region', { name: 'Ship to' });
    expect((await shipTo.locator('address').innerText()).split('\n')).toEqual(SHIP_TO);
    expect(await shipTo.innerText()).toContain('Shipping method: Standard');
    expect(await totalsOf(page, '.summary')).toEqual(checkoutTotals);

    const back = page.getByRole('link', { name: 'Continue shopping' });
    expect(await back.getAttribute('href')).toBe(WEBSITE);
    await checkPage(page, 'order-confirmation');
    await page.setViewportSize({ width: 390, height: 800 });
    await checkPage(page, 'order-confirmation-phone');
  });

  it('shows a delivered order as "Delivered" with its ship-to address and checkout’s totals', async () => {
    expect(placed, 'the confirmation test placed the order').toBeDefined();
    for (const status of ['CONFIRMED', 'PROCESSING'])
      await owner.created(
        owner.call('PATCH', `/merchant/orders/${placed.id}/status`, { status }),
        `status ${status}`,
        200,
      );
    const shipment = await owner.created<{ id: string }>(
      owner.call(
        'POST',
        `/merchant/commerce/orders/${placed.id}/fulfillments`,
        {
          lines: [{ lineId: placed.items[0]!.id, quantity: 2 }],
          notifyCustomer: false,
          tracking: { carrier: 'DHL', trackingNumber: 'TRACK123' },
        },
        { 'x-idempotency-key': `order-pages-${placed.id}` },
      ),
      'fulfillment',
    );
    await owner.created(
      owner.call('POST', `/merchant/commerce/orders/${placed.id}/fulfillments/${shipment.id}/deliver`, {}),
      'deliver',
      200,
    );

    const { page } = await hosted.newPage({ width: 1280 });
    await signIn(hosted, page, SLUG, EMAIL);
    await page.goto(`/hosted/${SLUG}/account/orders`);
    await heading(page, 'Your orders');
    const row = page.getByRole('row', { name: new RegExp(`Order #${placed.orderNumber}\\b`) });
    expect(await row.getByRole('cell').nth(2).innerText()).toBe('Delivered');

    await row.getByRole('link').click();
    await heading(page, `Order #${placed.orderNumber}`);
    const status = page.getByRole('region', { name: 'Status' });
    expect(await status.locator('strong').innerText()).toBe('Delivered');
    // One status: the order's internal steps never show beside the delivery.
    const text = await page.locator('main').innerText();
    for (const word of ['Pending', 'Processing', 'Fulfilled', 'Unfulfilled', 'Not required'])
      expect(text).not.toContain(word);

    const shipTo = page.getByRole('region', { name: 'Ship to' });
    expect((await shipTo.locator('address').innerText()).split('\n')).toEqual(SHIP_TO);
    // The same lines, labels, order and amounts as the checkout summary the shopper paid.
    expect(await totalsOf(page, '.summary')).toEqual(checkoutTotals);
    const shipments = page.getByRole('region', { name: 'Shipments' });
    const delivered = (await shipments.locator('li.card > p').first().innerText()).split(' · ')[0]!;
    expect(delivered).toMatch(/^Delivered /);
    expect(delivered).toMatch(WITH_ZONE);
    await checkPage(page, 'order-delivered');
    await page.setViewportSize({ width: 390, height: 800 });
    await checkPage(page, 'order-delivered-phone');
    await screenshot(page, 'order-delivered-phone');
  });
});
