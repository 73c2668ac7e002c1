import type { AuditActor } from '@commerce/db';

/** Who changes the catalog, in which organization, and when (`at` from the request's clock). */
export interface ItemWriteContext {
  organizationId: string;
  actor: AuditActor;
  at: Date;
}

/** The entries whose value is not null: a metafield set to null does not exist. */
export function withoutNullValues(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null));
}
