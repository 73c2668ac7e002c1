import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Gallery, seriousViolations, startGallery } from './browser.ts';

/** The components in headless Chromium at a phone's and a desktop's width. */
let gallery: Gallery;
beforeAll(async () => {
  gallery = await startGallery();
});
afterAll(async () => gallery?.close());

const box = async (page: Page, name: string) => {
  const found = await page.getByRole('button', { name, exact: true }).boundingBox();
  if (!found) throw new Error(`no ${name} button`);
  return found;
};

/** Where a button is on the page (not in the viewport, which scrolls as fields take the focus). */
const offset = (page: Page, name: string) =>
  page.getByRole('button', { name, exact: true }).evaluate((element) => {
    const rect = element.getBoundingClientRect();
    return { top: rect.top + window.scrollY, left: rect.left + window.scrollX, height: rect.height };
  });

describe.each([390, 1280])('at %i px', (width) => {
  it('renders every component with no serious accessibility violation and no sideways scroll', async () => {
    const page = await gallery.open(width);
    expect(await seriousViolations(page)).toEqual([]);
    // With the form's messages showing, too.
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Choose a country.').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // 16 px text in inputs (a phone does not zoom into them) and 44 px touch targets.
    const input = page.getByLabel('Email');
    expect(await input.evaluate((element) => getComputedStyle(element).fontSize)).toBe('16px');
    expect((await box(page, 'Continue')).height).toBeGreaterThanOrEqual(44);
    await page.context().close();
  });
});

describe('form', () => {
  it('shows plain-language messages on submit and keeps the button still while they are fixed', async () => {
    const page = await gallery.open(390);
    await page.getByRole('button', { name: 'Continue' }).click();
    const email = page.getByLabel('Email');
    await page.getByText('Enter an email address like name@example.com.').waitFor();
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    const before = await offset(page, 'Continue');

    // Fixing the field removes its message at once, and leaving the field moves nothing.
    await email.fill('ada@example.com');
    await page.getByLabel('Delivery note').focus();
    expect(await page.getByText('Enter an email address like name@example.com.').count()).toBe(0);
    expect(await offset(page, 'Continue')).toEqual(before);

    // The first click after the fix lands on the button (where the pointer finds it on screen).
    await page.getByRole('button', { name: 'Continue', exact: true }).scrollIntoViewIfNeeded();
    const now = await box(page, 'Continue');
    await page.mouse.click(now.x + now.width / 2, now.y + now.height / 2);
    await page.getByText('Submitted 2 times').waitFor();
    await page.context().close();
  });

  it('submits the select, radio and checkbox values, and the pending button ignores presses', async () => {
    const page = await gallery.open(1280);
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByRole('button', { name: /Country/ }).click();
    await page.getByRole('option', { name: 'Canada' }).click();
    await page.getByText('Express').click();
    expect(await page.getByRole('radio', { name: /Express/ }).isChecked()).toBe(true);
    await page.getByText('I accept the terms of sale').click();
    const idle = await box(page, 'Continue');
    await page.getByRole('button', { name: 'Continue' }).click();
    await page.getByText('Submitted 1 times').waitFor();
    expect(await page.getByText(/Choose|Enter|Accept/).count()).toBe(0);

    // Pending: the same size, announced, and a second press does not submit again.
    // (A pending button is `type="button"`: Enter in a field cannot submit the form again either.)
    const button = page.getByRole('form', { name: 'Details' }).locator('button.ui-button');
    await button.getByRole('progressbar', { name: 'Saving' }).waitFor();
    const pending = await button.boundingBox();
    expect({ width: pending?.width, height: pending?.height }).toEqual({
      width: idle.width,
      height: idle.height,
    });
    await button.click({ force: true });
    expect(await page.getByText('Submitted 1 times').count()).toBe(1);
    await page.context().close();
  });
});

describe('buttons, dialog and toast', () => {
  it('a pending button does not act; a dialog traps focus, closes on Escape and gives focus back', async () => {
    const page = await gallery.open(390);
    await page
      .locator('button', { has: page.getByRole('progressbar', { name: 'Paying' }) })
      .click({ force: true });
    await page.getByRole('button', { name: 'Primary' }).click();
    await page.getByText('Pressed 1').waitFor();

    const opener = page.getByRole('button', { name: 'Remove address' });
    await opener.click();
    const dialog = page.getByRole('alertdialog', { name: 'Remove this address?' });
    await dialog.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(await opener.evaluate((element) => element === document.activeElement)).toBe(true);
    await page.context().close();
  });

  it('a toast is announced in its region and can be dismissed', async () => {
    const page = await gallery.open(1280);
    await page.getByRole('button', { name: 'Save address' }).click();
    const region = page.getByRole('region', { name: /notification/i });
    await region.getByText('Address saved').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await region.getByRole('button', { name: 'Dismiss' }).click();
    await region.getByText('Address saved').waitFor({ state: 'detached' });
    await page.context().close();
  });
});

describe('loading', () => {
  it('announces what is loading while the skeleton stands in for it', async () => {
    const page = await gallery.open(390);
    const status = page.getByRole('status').filter({ hasText: 'Loading your orders' });
    expect(await status.getAttribute('aria-busy')).toBe('true');
    expect(await status.locator('.ui-skeleton').count()).toBe(4);
    await page.context().close();
  });
});
