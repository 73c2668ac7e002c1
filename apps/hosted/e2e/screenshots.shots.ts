import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, it } from 'vitest';
import { bodyOf, heading, ownerOf } from './checkout-support.ts';
import { type Hosted, shippedOrder, signIn, startHosted } from './harness.ts';

/**
 * Not a test: the screenshots of docs/screenshots/ (`hosted-<page>-<width>-<phase>.png`), taken
 * with `SHOTS_PHASE=after npx vitest run --config e2e/screenshots.config.ts` in apps/hosted. The
 * store has a display name, a website and a logo URL, as a real store would.
 */
const SLUG = 'northwind';
const PHASE = process.env.SHOTS_PHASE ?? 'after';
const OUT = join(import.meta.dirname, '..', '..', '..', 'docs', 'screenshots');
let hosted: Hosted;

beforeAll(async () => {
  mkdirSync(OUT, { recursive: true });
  hosted = await startHosted();
  await hosted.provision(SLUG);
  const owner = await ownerOf(hosted, SLUG);
  await bodyOf(
    await owner.call('PATCH', '/merchant/settings', {
      businessProfile: { displayName: 'Northwind Goods', websiteUrl: 'https://northwind.example' },
    }),
    'settings',
    200,
  );
});
afterAll(async () => hosted?.close());

async function shoot(page: import('playwright-core').Page, name: string, width: number) {
  await page.waitForLoadState('networkidle');
  await page.screenshot({ path: join(OUT, `hosted-${name}-${width}-${PHASE}.png`), fullPage: true });
}

it('takes the screenshots', async () => {
  const owner = await ownerOf(hosted, SLUG);
  const item = (body: Record<string, unknown>) =>
    owner
      .created<{ id: string }>(
        owner.call('POST', '/merchant/items', { type: 'SALE', status: 'ACTIVE', ...body }),
        'item',
      )
      .then((created) => created.id);
  const mug = await item({ slug: 'mug', name: 'Stoneware mug, speckled glaze', priceInCents: 2400 });
  const tee = await item({ slug: 'tee', name: 'Organic cotton tee', priceInCents: 3200 });
  const zone = await owner.created<{ id: string }>(
    owner.call('POST', '/merchant/shipping/zones', { name: 'Americas', countries: ['US', 'CA'] }),
    'zone',
  );
  await owner.created(
    owner.call('POST', `/merchant/shipping/zones/${zone.id}/rates`, { name: 'Standard', priceInCents: 500 }),
    'rate',
  );
  await shippedOrder(hosted, SLUG, 'ada@example.com');
  for (const width of [390, 1280]) {
    const session = await bodyOf<{ checkoutToken: string }>(
      await hosted.api('/public/checkout/sessions', {
        method: 'POST',
        slug: SLUG,
        body: JSON.stringify({
          lines: [
            { itemId: mug, quantity: 2 },
            { itemId: tee, quantity: 1 },
          ],
        }),
      }),
      'session',
      201,
    );
    const { page } = await hosted.newPage({ width });
    await page.goto(`/hosted/${SLUG}/checkout?token=${session.checkoutToken}`);
    await heading(page, 'Checkout');
    await shoot(page, 'checkout', width);

    await page.goto(`/hosted/${SLUG}/account/sign-in`);
    await heading(page, 'Sign in');
    await shoot(page, 'sign-in', width);

    await signIn(hosted, page, SLUG, 'ada@example.com');
    await page.goto(`/hosted/${SLUG}/account/orders`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await page
      .getByText(/Order #/)
      .first()
      .waitFor();
    await shoot(page, 'account-orders', width);
  }
});
