import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Hosted, startHosted } from './harness.ts';

let hosted: Hosted;
beforeAll(async () => {
  hosted = await startHosted();
  await hosted.provision('acme');
});
afterAll(async () => hosted?.close());

describe('the Content-Security-Policy of the hosted pages', () => {
  it("lets React Aria's inserted style element apply, by the answer's nonce, and blocks nothing", async () => {
    const { page } = await hosted.newPage();
    await page.addInitScript(() => {
      const seen: string[] = [];
      (window as unknown as { cspViolations: string[] }).cspViolations = seen;
      // Styles only: zod probes whether `new Function` is allowed (caught), which reports a script-src 'eval'.
      document.addEventListener('securitypolicyviolation', (event) => {
        if (event.effectiveDirective.startsWith('style-src'))
          seen.push(`${event.effectiveDirective} ${event.blockedURI} ${event.sample}`);
      });
    });
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
    expect(
      await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
    ).toEqual([]);
    const policy = answer?.headers()['content-security-policy'] ?? '';
    expect(policy).not.toContain('unsafe-inline');
    const nonce = /'nonce-([^']+)'/.exec(policy)?.[1];
    expect(nonce).toBeDefined();
    expect(style?.nonce).toBe(nonce);
  });
});
