import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../src/i18n/en.ts';
import { catalogueFor, currentLocale, setLocale, type Translation, t, translate } from '../src/i18n/index.ts';
import { checkPage, heading } from './checkout-support.ts';
import { type Hosted, shippedOrder, signIn, startHosted } from './harness.ts';

/**
 * The store's locale, not the browser's: a store set to `de-DE` writes its money, numbers and dates
 * in German and says `<html lang="de-DE">` to a browser running in en-US (the harness's context
 * locale), while an en-US store reads as before. The texts come from the catalogue of the store's
 * language, English where it has none (there is no German catalogue yet, so the German store's words
 * are English: the second test shows how one is chosen).
 */
const GERMAN = 'locale-de';
const AMERICAN = 'locale-us';
const EMAIL = 'ada@example.com';
let hosted: Hosted;
/** When each store's order was placed. */
const placedAt = new Map<string, Date>();

beforeAll(async () => {
  hosted = await startHosted();
  for (const slug of [GERMAN, AMERICAN]) {
    await hosted.provision(slug);
    // Two tees at $15.00, shipped: the order's total is $30.00.
    const order = (await shippedOrder(hosted, slug, EMAIL)) as { createdAt?: string };
    placedAt.set(slug, new Date(order.createdAt!));
  }
  // Sent in lower case: the store keeps (and answers) the canonical tag.
  await hosted.merchant(GERMAN, 'PATCH', '/merchant/settings', { businessProfile: { locale: 'de-de' } });
});
afterAll(async () => hosted?.close());

describe('formats and language follow the store, not the browser', () => {
  it('a de-DE store: lang="de-DE", money and dates in German, country names in German', async () => {
    const { page } = await hosted.newPage({ width: 1280 });
    expect(await page.evaluate(() => navigator.language)).toBe('en-US');
    await signIn(hosted, page, GERMAN, EMAIL);
    await expect.poll(() => page.evaluate(() => document.documentElement.lang)).toBe('de-DE');

    await page.goto(`/hosted/${GERMAN}/account/orders`);
    await heading(page, 'Your orders');
    const row = page.getByRole('row').nth(1);
    // German writes the amount first, a decimal comma and the symbol after: "30,00 $".
    await expect.poll(() => row.getByRole('cell').nth(3).textContent()).toBe('30,00\u00a0$');
    const german = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium' }).format(placedAt.get(GERMAN));
    expect(german).toMatch(/^\d{2}\.\d{2}\.\d{4}$/);
    expect(await row.getByRole('cell').nth(1).textContent()).toBe(german);
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('de-DE');

    await page.goto(`/hosted/${GERMAN}/account/addresses`);
    await page.getByRole('button', { name: 'Add an address' }).click();
    const country = page.getByLabel('Country');
    expect(await country.locator('option[value="DE"]').textContent()).toBe('Deutschland');
    expect(await country.locator('option[value="US"]').textContent()).toBe('Vereinigte Staaten');
    await checkPage(page, 'store-locale-de-addresses-1280');
  });

  it('draws the page only once the store is read, so its first render is already in the store locale', async () => {
    const { page } = await hosted.newPage({ width: 390 });
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route('**/trpc/public.organization.get**', async (route) => {
      await held;
      await route.continue();
    });
    // Every text the page draws while the store is unknown, with the page's lang at that moment.
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { seen: string[] }).seen = seen;
      new MutationObserver(() => {
        if (document.querySelector('h1')) seen.push(document.documentElement.lang);
      }).observe(document, { subtree: true, childList: true });
    });
    await page.goto(`/hosted/${GERMAN}/account/sign-in`);
    await page.getByRole('status').filter({ hasText: 'Loading the page…' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Sign in' }).count()).toBe(0);
    release();
    await heading(page, 'Sign in');
    // No heading was ever drawn in en-US (a page drawn early, then again, would lose what was typed).
    const langs = await page.evaluate(() => (window as unknown as { seen: string[] }).seen);
    expect(langs.length).toBeGreaterThan(0);
    expect(new Set(langs)).toEqual(new Set(['de-DE']));
  });

  it('an en-US store reads as before: lang="en-US", "$30.00" and "Nov 29, 2026"-style dates', async () => {
    const { page } = await hosted.newPage({ width: 1280 });
    await signIn(hosted, page, AMERICAN, EMAIL);
    await page.goto(`/hosted/${AMERICAN}/account/orders`);
    await heading(page, 'Your orders');
    const row = page.getByRole('row').nth(1);
    await expect.poll(() => row.getByRole('cell').nth(3).textContent()).toBe('$30.00');
    expect(await row.getByRole('cell').nth(1).textContent()).toBe(
      new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' }).format(placedAt.get(AMERICAN)),
    );
    expect(await page.evaluate(() => document.documentElement.lang)).toBe('en-US');
    await page.goto(`/hosted/${AMERICAN}/account/addresses`);
    await page.getByRole('button', { name: 'Add an address' }).click();
    expect(await page.getByLabel('Country').locator('option[value="DE"]').textContent()).toBe('Germany');
  });
});

describe('the text catalogue', () => {
  /** A translation as a file would hold it: a few keys, one a function. */
  const german: Translation = {
    'nav.orders': 'Bestellungen',
    'orders.orderNumber': (number) => `Bestellung Nr. ${number}`,
    'checkout.continueToPayment': 'Weiter zur Zahlung',
    'checkout.openUntil': (when) => `Diese Kasse ist bis ${when} geöffnet.`,
  };
  const catalogues = { en, de: german };

  it("picks the catalogue of the store locale's language, English for a language it lacks", () => {
    expect(catalogueFor('de-DE', catalogues)).toBe(german);
    expect(catalogueFor('de-AT', catalogues)).toBe(german);
    expect(catalogueFor('de', catalogues)).toBe(german);
    expect(catalogueFor('fr-FR', catalogues)).toBe(en);
    expect(catalogueFor('not a locale', catalogues)).toBe(en);
  });

  it('reads a key the translation has, with its values, and English for one it lacks', () => {
    const catalogue = catalogueFor('de-DE', catalogues);
    expect(translate(catalogue, 'nav.orders')).toBe('Bestellungen');
    expect(translate(catalogue, 'orders.orderNumber', 42)).toBe('Bestellung Nr. 42');
    expect(translate(catalogue, 'nav.addresses')).toBe('Addresses');
    expect(translate(catalogue, 'returns.quantity', 3)).toBe('Quantity to return (up to 3)');
    // The checkout's texts are the catalogue's too: translated where the file has them, else English.
    expect(translate(catalogue, 'checkout.continueToPayment')).toBe('Weiter zur Zahlung');
    expect(translate(catalogue, 'checkout.openUntil', '30.11.2026, 09:00')).toBe(
      'Diese Kasse ist bis 30.11.2026, 09:00 geöffnet.',
    );
    expect(translate(catalogue, 'payment.pay', '30,00 $')).toBe('Pay 30,00 $');
    expect(translate(catalogue, 'bookings.statusName', 'PENDING_APPROVAL')).toBe('Pending approval');
  });

  it("t follows the store's locale; a malformed one keeps en-US", () => {
    setLocale('de-de');
    expect(currentLocale()).toBe('de-DE');
    // No German file ships yet: every key reads in English.
    expect(t('nav.orders')).toBe('Orders');
    setLocale('not a locale');
    expect(currentLocale()).toBe('en-US');
    expect(t('orders.orderNumber', 7)).toBe('Order #7');
  });
});
