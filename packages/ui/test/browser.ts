import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import axe from 'axe-core';
import { type Browser, chromium, type Page } from 'playwright-core';
import { build, type PreviewServer, preview } from 'vite';
import { CHROMIUM } from './global-setup.ts';

/** The gallery page served by Vite on a free port, and a headless Chromium to look at it. */
export interface Gallery {
  url: string;
  browser: Browser;
  open(width: number): Promise<Page>;
  close(): Promise<void>;
}

export async function startGallery(): Promise<Gallery> {
  // Built once (the production bundle, as an app ships it) and served by Vite's preview server:
  // the dev server's unbundled modules took seconds per page.
  const outDir = mkdtempSync(join(tmpdir(), 'ui-gallery-'));
  await build({
    root: join(import.meta.dirname, 'gallery'),
    configFile: false,
    logLevel: 'warn',
    mode: 'production',
    base: './',
    build: { outDir, emptyOutDir: true, target: 'es2022' },
  });
  const server: PreviewServer = await preview({
    root: join(import.meta.dirname, 'gallery'),
    configFile: false,
    logLevel: 'warn',
    build: { outDir },
    preview: { host: '127.0.0.1', port: 0, strictPort: false },
  });
  const address = server.httpServer?.address();
  if (!address || typeof address === 'string') throw new Error('vite did not listen');
  const url = `http://127.0.0.1:${address.port}/`;
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-sync',
    ],
  });
  return {
    url,
    browser,
    async open(width) {
      const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-US' });
      const page = await context.newPage();
      const errors: string[] = [];
      page.on('pageerror', (error) => errors.push(error.message));
      await page.goto(url);
      await page.getByRole('heading', { name: 'Design system' }).waitFor({ timeout: 60_000 });
      if (errors.length > 0) throw new Error(errors.join('\n'));
      return page;
    },
    async close() {
      await browser.close();
      await server.close();
      rmSync(outDir, { recursive: true, force: true });
    },
  };
}

/** axe-core's serious and critical violations on the page as it is, as readable lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  const result = (await page.evaluate(() =>
    (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] }),
  )) as axe.AxeResults;
  return result.violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .map(
      (violation) =>
        `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`,
    );
}
