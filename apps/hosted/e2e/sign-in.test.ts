import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codeOf, type Hosted, screenshot, seriousViolations, startHosted } from './harness.ts';

let hosted: Hosted;
beforeAll(async () => {
  hosted = await startHosted();
  await hosted.provision('acme');
});
afterAll(async () => hosted?.close());

describe('sign-in', () => {
  it('signs in with a code read from the mail log, shows the account and signs out', async () => {
    const { page, context } = await hosted.newPage();
    await page.goto('/hosted/acme/account/sign-in');
    await expect(page.getByRole('heading', { name: 'Sign in' }).isVisible()).resolves.toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in');

    const sent = new Date(Date.now() - 1000);
    await page.getByLabel('Email').fill('Shopper@Example.com');
    await page.getByRole('button', { name: 'Email me a code' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    const mail = await hosted.mail('shopper@example.com', sent);
    await page.getByLabel('6-digit code').fill(codeOf(mail.text));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();

    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    expect(await page.getByText('shopper@example.com').count()).toBeGreaterThan(0);
    // The session is an HttpOnly __Host- cookie: the page's script cannot read it, nor keeps a token.
    const cookies = await context.cookies();
    expect(cookies.find((cookie) => cookie.name === '__Host-session')).toMatchObject({
      httpOnly: true,
      secure: true,
      path: '/',
    });
    expect(await page.evaluate(() => document.cookie)).toBe('');
    expect(await page.evaluate(() => JSON.stringify({ ...localStorage, ...sessionStorage }))).not.toMatch(
      /s1_/,
    );

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect((await context.cookies()).find((cookie) => cookie.name === '__Host-session')).toBeUndefined();
  });
});
