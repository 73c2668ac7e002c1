import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodyOf, checkPage, heading, openCheckoutSession, ownerOf } from './checkout-support.ts';
import { type Hosted, startHosted } from './harness.ts';

/**
 * The app shell: the store's header (its display name linking back to its website, no account
 * menu while paying), the document title of each page, and a skeleton while the store and the
 * page's data load (never a blank page).
 */
const SLUG = 'shell-shop';
const WEBSITE = 'https://northwind.example/';
let hosted: Hosted;
let checkoutToken: string;

beforeAll(async () => {
  hosted = await startHosted();
  await hosted.provision(SLUG);
  const owner = await ownerOf(hosted, SLUG);
  await bodyOf(
    await owner.call('PATCH', '/merchant/settings', {
      businessProfile: { displayName: 'Northwind Goods', websiteUrl: WEBSITE },
    }),
    'settings',
    200,
  );
  const item = await owner.created<{ id: string }>(
    owner.call('POST', '/merchant/items', {
      type: 'SALE',
      status: 'ACTIVE',
      slug: 'mug',
      name: 'Mug',
      priceInCents: 1250,
    }),
    'item',
  );
  const session = await openCheckoutSession<{ checkoutToken: string }>(hosted, SLUG, [
    { itemId: item.id, quantity: 1 },
  ]);
  checkoutToken = session.checkoutToken;
});
afterAll(async () => hosted?.close());

describe('app shell', () => {
  it('during checkout: the store name links to its website, no account menu, the title names the store', async () => {
    const { page } = await hosted.newPage({ width: 390 });
    await page.goto(`/hosted/${SLUG}/checkout?token=${checkoutToken}`);
    await heading(page, 'Checkout');
    const brand = page.getByRole('banner').getByRole('link', { name: 'Northwind Goods' });
    expect(await brand.getAttribute('href')).toBe(WEBSITE);
    expect(await page.getByRole('navigation', { name: 'Account' }).count()).toBe(0);
    await page.getByText('Secure checkout').waitFor();
    await expect.poll(() => page.title()).toBe('Checkout – Northwind Goods');
    await checkPage(page, 'shell-checkout-390');
  });

  it('in the account area: the account menu, and a title per page', async () => {
    const { page } = await hosted.newPage({ width: 1280 });
    await page.goto(`/hosted/${SLUG}/account/sign-in`);
    await heading(page, 'Sign in');
    await expect.poll(() => page.title()).toBe('Sign in – Northwind Goods');
    // Not signed in yet: nothing to navigate to.
    expect(await page.getByRole('navigation', { name: 'Account' }).count()).toBe(0);

    await page.goto(`/hosted/${SLUG}/order-status`);
    await page.getByRole('navigation', { name: 'Account' }).waitFor();
    await expect.poll(() => page.title()).toBe('Order status – Northwind Goods');

    await page.goto(`/hosted/${SLUG}/no-such-page`);
    await heading(page, 'Page not found');
    await expect.poll(() => page.title()).toBe('Page not found – Northwind Goods');
    await checkPage(page, 'shell-not-found-1280');
  });

  it('shows a skeleton, announced as loading, while the store and the checkout load', async () => {
    const { page } = await hosted.newPage({ width: 390 });
    // The API answers only when the test lets it: the page meanwhile shows its skeleton.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/trpc/**', async (route) => {
      await held;
      await route.continue();
    });
    await page.goto(`/hosted/${SLUG}/checkout?token=${checkoutToken}`);
    const loading = page.getByRole('status').filter({ hasText: /Loading/ });
    await loading.waitFor();
    expect(await loading.getAttribute('aria-busy')).toBe('true');
    expect(await page.locator('.ui-skeleton').count()).toBeGreaterThan(1);
    await page.getByRole('banner').locator('.ui-skeleton').waitFor();
    expect(await page.getByRole('heading', { name: 'Checkout' }).count()).toBe(0);

    release();
    await heading(page, 'Checkout');
    await page.getByRole('banner').getByRole('link', { name: 'Northwind Goods' }).waitFor();
    expect(await page.locator('.ui-skeleton').count()).toBe(0);
  });
});
