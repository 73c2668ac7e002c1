import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bodyOf,
  checkPage,
  createStudioService,
  heading,
  type Merchant,
  ownerOf,
  tomorrowAt,
} from './checkout-support.ts';
import { type Hosted, linkOf, signIn, startHosted } from './harness.ts';

/**
 * Booking checkout from a hold in headless Chromium (docs/bookings.md "Conversion"):
 * each conversion flow (PAYMENT then paid, REQUEST, CONFIRMED, TERMINAL) and the emailed management
 * link. Holds are made through the API as a storefront makes them. One gateway and browser for the
 * file; axe-core and a screenshot on every page visited.
 */
const SLUG = 'booking-shop';
let hosted: Hosted;
let owner: Merchant;
const services: Record<'pay' | 'request' | 'free' | 'deposit' | 'gone', string> = {
  pay: '',
  request: '',
  free: '',
  deposit: '',
  gone: '',
};
let studio: { id: string; requirementId: string };

beforeAll(async () => {
  hosted = await startHosted();
  await hosted.provision(SLUG);
  owner = await ownerOf(hosted, SLUG);
  const resource = await owner.created<{ id: string }>(
    owner.call('POST', '/merchant/booking-resources', { name: 'Studio', kind: 'SPACE', capacity: 3 }),
    'resource',
  );
  const service = (slug: string, name: string, extra: Record<string, unknown>) =>
    createStudioService(owner, { slug, name, resourceId: resource.id, extra });
  services.pay = await service('studio-hour', 'Studio hour', { checkout: { paymentMode: 'PAY_NOW' } });
  services.request = await service('studio-request', 'Studio on request', {
    checkout: { approvalMode: 'MANUAL' },
  });
  services.free = await service('studio-tour', 'Studio tour', {
    pricing: { basis: 'FLAT', amountInCents: 0 },
  });
  // A deposit of 20 %, and a chosen room: the summary names it.
  services.deposit = await service('studio-deposit', 'Studio with deposit', {
    checkout: { paymentMode: 'DEPOSIT', deposit: { percent: 20 } },
    requirements: [
      {
        name: 'Studio',
        resourceIds: [resource.id],
        units: { mode: 'PER_BOOKING', count: 1 },
        selection: 'OPTIONAL',
      },
    ],
  });
  services.gone = await service('studio-gone', 'Studio soon gone', { checkout: { paymentMode: 'PAY_NOW' } });
  const read = await bodyOf<{ requirements: { id: string }[] }>(
    await owner.call('GET', `/merchant/booking-services/${services.deposit}`),
    'service',
    200,
  );
  studio = { id: resource.id, requirementId: read.requirements[0]!.id };
});
afterAll(async () => hosted?.close());

let holds = 0;
/** A hold as the storefront makes it: its id, the key it was made with, and the customer's email. */
async function hold(serviceId: string, hour: number, email: string, extra: Record<string, unknown> = {}) {
  holds += 1;
  const key = `e2e-hold-key-${String(holds).padStart(6, '0')}`;
  const created = await bodyOf<{ id: string }>(
    await hosted.api('/public/booking-holds', {
      method: 'POST',
      slug: SLUG,
      headers: { 'x-idempotency-key': key },
      body: JSON.stringify({ serviceId, ...tomorrowAt(hour), quantity: 1, customerEmail: email, ...extra }),
    }),
    'hold',
    201,
  );
  return { id: created.id, key, email };
}

const checkoutPath = (held: { id: string; key: string; email: string }) =>
  `/hosted/${SLUG}/bookings/checkout?hold=${held.id}&email=${encodeURIComponent(held.email)}#key=${held.key}`;

/** The merchant's view of the one booking made for `email`. */
async function bookingFor(email: string) {
  const page = await bodyOf<{ data: { id: string; status: string }[] }>(
    await owner.call('GET', `/merchant/bookings?customerEmail=${encodeURIComponent(email)}`),
    'bookings',
    200,
  );
  expect(page.data).toHaveLength(1);
  return page.data[0]!;
}

/** The management link of the newest email to `email` that carries one. */
async function managementLink(email: string): Promise<string> {
  const deadline = Date.now() + 15_000;
  for (;;) {
    const row = await hosted.database.db
      .selectFrom('dev_emails')
      .select('text_body')
      .where('to_address', '=', email)
      .where('text_body', 'like', '%/bookings/manage/%')
      .orderBy('created_at', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (row) return linkOf(row.text_body, '/bookings/manage/');
    if (Date.now() > deadline) throw new Error(`no management link to ${email}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('booking checkout', () => {
  it('PAYMENT: shows the amount due and its deadline, pays it on the checkout page, and the booking is confirmed', async () => {
    const held = await hold(services.pay, 9, 'pay@example.com');
    const { page } = await hosted.newPage({ width: 390 });
    await page.goto(checkoutPath(held));
    await heading(page, 'Complete your booking');
    expect(await page.getByLabel('Email').inputValue()).toBe('pay@example.com');
    // What is booked: the service, when in its zone (named), how long, and what is due now.
    const summary = page.getByRole('region', { name: 'Studio hour' });
    expect(await factsOf(summary)).toEqual({
      When: `${whenOf(9)} to 10:00 AM`,
      Duration: '1 hour',
      Price: '$30.00',
      'Due now': '$30.00',
    });
    // The hold's time left, from the hold's own expiry (30 minutes, the service's default).
    expect(await page.locator('.hold-countdown > p').innerText()).toMatch(
      /^Held for you for (30:00|29:[0-5]\d)$/,
    );
    expect(await page.locator('.hold-countdown [role="status"]').innerText()).toMatch(
      /^(30|29) minutes left to complete your booking\.$/,
    );
    await checkPage(page, 'booking-checkout');
    await page.getByLabel('Full name').fill('Ada Lovelace');
    await page.getByRole('button', { name: 'Book' }).click();

    await heading(page, 'Pay to confirm your booking');
    await page.getByText('Due now').waitFor();
    // The payment page says what is booked, and the time left to pay (the payment window).
    await page.getByRole('region', { name: 'Studio hour' }).waitFor();
    expect(await page.locator('.hold-countdown > p').innerText()).toMatch(
      /^Reserved for you for \d+:[0-5]\d$/,
    );
    await checkPage(page, 'booking-flow-payment');
    expect((await bookingFor('pay@example.com')).status).toBe('PENDING_PAYMENT');
    await page.getByRole('link', { name: 'Pay $30.00' }).click();

    // The booking payment link's page (/checkout/pay?token=c1_…): bound to the amount due, no details step.
    await heading(page, 'Payment');
    expect(page.url()).toContain('/checkout/pay?token=c1_');
    expect(await page.getByRole('button', { name: 'Change details or shipping' }).count()).toBe(0);
    // Under the payment form: what it pays for, and the time left to pay.
    const paying = page.getByRole('region', { name: 'What you are paying for' });
    expect(await factsOf(paying.getByRole('region', { name: 'Studio hour' }))).toMatchObject({
      When: `${whenOf(9)} to 10:00 AM`,
      Duration: '1 hour',
      Total: '$30.00',
      'Paying now': '$30.00',
    });
    expect(await paying.locator('.hold-countdown > p').innerText()).toMatch(
      /^Reserved for you for \d+:[0-5]\d$/,
    );
    await checkPage(page, 'booking-payment');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/39');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Pay $30.00' }).click();
    await heading(page, 'Payment received');
    await page.getByText('Your payment was received and your booking is confirmed.').waitFor();
    await checkPage(page, 'booking-payment-result');
    expect((await bookingFor('pay@example.com')).status).toBe('CONFIRMED');
  });

  it('REQUEST: says the store reviews it; the management link shows the request and cancels it', async () => {
    const held = await hold(services.request, 10, 'request@example.com');
    const { page } = await hosted.newPage();
    await page.goto(checkoutPath(held));
    await page.getByLabel('Full name').fill('Grace Hopper');
    await page.getByRole('button', { name: 'Book' }).click();
    await heading(page, 'Booking requested');
    await checkPage(page, 'booking-flow-request');
    expect((await bookingFor('request@example.com')).status).toBe('REQUESTED');

    await page.goto(await managementLink('request@example.com'));
    await heading(page, /^Booking /);
    await page.getByRole('heading', { name: 'Studio on request' }).waitFor();
    await page.getByText('Requested', { exact: true }).waitFor();
    await checkPage(page, 'booking-manage');
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await heading(page, 'Cancel this booking');
    await page.getByLabel('Reason (optional)').fill('Plans changed');
    await checkPage(page, 'booking-manage-cancel');
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByText('Your booking is cancelled.').waitFor();
    await page.getByText('Cancelled', { exact: true }).waitFor();
    await checkPage(page, 'booking-manage-cancelled');
    expect((await bookingFor('request@example.com')).status).toBe('CANCELLED');
    // The link made its one change: reloaded, it shows the booking and offers nothing.
    await page.reload();
    await page.getByText('Cancelled', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Cancel booking' }).count()).toBe(0);
  });

  it('CONFIRMED: a free booking is booked at once (after the email is corrected)', async () => {
    const held = await hold(services.free, 11, 'free@example.com');
    const { page } = await hosted.newPage();
    await page.goto(checkoutPath(held));
    await page.getByLabel('Full name').fill('Katherine Johnson');
    await page.getByLabel('Email').fill('someone-else@example.com');
    await page.getByRole('button', { name: 'Book' }).click();
    await page.getByText('Use the email you started this booking with').waitFor();
    // Corrected and sent from the keyboard (Enter submits the form).
    await page.getByLabel('Email').fill('FREE@example.com');
    await page.getByLabel('Email').press('Enter');
    await heading(page, 'You are booked');
    await checkPage(page, 'booking-flow-confirmed');
    expect((await bookingFor('free@example.com')).status).toBe('CONFIRMED');

    // The management link asks to move it (the service's default policy: REQUEST) to a time the
    // availability search offers.
    await page.goto(await managementLink('free@example.com'));
    await page.getByText('Confirmed', { exact: true }).waitFor();
    await page.getByRole('button', { name: 'Ask to move to another time' }).click();
    await page.getByRole('button', { name: 'Find times' }).click();
    await page.getByRole('radio', { name: '3:00 PM' }).check();
    await checkPage(page, 'booking-manage-move');
    await page.getByRole('button', { name: 'Send the request' }).click();
    await page.getByText('We asked the store to move your booking.').waitFor();
    await page.getByText(/New time: Pending/).waitFor();
    await checkPage(page, 'booking-manage-move-requested');
  });

  it('TERMINAL: a hold that can no longer be booked says why; incomplete and unknown links say so', async () => {
    // The service is withdrawn while the form is open: "Book" answers TERMINAL.
    const held = await hold(services.gone, 12, 'terminal@example.com');
    const { page } = await hosted.newPage();
    await page.goto(checkoutPath(held));
    await page.getByRole('region', { name: 'Studio soon gone' }).waitFor();
    await owner.created(
      owner.call('PATCH', `/merchant/booking-services/${services.gone}`, { status: 'DRAFT' }),
      'withdraw',
      200,
    );
    await page.getByLabel('Full name').fill('Dorothy Vaughan');
    await page.getByRole('button', { name: 'Book' }).click();
    await heading(page, 'This booking could not be completed');
    await page.getByText('This service is no longer offered.').waitFor();
    await checkPage(page, 'booking-flow-terminal');

    await page.goto(`/hosted/${SLUG}/bookings/checkout?hold=${held.id}`);
    await heading(page, 'This booking link does not work');
    await checkPage(page, 'booking-checkout-incomplete');
    await page.goto(`/hosted/${SLUG}/bookings/manage/m1_unknown`);
    await heading(page, 'This booking link does not work');
    await checkPage(page, 'booking-manage-unknown');
  });

  it('a released hold: says so plainly, with what was held, and holds the same time again', async () => {
    const held = await hold(services.pay, 13, 'again@example.com');
    const release = await hosted.api(`/public/booking-holds/${held.id}`, {
      method: 'DELETE',
      slug: SLUG,
      headers: { 'x-idempotency-key': held.key },
    });
    expect(release.status).toBe(204);
    const { page } = await hosted.newPage();
    await page.goto(checkoutPath(held));
    await heading(page, 'This hold was released');
    await page.getByText('Nothing was booked and nothing was charged.').waitFor();
    await page.getByRole('region', { name: 'Studio hour' }).waitFor();
    expect(await page.getByLabel('Full name').count()).toBe(0);
    await checkPage(page, 'booking-hold-released');
    await page.getByRole('button', { name: 'Hold this time again' }).click();
    await heading(page, 'Complete your booking');
    const again = new URL(page.url());
    expect(again.searchParams.get('hold')).not.toBe(held.id);
    expect(again.searchParams.get('email')).toBe('again@example.com');
    expect(again.hash).toMatch(/^#key=hold-/);
    await page.getByLabel('Full name').fill('Mary Jackson');
    await page.getByRole('button', { name: 'Book' }).click();
    await heading(page, 'Pay to confirm your booking');
    expect((await bookingFor('again@example.com')).status).toBe('PENDING_PAYMENT');
  });

  it('a deposit: the chosen room, the deposit due now and the balance due later', async () => {
    const held = await hold(services.deposit, 14, 'deposit@example.com', {
      resourceSelections: [{ requirementId: studio.requirementId, resourceId: studio.id, quantity: 1 }],
    });
    const { page } = await hosted.newPage();
    await page.goto(checkoutPath(held));
    const summary = page.getByRole('region', { name: 'Studio with deposit' });
    await summary.waitFor();
    expect(await factsOf(summary)).toEqual({
      When: `${whenOf(14)} to 3:00 PM`,
      Duration: '1 hour',
      With: 'Studio',
      Price: '$30.00',
      'Deposit due now': '$6.00',
      'Balance due later': '$24.00',
    });
    await checkPage(page, 'booking-checkout-deposit');
  });

  it('the countdown: announced once a minute and for the last minute, then the hold has ended', async () => {
    const held = await hold(services.pay, 15, 'clock@example.com');
    // The hold ends 2 minutes 30 seconds from now.
    await hosted.database.db
      .updateTable('booking_holds')
      .set({ expires_at: new Date(Date.now() + 150_000) })
      .where('id', '=', held.id)
      .execute();
    const { page } = await hosted.newPage();
    await page.clock.install();
    await page.goto(checkoutPath(held));
    await heading(page, 'Complete your booking');
    const clock = page.locator('.hold-countdown-clock');
    const spoken = page.locator('.hold-countdown [role="status"]');
    const secondsLeft = async () => {
      const [minutes, seconds] = (await clock.innerText()).split(':').map(Number);
      return minutes! * 60 + seconds!;
    };
    expect(await secondsLeft()).toBeGreaterThan(120);
    expect(await spoken.getAttribute('aria-live')).toBe('polite');
    expect(await spoken.innerText()).toBe('2 minutes left to complete your booking.');
    // The clock ticks each second; the announcement does not change with it.
    const before = await clock.innerText();
    await page.clock.runFor(1_000);
    expect(await clock.innerText()).not.toBe(before);
    expect(await spoken.innerText()).toBe('2 minutes left to complete your booking.');
    await page.clock.runFor(((await secondsLeft()) - 119) * 1_000);
    expect(await spoken.innerText()).toBe('1 minute left to complete your booking.');
    await page.clock.runFor(60_000);
    expect(await spoken.innerText()).toBe('Less than a minute left to complete your booking.');
    await checkPage(page, 'booking-checkout-last-minute');
    await page.clock.runFor(60_000);
    await heading(page, 'Your hold on this time has ended');
    await page.getByText('The time we held for you ran out before the booking was completed.').waitFor();
    expect(await page.getByLabel('Full name').count()).toBe(0);
    await page.getByRole('button', { name: 'Hold this time again' }).waitFor();
    await checkPage(page, 'booking-hold-ended');
  });

  it('booking pages pass axe at 390 and 1280 px: checkout, payment, management and the account’s', async () => {
    for (const width of [390, 1280]) {
      const email = `wide-${width}@example.com`;
      const held = await hold(services.deposit, width === 390 ? 16 : 17, email);
      const { page } = await hosted.newPage({ width });
      // Signed in, so the booking is also the account's (its list and detail are checked too).
      await signIn(hosted, page, SLUG, email);
      await page.goto(checkoutPath(held));
      await page.getByRole('region', { name: 'Studio with deposit' }).waitFor();
      await checkPage(page, `booking-checkout-${width}`);
      await page.getByLabel('Full name').fill('Annie Easley');
      await page.getByRole('button', { name: 'Book' }).click();
      await heading(page, 'Pay to confirm your booking');
      await checkPage(page, `booking-flow-payment-${width}`);
      await page.getByRole('link', { name: 'Pay $6.00' }).click();
      await heading(page, 'Payment');
      const paying = page.getByRole('region', { name: 'What you are paying for' });
      expect(await factsOf(paying.getByRole('region', { name: 'Studio with deposit' }))).toMatchObject({
        Total: '$30.00',
        'Paying now': '$6.00',
        'Balance due later': '$24.00',
      });
      await checkPage(page, `booking-payment-${width}`);
      await page.goto(await managementLink(email));
      await heading(page, /^Booking /);
      await checkPage(page, `booking-manage-${width}`);
      await page.goto(`/hosted/${SLUG}/account/bookings`);
      await heading(page, 'Your bookings');
      await checkPage(page, `account-bookings-${width}`);
      await page.getByRole('link', { name: 'Studio with deposit' }).click();
      await heading(page, 'Studio with deposit');
      await checkPage(page, `account-booking-${width}`);
    }
  });
});

/** A summary's facts, term by term. */
async function factsOf(summary: import('playwright-core').Locator): Promise<Record<string, string>> {
  // The summary's rows come with its read: wait for them (allInnerTexts does not wait).
  await summary.locator('dd').first().waitFor();
  const terms = await summary.locator('dt').allInnerTexts();
  const values = await summary.locator('dd').allInnerTexts();
  return Object.fromEntries(terms.map((term, index) => [term, values[index]!]));
}

/** Tomorrow at `hour`:00 UTC as the summary shows it in the service's zone (UTC). */
function whenOf(hour: number): string {
  return new Intl.DateTimeFormat('en-US', {
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'UTC',
    timeZoneName: 'short',
  }).format(new Date(tomorrowAt(hour).startsAt));
}
