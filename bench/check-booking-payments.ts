/**
 * `npx tsx bench/check-booking-payments.ts` (DATABASE_URL set): audits the
 * booking payment invariant of a database — for every booking, what its
 * payments keep (succeeded, net of refunded) is at most its total — with the
 * bookings package's `checkBookingPayments`: prints the bookings checked, the
 * refunds still owed to the processor, and every booking that keeps more than
 * its total. Exits 1 on a violation, 2 when it cannot run.
 *
 * Knobs (environment): DATABASE_URL (required), CHECK_ORGANIZATION (one tenant only).
 */
import { pathToFileURL } from 'node:url';
import { type BookingPaymentReport, checkBookingPayments } from '@commerce/bookings';
import { openDatabase } from '@commerce/db';

/** The report as lines of text. */
export function formatBookingPaymentReport(report: BookingPaymentReport): string[] {
  const lines = ['booking payment check'];
  lines.push(`  bookings with a Sales record: ${report.bookingsChecked}`);
  lines.push(`  refunds of booking payments still owed to the processor: ${report.refundsOwed}`);
  for (const row of report.overpaid)
    lines.push(
      `  VIOLATION: ${row.organizationId} ${row.bookingId} keeps ${row.keptInCents} of a total of ${row.totalInCents}`,
    );
  lines.push(report.ok ? '  invariant holds: no booking keeps more than its total' : '  INVARIANT VIOLATED');
  return lines;
}

async function main(): Promise<number> {
  const databaseUrl = process.env.DATABASE_URL;
  if (!databaseUrl) {
    process.stderr.write('DATABASE_URL is required\n');
    return 2;
  }
  const handle = await openDatabase({ databaseUrl, poolSize: 1 });
  try {
    const report = await checkBookingPayments(handle.db, {
      ...(process.env.CHECK_ORGANIZATION ? { organizationId: process.env.CHECK_ORGANIZATION } : {}),
    });
    process.stdout.write(`${formatBookingPaymentReport(report).join('\n')}\n`);
    return report.ok ? 0 : 1;
  } finally {
    await handle.close();
  }
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
