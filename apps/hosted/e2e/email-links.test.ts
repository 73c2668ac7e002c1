import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, createStudioService, type Merchant, ownerOf, tomorrowAt } from './checkout-support.ts';
import {
  type Hosted,
  linksOf,
  type Mail,
  screenshot,
  seriousViolations,
  shippedOrder,
  signIn,
  startHosted,
} from './harness.ts';

/**
 * Every kind of link a shopper is emailed, opened in Chromium from the message's text part and from
 * its HTML part (the `href`): each lands on the page it promises (its heading), never "Page not
 * found", a "link does not work" page or an API answer, and axe-core finds nothing serious there.
 * The booking "Payment required" email's management link still works after the booking is paid.
 */
const SLUG = 'mail-links';
let hosted: Hosted;
let owner: Merchant;
let resourceId: string;

beforeAll(async () => {
  hosted = await startHosted();
  await hosted.provision(SLUG);
  owner = await ownerOf(hosted, SLUG);
  resourceId = (
    await owner.created<{ id: string }>(
      owner.call('POST', '/merchant/booking-resources', { name: 'Studio', kind: 'SPACE', capacity: 3 }),
      'resource',
    )
  ).id;
});
afterAll(async () => hosted?.close());

/** Headings of the pages a broken link lands on. */
const BROKEN = [
  'Page not found',
  'This link does not work',
  'This booking link does not work',
  'This sign-in link does not work',
  'We could not tell which store this is',
  'Order not found',
  'Booking not found',
];

/**
 * Opens `link` in `page`: the gateway answers the hosted app's HTML (not JSON, not an error), the
 * page shows `heading` and none of the broken-link pages, and axe-core finds no serious violation.
 */
async function opensWorkingPage(page: Page, link: string, heading: string | RegExp, name: string) {
  expect(link, 'the link names the store').toContain(`/hosted/${SLUG}/`);
  // From a blank page, so a link to the page already shown (another `#fragment`) loads it again.
  await page.goto('about:blank');
  const response = await page.goto(link);
  expect(response?.status(), link).toBe(200);
  expect(response?.headers()['content-type'], link).toContain('text/html');
  await page
    .getByRole('heading', { name: heading, exact: typeof heading === 'string' })
    .first()
    .waitFor();
  for (const broken of BROKEN)
    expect(await page.getByRole('heading', { name: broken }).count(), `${link}: ${broken}`).toBe(0);
  expect(await seriousViolations(page), link).toEqual([]);
  await screenshot(page, `email-link-${name}`);
}

/** The links of `mail` that contain `path`, from each part; each part has at least one. */
function linksTo(mail: Mail, path: string): { text: string[]; html: string[] } {
  const links = linksOf(mail);
  const matching = {
    text: links.text.filter((link) => link.includes(path)),
    html: links.html.filter((link) => link.includes(path)),
  };
  expect(matching.text.length, `a ${path} link in the text part of "${mail.subject}"`).toBeGreaterThan(0);
  expect(matching.html.length, `a ${path} link in the HTML part of "${mail.subject}"`).toBeGreaterThan(0);
  return matching;
}

/** Opens every link of `mail` to `path`, from both parts, expecting `heading`. */
async function openFromBothParts(
  page: Page,
  mail: Mail,
  path: string,
  heading: string | RegExp,
  name: string,
): Promise<string[]> {
  const links = linksTo(mail, path);
  for (const [part, list] of Object.entries(links))
    for (const [index, link] of list.entries())
      await opensWorkingPage(page, link, heading, `${name}-${part}-${index}`);
  return [...links.text, ...links.html];
}

describe('emailed links open working pages, from the text and the HTML part', () => {
  it('sign-in: the link email opens "Finish signing in"; the code email carries no link', async () => {
    const email = 'link@example.com';
    let sent = new Date();
    const requested = await hosted.api('/public/customer/auth/request-link', {
      method: 'POST',
      slug: SLUG,
      body: JSON.stringify({ email }),
    });
    expect(requested.status).toBeLessThan(300);
    const mail = await hosted.mail(email, sent, /account\/verify\?token=l1_/);
    const { page } = await hosted.newPage();
    const links = await openFromBothParts(
      page,
      mail,
      '/account/verify?token=l1_',
      'Finish signing in',
      'sign-in',
    );
    // Opening it spent nothing: the HTML part's button still signs in.
    await page.goto(links.at(-1)!);
    await page.getByRole('button', { name: 'Continue to sign in' }).click();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();

    sent = new Date();
    const code = await hosted.api('/public/customer/auth/request-otp', {
      method: 'POST',
      slug: SLUG,
      body: JSON.stringify({ email: 'code@example.com' }),
    });
    expect(code.status).toBeLessThan(300);
    const codeMail = await hosted.mail('code@example.com', sent);
    // The code is typed where it was asked for: nothing in either part to open (and so nothing broken).
    expect(linksOf(codeMail)).toEqual({ text: [], html: [] });
  });

  it('orders: the confirmation’s order-status link, the shipped email and the return email', async () => {
    const email = 'orders@example.com';
    const sent = new Date();
    const order = await shippedOrder(hosted, SLUG, email, { notifyCustomer: true });
    const heading = `Order #${order.orderNumber}`;

    const confirmation = await hosted.mail(email, sent, /order-status\?token=o1_/);
    const guest = (await hosted.newPage()).page;
    await openFromBothParts(guest, confirmation, '/order-status?token=o1_', heading, 'order-status');

    // The account's pages are the customer's: opened signed in, as the shopper who reads them is.
    const { page } = await hosted.newPage();
    await signIn(hosted, page, SLUG, email);
    const shipped = await hosted.mail(email, sent, /TRACK123/);
    await openFromBothParts(page, shipped, `/account/orders/${order.orderReference}`, heading, 'shipped');

    const requested = new Date();
    await page.getByLabel('Quantity to return (up to 2)').fill('1');
    await page.getByLabel('Reason').selectOption('SIZE_OR_FIT');
    await page.getByRole('button', { name: 'Request return' }).click();
    await page.getByText('Your return was requested.').waitFor();
    const returned = await hosted.mail(email, requested, /#returns/);
    const links = await openFromBothParts(
      page,
      returned,
      `/account/orders/${order.orderReference}#returns`,
      heading,
      'return',
    );
    expect(links.every((link) => link.endsWith('#returns'))).toBe(true);
    // The fragment is the order page's returns section, which shows the return.
    await page.locator('#returns').getByText('1 × Tee (Size or fit)').waitFor();

    // Signed out, the order page asks to sign in first (and comes back to it).
    const signedOut = (await hosted.newPage()).page;
    await opensWorkingPage(signedOut, links[0]!, 'Sign in to your account', 'return-signed-out');
  });

  it('bookings: payment required (payment and management links), confirmed after paying, and the management link of a request', async () => {
    const pay = await createStudioService(owner, {
      slug: 'studio-pay',
      name: 'Studio hour',
      resourceId,
      extra: { checkout: { paymentMode: 'PAY_NOW' } },
    });
    const email = 'booker@example.com';
    const sent = new Date();
    const key = 'email-links-hold-0001';
    const hold = await bodyOf<{ id: string }>(
      await hosted.api('/public/booking-holds', {
        method: 'POST',
        slug: SLUG,
        headers: { 'x-idempotency-key': key },
        body: JSON.stringify({ serviceId: pay, ...tomorrowAt(9), quantity: 1, customerEmail: email }),
      }),
      'hold',
      201,
    );
    const conversion = await bodyOf<{ flow: string }>(
      await hosted.api(`/public/booking-holds/${hold.id}/checkout`, {
        method: 'POST',
        slug: SLUG,
        headers: { 'x-idempotency-key': key },
        body: JSON.stringify({ customerName: 'Ada Lovelace', customerEmail: email }),
      }),
      'conversion',
      200,
    );
    expect(conversion.flow).toBe('PAYMENT');

    const required = await hosted.mail(email, sent, /Payment required/);
    // Its button opens the payment page, and says so.
    expect(required.html).toMatch(/<a href="[^"]*\/checkout\/pay\?token=c1_[^"]*"[^>]*>Pay now<\/a>/);
    expect(required.text).toMatch(/Pay now: http:\/\/\S+\/checkout\/pay\?token=c1_/);
    const { page } = await hosted.newPage();
    const manage = await openFromBothParts(
      page,
      required,
      '/bookings/manage/m1_',
      /^Booking BK-/,
      'payment-required-manage',
    );
    await page.getByText('Studio hour').first().waitFor();
    const payLinks = await openFromBothParts(
      page,
      required,
      '/checkout/pay?token=c1_',
      'Payment',
      'payment-required-pay',
    );

    // Paid through the HTML part's button.
    const paid = new Date();
    await page.goto(payLinks.at(-1)!);
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/39');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Pay $30.00' }).click();
    await page.getByRole('heading', { name: 'Payment received' }).waitFor();

    const confirmed = await hosted.mail(email, paid, /Booking confirmed/);
    await openFromBothParts(page, confirmed, '/bookings/manage/m1_', /^Booking BK-/, 'confirmed');
    await page.getByText('Confirmed', { exact: true }).waitFor();

    // The "Payment required" email's management links still open the booking, now confirmed.
    for (const link of manage) {
      await opensWorkingPage(page, link, /^Booking BK-/, 'payment-required-manage-after-paying');
      await page.getByText('Confirmed', { exact: true }).waitFor();
    }

    // A booking that waits for the store: its email's management link shows the request.
    const request = await createStudioService(owner, {
      slug: 'studio-request',
      name: 'Studio on request',
      resourceId,
      extra: { checkout: { approvalMode: 'MANUAL' } },
    });
    const asked = new Date();
    const requestKey = 'email-links-hold-0002';
    const requestHold = await bodyOf<{ id: string }>(
      await hosted.api('/public/booking-holds', {
        method: 'POST',
        slug: SLUG,
        headers: { 'x-idempotency-key': requestKey },
        body: JSON.stringify({ serviceId: request, ...tomorrowAt(11), quantity: 1, customerEmail: email }),
      }),
      'hold',
      201,
    );
    await bodyOf(
      await hosted.api(`/public/booking-holds/${requestHold.id}/checkout`, {
        method: 'POST',
        slug: SLUG,
        headers: { 'x-idempotency-key': requestKey },
        body: JSON.stringify({ customerName: 'Ada Lovelace', customerEmail: email }),
      }),
      'conversion',
      200,
    );
    const received = await hosted.mail(email, asked, /Booking request received/);
    await openFromBothParts(page, received, '/bookings/manage/m1_', /^Booking BK-/, 'request-manage');
    await page.getByText('Requested', { exact: true }).waitFor();
  });
});
