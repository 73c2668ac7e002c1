import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const CHROMIUM = '/usr/bin/chromium';
const root = join(import.meta.dirname, '..');

/** The newest modification time of the app's sources. */
function newestSource(path: string): number {
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestSource(join(path, name))));
}

export default function setup(): void {
  // Debian's chromium (CI runs as root on a Debian machine); installed once when missing.
  if (!existsSync(CHROMIUM)) {
    const install = () =>
      execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    try {
      install();
    } catch {
      execFileSync('apt-get', ['update'], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
      install();
    }
  }
  // The gateway serves apps/hosted/dist: build it when it is missing or older than its sources.
  const index = join(root, 'dist', 'index.html');
  const built = existsSync(index) ? statSync(index).mtimeMs : 0;
  const sources = Math.max(
    ...['src', 'index.html', 'vite.config.ts'].map((name) => newestSource(join(root, name))),
    // The packages whose modules the pages import (schemas, the design system).
    ...['customers', 'orders', 'core', 'bookings', 'catalog', 'payments', 'ui'].map((name) =>
      newestSource(join(root, '../../packages', name, 'src')),
    ),
  );
  if (built < sources)
    execFileSync(process.execPath, [join(root, 'node_modules/vite/bin/vite.js'), 'build'], {
      cwd: root,
      stdio: 'inherit',
      // The bundle that ships: vitest sets NODE_ENV=test, and Vite would build a test-mode bundle
      // (React Aria, for one, leaves out the style element it inserts in the browser).
      env: { ...process.env, NODE_ENV: 'production' },
    });
}
