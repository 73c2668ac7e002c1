import type { AuditActor } from '@commerce/db';

/** Who changes the catalog, in which organization, and when (`at` from the request's clock). */
export interface ItemWriteContext {
  organizationId: string;
  actor: AuditActor;
  at: Date;
}

/** JSON with object keys sorted, so that jsonb's key order does not read as a change. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === 'object' && !Array.isArray(inner)
      ? Object.fromEntries(
          Object.entries(inner as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : inner,
  );
}

/** The entries whose value is not null: a metafield set to null does not exist. */
export function withoutNullValues(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null));
}
