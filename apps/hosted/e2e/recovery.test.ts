import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bodyOf,
  checkPage,
  createStudioService,
  heading,
  type Merchant,
  openCheckoutSession,
  ownerOf,
  readCheckoutSession,
  tomorrowAt,
} from './checkout-support.ts';
import { type Hosted, startHosted } from './harness.ts';

/**
 * How the checkout and booking pages recover from a shopper's mistakes and the network's, in
 * headless Chromium: the click after fixing a field lands, refusals say their real cause and name
 * the item, focus stays on the page after a step or a rate change, a network failure during
 * payment is resolved by asking the server, and shoppers read plain messages, never zod's. One
 * gateway and browser.
 */
const SLUG = 'broken-shop';
let hosted: Hosted;
let owner: Merchant;
let mug: string;
let lamp: { itemId: string; variantId: string };
let crate: { itemId: string; variantId: string };
let tour: string;

/** Zod's and the schemas' own wording, which no shopper should read. */
const DEVELOPER_TEXT = /Too small|Too big|expected|Invalid input|sandbox test card|must be|Failed to fetch/;

beforeAll(async () => {
  hosted = await startHosted();
  await hosted.provision(SLUG);
  owner = await ownerOf(hosted, SLUG);
  const item = async (body: Record<string, unknown>) =>
    (
      await owner.created<{ id: string }>(
        owner.call('POST', '/merchant/items', { type: 'SALE', status: 'ACTIVE', ...body }),
        'item',
      )
    ).id;
  const withStock = async (slug: string, name: string, inventoryQuantity: number) => {
    const itemId = await item({ slug, name, priceInCents: 1000 });
    const variant = await owner.created<{ id: string }>(
      owner.call('POST', `/merchant/items/${itemId}/variants`, {
        name: 'Standard',
        priceInCents: 1000,
        inventoryQuantity,
      }),
      'variant',
    );
    return { itemId, variantId: variant.id };
  };
  mug = await item({ slug: 'mug', name: 'Mug', priceInCents: 1250 });
  lamp = await withStock('lamp', 'Brass lamp', 3);
  crate = await withStock('crate', 'Apple crate', 100);
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
  const resource = await owner.created<{ id: string }>(
    owner.call('POST', '/merchant/booking-resources', { name: 'Studio', kind: 'SPACE', capacity: 5 }),
    'resource',
  );
  tour = await createStudioService(owner, {
    slug: 'studio-tour',
    name: 'Studio tour',
    resourceId: resource.id,
    extra: { pricing: { basis: 'FLAT', amountInCents: 0 } },
  });
});
afterAll(async () => hosted?.close());

interface Session {
  checkoutToken: string;
  status: string;
  paymentStatus: string | null;
}

const openSession = (lines: { itemId: string; variantId?: string; quantity: number }[]) =>
  openCheckoutSession<Session>(hosted, SLUG, lines);
const readSession = (token: string) => readCheckoutSession<Session>(hosted, SLUG, token);

async function fillDetails(page: Page) {
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Full name').fill('Ada Lovelace');
  await page.getByLabel('Address', { exact: true }).fill('1 Main Street');
  await page.getByLabel('City').fill('Springfield');
  await page.getByLabel('Postal code').fill('12345');
  await page.getByLabel('Country').selectOption('US');
}

/** A checkout of `lines` opened in a new page, its details saved and the shipping step shown. */
async function toShipping(lines: { itemId: string; variantId?: string; quantity: number }[]) {
  const session = await openSession(lines);
  const { page } = await hosted.newPage();
  await page.goto(`/hosted/${SLUG}/checkout?token=${session.checkoutToken}`);
  await heading(page, 'Checkout');
  await fillDetails(page);
  await page.getByRole('button', { name: 'Continue to shipping' }).click();
  await page.getByRole('group', { name: 'Shipping method' }).waitFor();
  return { page, session };
}

/** …and on to the payment form. */
async function toPayment() {
  const { page, session } = await toShipping([{ itemId: mug, quantity: 1 }]);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await heading(page, 'Pay $17.50');
  return { page, session };
}

/** A hold of the free tour, and the booking checkout page opened on it. */
async function bookingCheckout(email: string, hour: number) {
  const key = `recovery-hold-${hour}-${Date.now()}`;
  const held = await bodyOf<{ id: string }>(
    await hosted.api('/public/booking-holds', {
      method: 'POST',
      slug: SLUG,
      headers: { 'x-idempotency-key': key },
      body: JSON.stringify({ serviceId: tour, ...tomorrowAt(hour), quantity: 1, customerEmail: email }),
    }),
    'hold',
    201,
  );
  const { page } = await hosted.newPage();
  await page.goto(
    `/hosted/${SLUG}/bookings/checkout?hold=${held.id}&email=${encodeURIComponent(email)}#key=${key}`,
  );
  await heading(page, 'Complete your booking');
  return page;
}

/** What has the focus: the legend of its group, else its tag ("BODY" when the focus fell off). */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement;
    if (!active || active === document.body) return 'BODY';
    return active.closest('fieldset')?.querySelector('legend')?.textContent ?? active.tagName;
  });

/** The field labelled `label` is marked invalid (its message is shown). */
const invalid = (page: Page, label: string) =>
  expect.poll(() => page.getByLabel(label, { exact: true }).getAttribute('aria-invalid')).toBe('true');

/** The field's message is gone while the field still has the focus: typing cleared it, not a blur. */
const valid = async (page: Page, label: string) => {
  const field = page.getByLabel(label, { exact: true });
  await expect.poll(() => field.getAttribute('aria-invalid'), { timeout: 2_000 }).toBeNull();
  expect(await field.evaluate((element) => element === document.activeElement)).toBe(true);
};

describe('the click after fixing a field lands', () => {
  it('checkout details: the message goes as the field is typed in, and "Continue to shipping" is pressed', async () => {
    const session = await openSession([{ itemId: mug, quantity: 1 }]);
    const { page } = await hosted.newPage();
    await page.goto(`/hosted/${SLUG}/checkout?token=${session.checkoutToken}`);
    await heading(page, 'Checkout');
    await page.getByRole('button', { name: 'Continue to shipping' }).click();
    await invalid(page, 'Postal code');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Full name').fill('Ada Lovelace');
    await page.getByLabel('Address', { exact: true }).fill('1 Main Street');
    await page.getByLabel('Country').selectOption('US');
    await page.getByLabel('City').fill('Springfield');
    // The last field fixed still has the focus: its message went as it was typed in, so pressing
    // the button (which blurs it) moves nothing.
    await page.getByLabel('Postal code').fill('12345');
    await valid(page, 'Postal code');
    await page.getByRole('button', { name: 'Continue to shipping' }).click();
    await page.getByRole('group', { name: 'Shipping method' }).waitFor({ timeout: 5_000 });
    expect(await readSession(session.checkoutToken)).toMatchObject({ status: 'OPEN' });
    await checkPage(page, 'broken-1-details');
  });

  it('card form: fixing the CVC then pressing Pay pays', async () => {
    const { page, session } = await toPayment();
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByRole('button', { name: /^Pay / }).click();
    await invalid(page, 'CVC');
    await page.getByLabel('Expiry (MM/YY)').fill('12/39');
    await page.getByLabel('CVC').fill('123');
    await valid(page, 'CVC');
    await page.getByRole('button', { name: /^Pay / }).click();
    await heading(page, 'Thank you for your order');
    expect(await readSession(session.checkoutToken)).toMatchObject({ paymentStatus: 'PAID' });
  });

  it('booking checkout: fixing the name then pressing Book books', async () => {
    const page = await bookingCheckout('lost-click@example.com', 9);
    await page.getByRole('button', { name: 'Book' }).click();
    await invalid(page, 'Full name');
    await page.getByLabel('Full name').fill('Ada Lovelace');
    await valid(page, 'Full name');
    await page.getByRole('button', { name: 'Book' }).click();
    await heading(page, 'You are booked');
  });
});

describe('refusals say their real cause', () => {
  it('a cart above the per-shopper hold cap says so, not "too many attempts"', async () => {
    const { page } = await toShipping([{ itemId: crate.itemId, variantId: crate.variantId, quantity: 40 }]);
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    const alert = page.getByRole('alert').filter({ hasText: /at most 20/ });
    await alert.waitFor();
    const text = await alert.textContent();
    expect(text).toContain('Apple crate');
    expect(text).not.toMatch(/Too many attempts/);
    await checkPage(page, 'broken-5-hold-cap');
  });

  it('a quantity above the stock names the item', async () => {
    const { page } = await toShipping([{ itemId: lamp.itemId, variantId: lamp.variantId, quantity: 5 }]);
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await page
      .getByRole('alert')
      .getByText(/Brass lamp/)
      .waitFor();
    expect(await page.getByText('Some items are no longer in stock').count()).toBe(0);
  });
});

describe('focus stays on the page', () => {
  it('moves to the shipping methods after "Continue to shipping", and stays on a rate chosen with the arrow keys', async () => {
    const session = await openSession([{ itemId: mug, quantity: 2 }]);
    const { page } = await hosted.newPage();
    await page.goto(`/hosted/${SLUG}/checkout?token=${session.checkoutToken}`);
    await fillDetails(page);
    await page.getByRole('button', { name: 'Continue to shipping' }).click();
    await page.getByRole('group', { name: 'Shipping method' }).waitFor();
    await expect.poll(() => focused(page)).toBe('Shipping method');

    const standard = page.getByRole('radio', { name: /Standard/ });
    await expect.poll(() => standard.isChecked()).toBe(true);
    await standard.focus();
    await page.keyboard.press('ArrowDown');
    await page.getByText('$40.00').first().waitFor(); // repriced by the server with Express
    expect(await focused(page)).toBe('Shipping method');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).checked)).toBe(true);
    await page.keyboard.press('ArrowUp');
    await page.getByText('$30.00').first().waitFor();
    expect(await focused(page)).toBe('Shipping method');
  });
});

describe('a network failure during payment', () => {
  it('finds the charge that went through and shows the confirmation', async () => {
    const { page, session } = await toPayment();
    // The request reaches the server and is paid; the answer never reaches the page.
    await page.route('**/trpc/public.sandboxPayments.confirm**', async (route) => {
      await route.fetch();
      await route.abort('internetdisconnected');
    });
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/39');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: /^Pay / }).click();
    await heading(page, 'Thank you for your order');
    expect(await readSession(session.checkoutToken)).toMatchObject({ paymentStatus: 'PAID' });
  });

  it('says plainly that nothing was paid when the request never arrived, and the retry pays', async () => {
    const { page, session } = await toPayment();
    await page.route('**/trpc/public.sandboxPayments.confirm**', (route) =>
      route.abort('internetdisconnected'),
    );
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/39');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByText('Your payment has not been taken so far').waitFor();
    expect(await page.getByText(DEVELOPER_TEXT).count()).toBe(0);
    await checkPage(page, 'broken-7-not-paid');
    expect(await readSession(session.checkoutToken)).toMatchObject({ status: 'AWAITING_PAYMENT' });
    await page.unroute('**/trpc/public.sandboxPayments.confirm**');
    await page.getByRole('button', { name: /^Pay / }).click();
    await heading(page, 'Thank you for your order');
  });
});

describe('shoppers read plain messages', () => {
  it('checkout details: the address fields say what to enter', async () => {
    const session = await openSession([{ itemId: mug, quantity: 1 }]);
    const { page } = await hosted.newPage();
    await page.goto(`/hosted/${SLUG}/checkout?token=${session.checkoutToken}`);
    await page.getByLabel('Email').fill('ada@example');
    await page.getByRole('button', { name: 'Continue to shipping' }).click();
    await page.getByText('Enter your street address').waitFor();
    await page.getByText('Enter your city').waitFor();
    await page.getByText('Enter your postal code').waitFor();
    await page.getByText('Enter an email address like name@example.com').waitFor();
    expect(await page.getByText(DEVELOPER_TEXT).count()).toBe(0);
    await checkPage(page, 'broken-9-details');
  });

  it('card form: plain messages, and an expiry typed without the slash is accepted', async () => {
    const { page } = await toPayment();
    await page.getByLabel('Card number').fill('1234 5678 9012 3456');
    await page.getByLabel('Expiry (MM/YY)').fill('13/29');
    await page.getByLabel('CVC').fill('12');
    await page.getByRole('button', { name: /^Pay / }).click();
    await page.getByText('This card number is not accepted here').waitFor();
    await page.getByText('Enter the expiry date as MM/YY').waitFor();
    await page.getByText('Enter the 3 or 4 digit security code').waitFor();
    expect(await page.getByText(DEVELOPER_TEXT).count()).toBe(0);
    await checkPage(page, 'broken-9-card');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('1239');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: /^Pay / }).click();
    await heading(page, 'Thank you for your order');
  });

  it('booking checkout: the name and email say what to enter', async () => {
    const page = await bookingCheckout('plain@example.com', 11);
    await page.getByLabel('Email').fill('plain@');
    await page.getByRole('button', { name: 'Book' }).click();
    await page.getByText('Enter your full name').waitFor();
    await page.getByText('Enter an email address like name@example.com').waitFor();
    expect(await page.getByText(DEVELOPER_TEXT).count()).toBe(0);
  });
});
