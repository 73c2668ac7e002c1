import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  codeOf,
  type Hosted,
  linkOf,
  screenshot,
  seriousViolations,
  signIn,
  startHosted,
} from './harness.ts';

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
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in');

    const sent = new Date();
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

describe('sign-in by link, keyboard, limits and stores', () => {
  it('signs in by the emailed link, also opened at the root path that names no store', async () => {
    const { page } = await hosted.newPage();
    await page.goto('/hosted/acme/account/sign-in');
    const sent = new Date();
    await page.getByLabel('Email').fill('link@example.com');
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    const mail = await hosted.mail('link@example.com', sent, /account\/verify\?token=/);
    const link = linkOf(mail.text, '/account/verify?token=');
    expect(link.startsWith(`${hosted.origin}/hosted/acme/account/verify?token=l1_`)).toBe(true);

    // The same link at a base without {orgSlug}: the token names the store. It signs in on the click.
    await page.goto(link.replace('/hosted/acme', ''));
    await page.getByRole('button', { name: 'Continue to sign in' }).click();
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    expect(page.url()).toBe(`${hosted.origin}/hosted/acme/account`);
    expect(await page.getByText('link@example.com').count()).toBeGreaterThan(0);

    // A link works once.
    await page.goto(link);
    await page.getByRole('button', { name: 'Continue to sign in' }).click();
    await page.getByRole('heading', { name: 'This sign-in link does not work' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('spends the link only on the click: opening it (an attacker’s link, a mail scanner) signs nobody in', async () => {
    // The victim is signed in to the store; the attacker mails them a link of the attacker's own.
    const victim = await hosted.newPage({ width: 390 });
    await signIn(hosted, victim.page, 'acme', 'victim@example.com');
    const victimSession = (await victim.context.cookies()).find((cookie) => cookie.name === '__Host-session');
    const sent = new Date();
    const requested = await hosted.api('/public/customer/auth/request-link', {
      method: 'POST',
      slug: 'acme',
      body: JSON.stringify({ email: 'attacker@example.com' }),
    });
    expect(requested.status).toBe(200);
    const mail = await hosted.mail('attacker@example.com', sent, /account\/verify\?token=/);
    const link = linkOf(mail.text, '/account/verify?token=');

    // Opening the link (and waiting) changes nothing: the page asks first.
    await victim.page.goto(link);
    await victim.page.getByRole('heading', { name: 'Finish signing in' }).waitFor();
    await victim.page.getByRole('button', { name: 'Continue to sign in' }).waitFor();
    await victim.page.waitForTimeout(500);
    expect(await seriousViolations(victim.page)).toEqual([]);
    await screenshot(victim.page, 'verify-link-phone');
    expect((await victim.context.cookies()).find((cookie) => cookie.name === '__Host-session')).toEqual(
      victimSession,
    );
    await victim.page.goto('/hosted/acme/account');
    await victim.page.getByRole('heading', { name: 'Your account' }).waitFor();
    expect(await victim.page.getByText('victim@example.com').count()).toBeGreaterThan(0);

    // A scanner that loaded the link did not use it up: its owner's click still signs in.
    const owner = await hosted.newPage({ width: 1280 });
    await owner.page.goto(link);
    await owner.page.getByRole('button', { name: 'Continue to sign in' }).waitFor();
    await screenshot(owner.page, 'verify-link-desktop');
    expect(
      (await owner.context.cookies()).find((cookie) => cookie.name === '__Host-session'),
    ).toBeUndefined();
    await owner.page.getByRole('button', { name: 'Continue to sign in' }).click();
    await owner.page.getByRole('heading', { name: 'Your account' }).waitFor();
    expect(await owner.page.getByText('attacker@example.com').count()).toBeGreaterThan(0);
    expect((await owner.context.cookies()).find((cookie) => cookie.name === '__Host-session')).toBeDefined();
  });

  it('sends a signed-out visitor of an account page to sign-in and back to that page', async () => {
    const { page } = await hosted.newPage();
    await page.goto('/hosted/acme/account/addresses');
    await page.getByRole('heading', { name: 'Sign in to your account' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('main').getByRole('link', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    const sent = new Date();
    await page.getByLabel('Email').fill('back@example.com');
    await page.getByRole('button', { name: 'Email me a code' }).click();
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    const mail = await hosted.mail('back@example.com', sent);
    await page.getByLabel('6-digit code').fill(codeOf(mail.text));
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await page.getByRole('heading', { name: 'Address book' }).waitFor();
    expect(page.url()).toBe(`${hosted.origin}/hosted/acme/account/addresses`);
  });

  it('signs in with the keyboard alone (Tab, typing and Enter)', async () => {
    const { page } = await hosted.newPage();
    await page.goto('/hosted/acme/account/sign-in');
    const tabTo = async (selector: string) => {
      for (let presses = 0; presses < 20; presses++) {
        await page.keyboard.press('Tab');
        if (await page.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector))
          return;
      }
      throw new Error(`Tab never reached ${selector}`);
    };
    await tabTo('input[name="email"]');
    await page.keyboard.type('keys@example.com');
    const sent = new Date();
    await tabTo('button[value="code"]');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Check your email' }).waitFor();
    const mail = await hosted.mail('keys@example.com', sent);
    await tabTo('input[name="code"]');
    await page.keyboard.type(codeOf(mail.text));
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    await tabTo('button.button-secondary');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Sign out');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  });

  it('shows a rate limit with its wait', async () => {
    for (let request = 0; request < 5; request++) {
      const response = await hosted.api('/public/customer/auth/request-otp', {
        method: 'POST',
        slug: 'acme',
        body: JSON.stringify({ email: 'busy@example.com' }),
      });
      expect(response.status).toBe(200);
    }
    const { page } = await hosted.newPage();
    await page.goto('/hosted/acme/account/sign-in');
    await page.getByLabel('Email').fill('busy@example.com');
    await page.getByRole('button', { name: 'Email me a code' }).click();
    await page
      .getByRole('alert')
      .getByText(/^Too many attempts\. Try again in \d+ minutes\.$/)
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in-rate-limited');
  });

  it("refuses another store's session and offers to sign in again", async () => {
    await hosted.provision('other');
    const { page, context } = await hosted.newPage();
    await signIn(hosted, page, 'acme', 'both@example.com');

    await page.goto('/hosted/other/account');
    await page.getByRole('heading', { name: 'You are signed in to another store' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'other-store');
    // The server refuses the acme session for the other store (the page only explains it).
    const cookie = (await context.cookies()).find((candidate) => candidate.name === '__Host-session')!;
    const refused = await hosted.api('/customer/account/profile', {
      slug: 'other',
      headers: { cookie: `__Host-session=${cookie.value}` },
    });
    expect(refused.status).toBe(401);

    await page.getByRole('button', { name: 'Sign in again' }).click();
    await page.getByRole('heading', { name: 'Sign in' }).waitFor();
    expect(page.url()).toContain('/hosted/other/account/sign-in');
    // Signing in again here signed the browser out of acme: that session is revoked.
    const revoked = await hosted.api('/customer/account/profile', {
      slug: 'acme',
      headers: { cookie: `__Host-session=${cookie.value}` },
    });
    expect(revoked.status).toBe(401);

    await signIn(hosted, page, 'other', 'both@example.com');
    expect(page.url()).toBe(`${hosted.origin}/hosted/other/account`);
  });
});
