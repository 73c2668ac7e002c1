import { newId } from '@commerce/core';
import type { Kysely } from 'kysely';
import type { Database } from './schema.ts';

/**
 * Who acted. `userId` is a merchant user's id (`usr_…`), a customer's id
 * (`cus_…`) for what shoppers do to their own account, or null for the
 * service itself; ids carry their type's prefix, so `actorUserId` says which.
 * `email` is the actor's email at the time (shown only in the CSV export).
 */
export interface AuditActor {
  userId: string | null;
  email: string | null;
}

/** A customer acting on their own account (sign-in, logout, email change). */
export function customerActor(customer: { id: string; email: string }): AuditActor {
  return { userId: customer.id, email: customer.email };
}

export interface AuditEntry {
  organizationId: string;
  actor: AuditActor;
  /** `namespace.verb`, e.g. `item.updated`. */
  action: string;
  targetType: string;
  targetId: string | null;
  metadata?: Record<string, unknown>;
  at: Date;
}

/**
 * The one write path of the audit log. Call it with the same transaction as
 * the change it records, so that the record exists exactly when the change does.
 */
export async function recordAudit(db: Kysely<Database>, entry: AuditEntry): Promise<string> {
  const id = newId('aud', entry.at);
  await db
    .insertInto('audit_logs')
    .values({
      organization_id: entry.organizationId,
      id,
      actor_user_id: entry.actor.userId,
      actor_email: entry.actor.email,
      action: entry.action,
      target_type: entry.targetType,
      target_id: entry.targetId,
      metadata: JSON.stringify(entry.metadata ?? {}),
      created_at: entry.at,
    })
    .execute();
  return id;
}
