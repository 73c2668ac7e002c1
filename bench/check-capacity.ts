/**
 * `npx tsx bench/check-capacity.ts` (DATABASE_URL set): audits the booking
 * capacity invariant of a database (docs/bookings.md "The capacity trigger") with the
 * bookings package's `checkCapacity`: prints, per resource with live claims,
 * the peak of its live claims from now on against its capacity; the active
 * holds and the live claims they own; the bookings owning live claims (when
 * the `bookings` table exists); and every violation. Exits 1 on a violation,
 * 2 when it cannot run. `bookings-holds.ts` runs the same check after its load.
 *
 * Knobs (environment): DATABASE_URL (required), CHECK_AT (an ISO instant:
 * judge liveness then instead of now), CHECK_ORGANIZATION (one tenant only).
 */
import { pathToFileURL } from 'node:url';
import { type CapacityReport, checkCapacity } from '@commerce/bookings';
import { openDatabase } from '@commerce/db';

/** The report as lines of text. */
export function formatCapacityReport(report: CapacityReport): string[] {
  const lines = [`capacity check at ${report.at.toISOString()}`];
  lines.push(`  resources with live claims: ${report.resources.length}`);
  for (const resource of report.resources.slice(0, 50)) {
    const verdict = resource.peak > resource.capacity ? 'OVER CAPACITY' : 'ok';
    lines.push(
      `    ${resource.organizationId} ${resource.resourceId}: peak ${resource.peak} / capacity ${resource.capacity} (${resource.liveClaims} live claims) ${verdict}`,
    );
  }
  if (report.resources.length > 50) lines.push(`    … ${report.resources.length - 50} more`);
  const { holds, bookings } = report;
  lines.push(
    `  holds: ${holds.active} active, owning ${holds.liveClaims} live claims (${holds.liveUnits} units); ` +
      `${holds.activeWithoutClaims.length} active without claims, ${holds.claimsOfInactiveHolds.length} claims of inactive holds`,
  );
  lines.push(
    bookings === null
      ? '  bookings: no bookings table on this database'
      : `  bookings: ${bookings.owningLiveClaims} owning ${bookings.liveClaims} live claims; ${bookings.claimsOfNonClaimingBookings.length} claims of bookings that hold none`,
  );
  for (const over of report.overCapacity)
    lines.push(`  VIOLATION: ${over.resourceId} peaks at ${over.peak} over capacity ${over.capacity}`);
  for (const id of holds.activeWithoutClaims) lines.push(`  VIOLATION: active hold ${id} owns no live claim`);
  for (const id of holds.claimsOfInactiveHolds)
    lines.push(`  VIOLATION: live claim ${id} of an inactive hold`);
  for (const id of bookings?.claimsOfNonClaimingBookings ?? [])
    lines.push(`  VIOLATION: live claim ${id} of a booking that holds none`);
  lines.push(report.ok ? '  invariant holds' : '  INVARIANT VIOLATED');
  return lines;
}

/** Opens `databaseUrl`, checks it, closes it. */
export async function checkDatabaseCapacity(
  databaseUrl: string,
  options: { at?: Date; organizationId?: string } = {},
): Promise<CapacityReport> {
  const handle = await openDatabase({ databaseUrl, poolSize: 1 });
  try {
    return await checkCapacity(handle.db, options);
  } finally {
    await handle.close();
  }
}

async function main(): Promise<number> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    process.stderr.write('DATABASE_URL is required\n');
    return 2;
  }
  const at = process.env.CHECK_AT ? new Date(process.env.CHECK_AT) : undefined;
  if (at && Number.isNaN(at.getTime())) {
    process.stderr.write('CHECK_AT must be an ISO 8601 instant\n');
    return 2;
  }
  const report = await checkDatabaseCapacity(databaseUrl, {
    ...(at ? { at } : {}),
    ...(process.env.CHECK_ORGANIZATION ? { organizationId: process.env.CHECK_ORGANIZATION } : {}),
  });
  process.stdout.write(`${formatCapacityReport(report).join('\n')}\n`);
  return report.ok ? 0 : 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exit(2);
    },
  );
}
