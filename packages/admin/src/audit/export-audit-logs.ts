import type { Database } from '@commerce/db';
import { stringify } from 'csv-stringify/sync';
import type { Kysely } from 'kysely';
import { whereAuditFilters } from './filters.ts';
import type { AuditLogFilter } from './schemas.ts';

/** The export's columns, in order (docs/platform.md "Audit log"). */
export const AUDIT_EXPORT_COLUMNS = [
  'timestamp',
  'actorUserId',
  'actorEmail',
  'action',
  'targetType',
  'targetId',
  'metadata',
] as const;

/** Rows fetched from the cursor at a time; also the rows formatted into one chunk of CSV. */
export const AUDIT_EXPORT_BATCH = 500;

const CSV_OPTIONS = {
  // A cell starting with = + - @ (or tab, carriage return) is prefixed with a quote so that a
  // spreadsheet shows it as text instead of running it as a formula.
  escape_formulas: true,
  // RFC 4180 line ends; cells with a comma, quote or line break are quoted, quotes doubled.
  record_delimiter: 'windows',
  // csv-stringify quotes a cell holding the record delimiter (CRLF); a lone CR or LF breaks
  // rows in spreadsheets as well, so any cell holding one is quoted too.
  quoted_match: /[\r\n]/,
} as const;

/**
 * The organization's audit records matching `filter` as CSV, newest first,
 * in chunks of text: one chunk per batch read from a database cursor (the
 * first with the header), so memory stays bounded whatever the number of rows.
 * Stop iterating (`return()`) to close the cursor early.
 */
export async function* exportAuditLogsCsv(
  db: Kysely<Database>,
  organizationId: string,
  filter: AuditLogFilter,
): AsyncGenerator<string> {
  // The header goes out with the first batch, so the query has started before the first byte: a
  // failure to start it is still an error response, not a download cut short.
  let header = stringify([[...AUDIT_EXPORT_COLUMNS]], CSV_OPTIONS);
  const rows = whereAuditFilters(
    db
      .selectFrom('audit_logs')
      .select([
        'created_at',
        'actor_user_id',
        'actor_email',
        'action',
        'target_type',
        'target_id',
        'metadata',
      ]),
    organizationId,
    filter,
  )
    .orderBy('audit_logs.created_at', 'desc')
    .orderBy('audit_logs.id', 'desc')
    .stream(AUDIT_EXPORT_BATCH);

  let batch: string[][] = [];
  for await (const row of rows) {
    batch.push([
      row.created_at.toISOString(),
      row.actor_user_id ?? '',
      row.actor_email ?? '',
      row.action,
      row.target_type,
      row.target_id ?? '',
      JSON.stringify(row.metadata),
    ]);
    if (batch.length === AUDIT_EXPORT_BATCH) {
      yield header + stringify(batch, CSV_OPTIONS);
      header = '';
      batch = [];
    }
  }
  if (batch.length > 0 || header !== '')
    yield header + (batch.length > 0 ? stringify(batch, CSV_OPTIONS) : '');
}
