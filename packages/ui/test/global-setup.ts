import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/** Debian's chromium, as apps/hosted/e2e uses it; installed once when missing (CI runs as root). */
export const CHROMIUM = '/usr/bin/chromium';

export default function setup(): void {
  if (existsSync(CHROMIUM)) return;
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], {
      stdio: 'inherit',
      env,
    });
  try {
    install();
  } catch {
    execFileSync('apt-get', ['update'], { stdio: 'inherit', env });
    install();
  }
}
