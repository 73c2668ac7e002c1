import type { Page, Request } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  checkPage,
  heading,
  type Merchant,
  openCheckoutSession,
  ownerOf,
  readCheckoutSession,
} from './checkout-support.ts';
import { type Hosted, signIn, startHosted } from './harness.ts';

/**
 * The checkout's flow as Shopify's and Stripe's checkouts have it, in headless Chromium at phone
 * (390 px) and desktop (1280 px) width: the recap of the details with a "Change" per line and the
 * focus moved into the step it opens, the saved addresses of a signed-in shopper, the order summary
 * folded into a bar on a phone and a right column on a desktop, the card number grouped with its
 * brand and the expiry's slash added as typed (digits only sent), the times with their zone, and
 * the confirmation. One gateway and browser; axe-core on every state visited.
 */
const SLUG = 'flow-shop';
const LONG_NAME =
  'Hand-thrown stoneware coffee mug with a speckled oatmeal glaze and a comfortable wide handle, set of two';
/** A time shown with its zone ("Nov 29, 2026, 7:05 AM UTC"). */
const WITH_ZONE = /\d{1,2}:\d{2}\s?[AP]M [A-Z][A-Za-z0-9+:-]+$/;
let hosted: Hosted;
let owner: Merchant;
let mug: string;
let longMug: string;
let freebie: string;

interface Session {
  checkoutToken: string;
  status: string;
  paymentStatus: string | null;
  shippingAddress: { line1: string; city: string; country: string } | null;
}

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
  mug = await item({ slug: 'mug', name: 'Mug', priceInCents: 1250 });
  longMug = await item({ slug: 'long-mug', name: LONG_NAME, priceInCents: 4800 });
  freebie = await item({ slug: 'sample', name: 'Glaze sample', priceInCents: 0 });
  const zone = async (name: string, countries: string[], rates: [string, number][]) => {
    const created = await owner.created<{ id: string }>(
      owner.call('POST', '/merchant/shipping/zones', { name, countries }),
      'zone',
    );
    for (const [rate, priceInCents] of rates)
      await owner.created(
        owner.call('POST', `/merchant/shipping/zones/${created.id}/rates`, { name: rate, priceInCents }),
        'rate',
      );
  };
  await zone(
    'United States',
    ['US'],
    [
      ['Standard', 500],
      ['Express', 1500],
    ],
  );
  // A free rate, so a shipped order can total zero (placed by a button, changeable until then).
  await zone('Canada', ['CA'], [['Free pickup', 0]]);
});
afterAll(async () => hosted?.close());

const openSession = (lines: { itemId: string; quantity: number }[]) =>
  openCheckoutSession<Session>(hosted, SLUG, lines);
const readSession = (token: string) => readCheckoutSession<Session>(hosted, SLUG, token);

async function openCheckout(width: number, lines: { itemId: string; quantity: number }[]) {
  const session = await openSession(lines);
  const { page } = await hosted.newPage({ width });
  await page.goto(`/hosted/${SLUG}/checkout?token=${session.checkoutToken}`);
  await heading(page, 'Checkout');
  return { page, session };
}

async function fillDetails(
  page: Page,
  address = { line1: '1 Main Street', city: 'Springfield', country: 'US' },
) {
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Full name').fill('Ada Lovelace');
  await page.getByLabel('Address', { exact: true }).fill(address.line1);
  await page.getByLabel('City').fill(address.city);
  await page.getByLabel('Postal code').fill('12345');
  await page.getByLabel('Country').selectOption(address.country);
}

/** The focused element: its legend's text inside a fieldset (a radio), else its `name`, else its tag. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const active = document.activeElement as HTMLInputElement | null;
    if (!active || active === document.body) return 'BODY';
    if (active.type === 'radio')
      return active.closest('fieldset')?.querySelector('legend')?.textContent ?? '';
    return active.getAttribute('name') ?? active.id ?? active.tagName;
  });

/** The levels of the headings shown in the page's main region, in order. */
const headingLevels = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('main h1, main h2, main h3, main h4')]
      .filter((element) => element.getClientRects().length > 0)
      .map((element) => Number(element.tagName.slice(1))),
  );

async function expectHeadingsInOrder(page: Page) {
  const levels = await headingLevels(page);
  expect(levels[0]).toBe(1);
  for (let index = 1; index < levels.length; index++)
    expect(levels[index]! - levels[index - 1]!).toBeLessThanOrEqual(1);
}

/** Nothing scrolls sideways. */
const noOverflow = async (page: Page) =>
  expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

const recap = (page: Page) => page.getByRole('region', { name: 'Your details so far' });

describe.each([390, 1280])('at %i px', (width) => {
  it('recalls the details in a recap whose "Change" reopens each part with its values, focus in it', async () => {
    const { page } = await openCheckout(width, [{ itemId: mug, quantity: 1 }]);
    // Times are shown with their zone.
    expect(await page.getByText(/This checkout is open until/).innerText()).toMatch(
      / [A-Z][A-Za-z0-9+:-]+\.$/,
    );
    await fillDetails(page);
    await page.getByRole('button', { name: 'Continue to shipping' }).click();
    await page.getByRole('group', { name: 'Shipping method' }).waitFor();
    await expect.poll(() => focused(page)).toBe('Shipping method');
    // The form is folded into the recap.
    expect(await page.getByLabel('Email').count()).toBe(0);
    const lines = await recap(page).locator('dt').allTextContents();
    expect(lines).toEqual(['Contact', 'Ship to']);
    expect(await recap(page).innerText()).toContain('ada@example.com');
    expect(await recap(page).innerText()).toContain('1 Main Street, Springfield 12345, United States');
    await expectHeadingsInOrder(page);
    await noOverflow(page);
    await checkPage(page, `flow-${width}-method`);

    // By keyboard: "Change" on the ship-to line reopens the address, its values kept, the focus in its first field.
    await page.getByRole('button', { name: 'Change shipping address' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('shippingAddress.line1');
    expect(await page.getByLabel('Address', { exact: true }).inputValue()).toBe('1 Main Street');
    expect(await page.getByLabel('Email').inputValue()).toBe('ada@example.com');
    expect(await page.getByLabel('Country').inputValue()).toBe('US');
    await expectHeadingsInOrder(page);
    await checkPage(page, `flow-${width}-change-address`);
    await page.keyboard.press('Control+A');
    await page.keyboard.type('2 Elm Street');
    await page.getByRole('button', { name: 'Continue to shipping' }).click();
    await page.getByRole('group', { name: 'Shipping method' }).waitFor();
    await expect.poll(() => focused(page)).toBe('Shipping method');
    expect(await recap(page).innerText()).toContain('2 Elm Street');

    // "Change" on the contact line: the email field, focused, its value kept; "Back" returns unchanged.
    await page.getByRole('button', { name: 'Change contact' }).click();
    await expect.poll(() => focused(page)).toBe('email');
    expect(await page.getByLabel('Full name').inputValue()).toBe('Ada Lovelace');
    await page.getByRole('button', { name: 'Back to shipping method' }).click();
    await expect.poll(() => focused(page)).toBe('Shipping method');

    await page.getByRole('radio', { name: /Express/ }).check();
    await page.getByText('$27.50').first().waitFor();
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await heading(page, 'Pay $27.50');
    // The payment step recalls all three; the order is placed, so they are shown without "Change".
    expect(await recap(page).locator('dt').allTextContents()).toEqual(['Contact', 'Ship to', 'Method']);
    expect(await recap(page).innerText()).toContain('Express · $15.00');
    expect(await page.getByText(/^Pay before /).innerText()).toMatch(/ [A-Z][A-Za-z0-9+:-]+\.$/);
    await expectHeadingsInOrder(page);
    await noOverflow(page);
    await checkPage(page, `flow-${width}-payment`);
  });

  it('folds the order summary into a bar on a phone and keeps it in a right column on a desktop', async () => {
    const { page } = await openCheckout(width, [
      { itemId: longMug, quantity: 1 },
      { itemId: mug, quantity: 2 },
    ]);
    const toggle = page.getByRole('button', { name: /order summary/ });
    const summary = page.locator('#checkout-summary');
    const name = page.locator('.summary-line-name', { hasText: 'Hand-thrown' });
    if (width < 768) {
      expect(await toggle.getAttribute('aria-expanded')).toBe('false');
      expect(await toggle.innerText()).toMatch(/Show order summary\s+\$73\.00/);
      expect(await summary.isVisible()).toBe(false);
      await noOverflow(page);
      await checkPage(page, `flow-${width}-summary-closed`);
      await toggle.click();
      expect(await toggle.getAttribute('aria-expanded')).toBe('true');
      expect(await toggle.innerText()).toContain('Hide order summary');
      expect(await summary.isVisible()).toBe(true);
    } else {
      expect(await toggle.count()).toBe(0);
      expect(await summary.isVisible()).toBe(true);
      const main = await page.locator('.checkout-main').boundingBox();
      const aside = await summary.boundingBox();
      expect(aside!.x).toBeGreaterThan(main!.x + main!.width);
    }
    // The long name is cut with an ellipsis on screen; its text and title are the whole name.
    expect(await name.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
    expect(await name.getAttribute('title')).toBe(LONG_NAME);
    expect(await name.textContent()).toBe(LONG_NAME);
    await noOverflow(page);
    await checkPage(page, `flow-${width}-summary-open`);
  });
});

describe('the way back from the payment step', () => {
  it('a free order: "Change" returns to the method and to the address, then the order is placed', async () => {
    const { page, session } = await openCheckout(390, [{ itemId: freebie, quantity: 1 }]);
    await fillDetails(page, { line1: '9 Side Road', city: 'Toronto', country: 'CA' });
    await page.getByRole('button', { name: 'Continue to shipping' }).click();
    await page.getByRole('group', { name: 'Shipping method' }).waitFor();
    await expect.poll(() => page.getByRole('radio', { name: /Free pickup/ }).isChecked()).toBe(true);
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await heading(page, 'Place your order');
    expect(await recap(page).locator('dt').allTextContents()).toEqual(['Contact', 'Ship to', 'Method']);
    await checkPage(page, 'flow-free-payment');

    await page.getByRole('button', { name: 'Change shipping method' }).click();
    await page.getByRole('group', { name: 'Shipping method' }).waitFor();
    await expect.poll(() => focused(page)).toBe('Shipping method');
    await checkPage(page, 'flow-free-back-to-method');
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await heading(page, 'Place your order');

    await page.getByRole('button', { name: 'Change shipping address' }).click();
    await expect.poll(() => focused(page)).toBe('shippingAddress.line1');
    expect(await page.getByLabel('City').inputValue()).toBe('Toronto');
    await checkPage(page, 'flow-free-back-to-address');
    await page.getByLabel('Address', { exact: true }).fill('10 Side Road');
    await page.getByRole('button', { name: 'Continue to shipping' }).click();
    await page.getByRole('group', { name: 'Shipping method' }).waitFor();
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await heading(page, 'Place your order');
    await page.getByRole('button', { name: 'Place order' }).click();

    await heading(page, 'Thank you for your order');
    const facts = page.locator('dl.confirmation');
    expect(await facts.locator('dt').allTextContents()).toEqual(['Order number', 'Placed', 'Payment']);
    const [number, placed, payment] = await facts.locator('dd').allTextContents();
    expect(number).toMatch(/^#\d+$/);
    expect(placed).toMatch(WITH_ZONE);
    expect(payment).toBe('No payment needed');
    const shipTo = page.getByRole('region', { name: 'Ship to' });
    expect(await shipTo.innerText()).toContain('10 Side Road');
    expect(await shipTo.innerText()).toContain('Shipping method: Free pickup');
    // This store has no website: no "Continue shopping", the account instead.
    expect(await page.getByRole('link', { name: 'Continue shopping' }).count()).toBe(0);
    await noOverflow(page);
    await checkPage(page, 'flow-free-confirmation');
    expect(await readSession(session.checkoutToken)).toMatchObject({
      status: 'COMPLETED',
      shippingAddress: { line1: '10 Side Road', city: 'Toronto', country: 'CA' },
    });
  });
});

describe('saved addresses', () => {
  it('offers a signed-in shopper their saved addresses, default first, and a new one; signed out, the form', async () => {
    const { page } = await hosted.newPage({ width: 390 });
    await signIn(hosted, page, SLUG, 'grace@example.com');
    // Two addresses through the account's own route (the page's session cookie): the second is the default.
    const saved = await page.evaluate(async (slug) => {
      const create = async (input: Record<string, unknown>) => {
        const response = await fetch('/trpc/customer.account.createAddress', {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-organization-slug': slug },
          body: JSON.stringify(input),
        });
        return response.status;
      };
      return [
        await create({
          name: 'Grace Hopper',
          line1: '9 Side Road',
          city: 'Toronto',
          postalCode: 'M5V 2T6',
          country: 'CA',
        }),
        await create({
          name: 'Grace Hopper',
          line1: '5 Oak Avenue',
          city: 'Arlington',
          postalCode: '22201',
          country: 'US',
          isDefaultShipping: true,
        }),
      ];
    }, SLUG);
    expect(saved).toEqual([200, 200]);

    const session = await openSession([{ itemId: mug, quantity: 1 }]);
    await page.goto(`/hosted/${SLUG}/checkout?token=${session.checkoutToken}`);
    const choices = page.getByRole('radiogroup', { name: 'Your saved addresses' });
    await choices.waitFor();
    const labels = await choices
      .getByRole('radio')
      .evaluateAll((radios) => radios.map((radio) => radio.closest('label')?.textContent ?? ''));
    expect(labels[0]).toContain('5 Oak Avenue');
    expect(labels[1]).toContain('9 Side Road');
    expect(labels[2]).toBe('Use a new address');
    // The default is chosen and fills the form.
    expect(await choices.getByRole('radio', { name: /5 Oak Avenue/ }).isChecked()).toBe(true);
    expect(await page.getByLabel('Address', { exact: true }).inputValue()).toBe('5 Oak Avenue');
    await checkPage(page, 'flow-saved-addresses');

    await page.locator('label', { hasText: '9 Side Road' }).click();
    await expect.poll(() => page.getByLabel('Address', { exact: true }).inputValue()).toBe('9 Side Road');
    expect(await page.getByLabel('City').inputValue()).toBe('Toronto');
    expect(await page.getByLabel('Postal code').inputValue()).toBe('M5V 2T6');
    expect(await page.getByLabel('Country').inputValue()).toBe('CA');
    await page.locator('label', { hasText: 'Use a new address' }).click();
    await expect.poll(() => page.getByLabel('Address', { exact: true }).inputValue()).toBe('');
    await checkPage(page, 'flow-saved-addresses-new');
    await page.locator('label', { hasText: '5 Oak Avenue' }).click();
    await expect.poll(() => page.getByLabel('City').inputValue()).toBe('Arlington');

    await page.getByLabel('Email').fill('grace@example.com');
    await page.getByLabel('Full name').fill('Grace Hopper');
    await page.getByRole('button', { name: 'Continue to shipping' }).click();
    await page.getByRole('group', { name: 'Shipping method' }).waitFor();
    expect(await recap(page).innerText()).toContain('5 Oak Avenue, Arlington 22201, United States');
    expect((await readSession(session.checkoutToken)).shippingAddress).toMatchObject({
      line1: '5 Oak Avenue',
      city: 'Arlington',
      country: 'US',
    });

    // Signed out (a new browser context): the form as before, no choice.
    const other = await openCheckout(390, [{ itemId: mug, quantity: 1 }]);
    expect(await other.page.getByLabel('Address', { exact: true }).inputValue()).toBe('');
    expect(await other.page.getByRole('radiogroup', { name: 'Your saved addresses' }).count()).toBe(0);
  });
});

describe('the card field', () => {
  it('groups the number as typed, names the brand, adds the expiry slash, and sends digits only', async () => {
    const { page } = await openCheckout(390, [{ itemId: mug, quantity: 1 }]);
    await fillDetails(page);
    await page.getByRole('button', { name: 'Continue to shipping' }).click();
    await page.getByRole('group', { name: 'Shipping method' }).waitFor();
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await heading(page, 'Pay $17.50');
    const number = page.getByLabel('Card number');
    const expiry = page.getByLabel('Expiry (MM/YY)');
    /** The brand the number's field is described by (what a screen reader hears with it). */
    const brand = () =>
      number.evaluate((input) =>
        (input.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join('')
          .trim(),
      );

    for (const [typed, shown, name] of [
      ['378282246310005', '3782 822463 10005', 'American Express'],
      ['5555555555554444', '5555 5555 5555 4444', 'Mastercard'],
      ['6011111111111117', '6011 1111 1111 1117', 'Discover'],
      ['4242424242424242', '4242 4242 4242 4242', 'Visa'],
    ] as const) {
      await number.fill('');
      await number.focus();
      await page.keyboard.type(typed);
      expect(await number.inputValue()).toBe(shown);
      expect(await brand()).toBe(name);
      expect(await page.locator('.card-brand').innerText()).toBe(name);
    }
    // Digits past the brand's length are not taken (American Express has 15).
    await number.fill('');
    await number.focus();
    await page.keyboard.type('3782822463100059');
    expect(await number.inputValue()).toBe('3782 822463 10005');
    // Typed in the middle, the groups move and the caret stays after the digit typed.
    await number.fill('4242424242424242');
    expect(await number.inputValue()).toBe('4242 4242 4242 4242');
    await number.evaluate((input: HTMLInputElement) => input.setSelectionRange(4, 4));
    await page.keyboard.press('Backspace');
    expect(await number.inputValue()).toBe('4244 2424 2424 242');
    expect(await number.evaluate((input: HTMLInputElement) => input.selectionStart)).toBe(3);
    await page.keyboard.type('2');
    expect(await number.inputValue()).toBe('4242 4242 4242 4242');
    await noOverflow(page);
    await checkPage(page, 'flow-card-typed');

    await expiry.focus();
    await page.keyboard.type('4');
    expect(await expiry.inputValue()).toBe('04/');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    expect(await expiry.inputValue()).toBe('');
    await page.keyboard.type('1229');
    expect(await expiry.inputValue()).toBe('12/29');
    // A whole new value (pasted, autofilled) is formatted as it is, whatever it replaces.
    await expiry.fill('1239');
    expect(await expiry.inputValue()).toBe('12/39');
    await page.getByLabel('CVC').fill('123');

    const sent: Request[] = [];
    page.on('request', (request) => {
      if (request.url().includes('sandboxPayments.confirm')) sent.push(request);
    });
    await page.getByRole('button', { name: 'Pay $17.50' }).click();
    await heading(page, 'Thank you for your order');
    expect(sent).toHaveLength(1);
    expect(JSON.parse(sent[0]!.postData() ?? '{}')).toMatchObject({
      card: { number: '4242424242424242', expiry: '12/39', cvc: '123' },
    });
  });
});
