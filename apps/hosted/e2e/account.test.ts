import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  codeOf,
  type Hosted,
  screenshot,
  seriousViolations,
  shippedOrder,
  signIn,
  startHosted,
} from './harness.ts';

let hosted: Hosted;
beforeAll(async () => {
  hosted = await startHosted();
  await hosted.provision('acme');
});
afterAll(async () => hosted?.close());

describe('the account', () => {
  it('shows an order with its items and shipment, opens a return and cancels it', async () => {
    const order = await shippedOrder(hosted, 'acme', 'ada@example.com');
    const { page } = await hosted.newPage();
    await signIn(hosted, page, 'acme', 'ada@example.com');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'account');

    await page.getByRole('link', { name: 'Orders and returns' }).click();
    await page.getByRole('heading', { name: 'Your orders' }).waitFor();
    expect(await page.getByRole('cell', { name: '$30.00' }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'orders');

    await page.getByRole('link', { name: `Order #${order.orderNumber}` }).click();
    await page.getByRole('heading', { name: `Order #${order.orderNumber}` }).waitFor();
    expect(page.url()).toBe(`${hosted.origin}/hosted/acme/account/orders/${order.orderReference}`);
    await page.getByRole('cell', { name: 'Tee' }).waitFor();
    expect(await page.getByText('TRACK123').count()).toBe(1);
    await page.getByRole('heading', { name: 'Request a return' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByLabel('Quantity to return (up to 2)').fill('1');
    await page.getByLabel('Reason').selectOption('SIZE_OR_FIT');
    await page.getByRole('button', { name: 'Request return' }).click();
    await page.getByText('Your return was requested.').waitFor();
    await page.getByText('1 × Tee (Size or fit)').waitFor();
    expect(await page.getByText('Requested', { exact: true }).count()).toBe(1);
    // One tee is left to return.
    await page.getByLabel('Quantity to return (up to 1)').waitFor();
    expect(await page.getByLabel('Quantity to return (up to 1)').inputValue()).toBe('0');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'order-detail');

    await page.getByRole('button', { name: 'Cancel this return' }).click();
    await page.getByText('Cancelled', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Cancel this return' }).count()).toBe(0);
    const returns = await hosted.database.db.selectFrom('returns').select('status').execute();
    expect(returns).toEqual([{ status: 'CANCELLED' }]);

    // The order's link at a base without {orgSlug} carries no token: the store this browser signed
    // in to is the one.
    await page.goto(`/account/orders/${order.orderReference}`);
    await page.getByRole('heading', { name: `Order #${order.orderNumber}` }).waitFor();
    expect(page.url()).toBe(`${hosted.origin}/hosted/acme/account/orders/${order.orderReference}`);
  });

  it('edits the profile, changes the email through its verification and keeps an address book', async () => {
    const { page } = await hosted.newPage();
    await signIn(hosted, page, 'acme', 'grace@example.com');
    await page.getByRole('link', { name: 'Profile and email' }).click();
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    await page.getByLabel('Name', { exact: true }).fill('Grace Hopper');
    await page.getByRole('textbox', { name: 'Phone' }).fill('+1 555 0100');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your profile was saved.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);

    const sent = new Date();
    await page.getByLabel('New email').fill('not-an-email');
    await page.getByRole('button', { name: 'Change email' }).click();
    await page.locator('input[name="email"][aria-invalid="true"]').waitFor();
    await page.getByLabel('New email').fill('grace.hopper@example.com');
    await page.getByRole('button', { name: 'Change email' }).click();
    await page.getByLabel('Code sent to the new email').waitFor();
    const mail = await hosted.mail('grace.hopper@example.com', sent);
    await page.getByLabel('Code sent to the new email').fill(codeOf(mail.text));
    await page.getByRole('button', { name: 'Confirm new email' }).click();
    await page.getByText('Your email was changed.').waitFor();
    expect(await page.getByText('grace.hopper@example.com').count()).toBeGreaterThan(0);
    await screenshot(page, 'profile');

    await page.getByRole('link', { name: 'Addresses' }).click();
    await page.getByRole('heading', { name: 'Address book' }).waitFor();
    await page.getByRole('button', { name: 'Add an address' }).click();
    await page.getByLabel('Recipient').fill('Grace Hopper');
    await page.getByLabel('Address line 1').fill('1 Navy Way');
    await page.getByLabel('City').fill('Arlington');
    // The country comes from the list checkout offers (ISO 3166), by name: no free two-letter text.
    const country = page.getByLabel('Country');
    expect(await country.evaluate((element) => element.tagName)).toBe('SELECT');
    await country.selectOption({ label: 'United States' });
    await page.getByText('Default shipping address').click();
    await page.getByRole('button', { name: 'Save address' }).click();
    await page.getByText('Default shipping.').waitFor();
    expect(await page.getByText('United States', { exact: true }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Edit Grace Hopper' }).click();
    await page.getByLabel('City').fill('Washington');
    await page.getByText('Default billing address').click();
    await page.getByRole('button', { name: 'Save address' }).click();
    await page.getByText('Default billing.').waitFor();
    expect(await page.getByText('Washington').count()).toBe(1);
    await screenshot(page, 'addresses');
    const stored = await hosted.database.db
      .selectFrom('customer_addresses')
      .select(['city', 'country', 'is_default_shipping', 'is_default_billing'])
      .execute();
    expect(stored).toEqual([
      { city: 'Washington', country: 'US', is_default_shipping: true, is_default_billing: true },
    ]);

    await page.getByRole('button', { name: 'Delete Grace Hopper' }).click();
    await page.getByRole('button', { name: 'Yes, delete it' }).click();
    await page.getByText('You have no saved addresses.').waitFor();
  });

  it('works at phone width (375 px) with nothing wider than the screen', async () => {
    await shippedOrder(hosted, 'acme', 'phone@example.com');
    const { page } = await hosted.newPage({ width: 375 });
    await signIn(hosted, page, 'acme', 'phone@example.com');
    await page.getByRole('link', { name: 'Orders and returns' }).click();
    await page.getByRole('link', { name: /Order #/ }).click();
    await page.getByRole('heading', { name: 'Request a return' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'order-detail-phone');

    await page.getByRole('link', { name: 'Bookings' }).click();
    await page.getByRole('heading', { name: 'Your bookings' }).waitFor();
    expect(await page.getByText('You have no bookings.').count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto('/hosted/acme/no-such-page');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });
});

describe('bookings in the account', () => {
  it('lists the customer’s booking, shows it and cancels it under a self-service policy', async () => {
    const daily = [{ start: '08:00', end: '20:00' }];
    const resource = await hosted.merchant<{ id: string }>('acme', 'POST', '/merchant/booking-resources', {
      name: 'Room',
      kind: 'SPACE',
      capacity: 1,
    });
    const service = await hosted.merchant<{ id: string }>('acme', 'POST', '/merchant/booking-services', {
      slug: 'meeting-room',
      name: 'Meeting room',
      status: 'ACTIVE',
      periodMode: 'EXACT_RANGE',
      timezone: 'Asia/Tokyo',
      durations: { minMinutes: 30, maxMinutes: 480, startIntervalMinutes: 30 },
      availability: {
        weeklyHours: { MON: daily, TUE: daily, WED: daily, THU: daily, FRI: daily, SAT: daily, SUN: daily },
      },
      requirements: [{ name: 'Room', resourceIds: [resource.id], units: { mode: 'PER_BOOKING', count: 1 } }],
      pricing: { basis: 'FLAT', amountInCents: 3000 },
      policies: {
        cancellation: { mode: 'SELF_SERVICE', cutoffMinutes: 0 },
        reschedule: { mode: 'SELF_SERVICE', cutoffMinutes: 0 },
      },
    });
    const day = new Date(Date.now() + 10 * 24 * 3600_000).toISOString().slice(0, 10);
    await hosted.merchant(
      'acme',
      'POST',
      '/merchant/bookings',
      {
        serviceId: service.id,
        startsAt: `${day}T10:00:00Z`,
        endsAt: `${day}T11:00:00Z`,
        quantity: 1,
        customer: { name: 'Bea', email: 'bea@example.com' },
        ignoreRules: true,
      },
      { 'x-idempotency-key': `hosted-e2e-booking-${day}` },
    );

    const { page } = await hosted.newPage();
    await signIn(hosted, page, 'acme', 'bea@example.com');
    await page.getByRole('navigation').getByRole('link', { name: 'Bookings' }).click();
    await page.getByRole('heading', { name: 'Your bookings' }).waitFor();
    await page.getByRole('link', { name: 'Meeting room' }).click();
    await page.getByRole('heading', { name: 'Meeting room' }).waitFor();
    expect(await page.getByText('Confirmed', { exact: true }).count()).toBe(1);
    // 10:00 UTC is 19:00 in Tokyo, the service's zone, whatever the browser's (UTC here).
    expect(await page.getByText(/, 7:00\s?PM GMT\+9$/).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'booking-detail');

    await page.getByLabel('Reason (optional)').fill('Plans changed');
    await page.getByRole('button', { name: 'Cancel booking' }).click();
    await page.getByText('Cancelled', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Cancel booking' }).count()).toBe(0);
  });
});
