export * from './audit.ts';
export { openEmbeddedAtLatest } from './embedded-snapshot.ts';
export * from './idempotency.ts';
export * from './migrate.ts';
export * from './open-database.ts';
export { PGliteDialect } from './pglite-dialect.ts';
export { PREPARED_MARKER, prepared, withParameters } from './prepared-statements.ts';
export * from './schema.ts';
export * from './transaction.ts';
