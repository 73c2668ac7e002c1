import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { heading, openCheckoutSession, ownerOf } from './checkout-support.ts';
import { type Hosted, startHosted } from './harness.ts';

let hosted: Hosted;
beforeAll(async () => {
  hosted = await startHosted();
  await hosted.provision('acme');
});
afterAll(async () => hosted?.close());

/**
 * Every report of the page's policy, as readable lines: the `securitypolicyviolation` events of
 * the document (any directive) and the console's "Refused to …" errors.
 */
async function watchViolations(page: Page): Promise<() => Promise<string[]>> {
  const logged: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy|Refused to/i.test(message.text()))
      logged.push(`console: ${message.text()}`);
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { cspViolations: string[] }).cspViolations = seen;
    document.addEventListener('securitypolicyviolation', (event) =>
      seen.push(`${event.effectiveDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber}`),
    );
  });
  return async () => [
    ...logged,
    ...(await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations)),
  ];
}

describe('the Content-Security-Policy of the hosted pages', () => {
  it("lets React Aria's inserted style element apply, by the answer's nonce, and blocks nothing", async () => {
    const { page } = await hosted.newPage();
    const violations = await watchViolations(page);
    const answer = await page.goto('/hosted/acme/account/sign-in');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const button = page.getByRole('button', { name: 'Email me a code' });
    await button.waitFor();

    // React Aria's press rule: inserted with the nonce, and in force on its pressable elements.
    const style = await page.evaluate(() => {
      const element = document.getElementById('react-aria-pressable-style') as HTMLStyleElement | null;
      return element ? { nonce: element.nonce, rules: element.sheet?.cssRules.length ?? 0 } : null;
    });
    expect(style?.rules).toBe(1);
    // `pan-x pan-y pinch-zoom` is what `manipulation` means; Chromium reports it by that name (not `auto`).
    expect(['manipulation', 'pan-x pan-y pinch-zoom']).toContain(
      await button.evaluate((element) => getComputedStyle(element).touchAction),
    );
    expect(await violations()).toEqual([]);
    const policy = answer?.headers()['content-security-policy'] ?? '';
    expect(policy).not.toContain('unsafe-inline');
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toBeDefined();
    expect(style?.nonce).toBe(nonce);
  });

  it('reports no violation on any page, at phone width: no style refused, no eval probed', async () => {
    const owner = await ownerOf(hosted, 'acme');
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
    const session = await openCheckoutSession<{ checkoutToken: string }>(hosted, 'acme', [
      { itemId: item.id, quantity: 1 },
    ]);
    const pages: [string, string | RegExp][] = [
      ['/hosted/acme/account/sign-in', 'Sign in'],
      [`/hosted/acme/checkout?token=${session.checkoutToken}`, 'Checkout'],
      ['/hosted/acme/order-status?token=o1_unknown', /./],
      ['/hosted/acme/bookings/manage/m1_unknown', /./],
      ['/hosted/acme/email/unsubscribe?token=u1_unknown', /./],
      ['/hosted/acme/no-such-page', /./],
    ];
    for (const [path, title] of pages) {
      const { page } = await hosted.newPage({ width: 390 });
      const violations = await watchViolations(page);
      await page.goto(path);
      await heading(page, title);
      // The page has settled (its requests answered) before the reports are read.
      await page.waitForLoadState('networkidle');
      expect(await violations(), path).toEqual([]);
      await page.close();
    }
  });
});
