import { type AuditActor, type Database, type EmailTemplateOverride, recordAudit } from '@commerce/db';
import {
  defaultSlots,
  EMAIL_TEMPLATE_SLOTS,
  type EmailTemplateSlot,
  loadTemplateOrganization,
  overrideSlots,
  resolveSlots,
  SLOT_COLUMNS,
} from '@commerce/notifications';
import type { Kysely } from 'kysely';
import {
  assertRequiredVariables,
  type EmailTemplateScope,
  parseSlotsPatch,
  requireEmailTemplateDefinition,
  toEmailTemplateRead,
} from './email-template-read.ts';
import type { EmailTemplateRead } from './schemas.ts';

export interface EmailTemplateWriteScope extends EmailTemplateScope {
  actor: AuditActor & { userId: string };
  at: Date;
}

/**
 * Upserts the override of one template type: only the slots sent change, a
 * slot sent as `null` goes back to its default, and an override whose slots
 * are all back to their defaults is removed. Unknown merge variables, tags
 * and filters are refused (400) before anything is written. When a slot
 * actually changed, the audit log records `email_template.updated` with the
 * names of the changed slots only, never their values.
 */
export async function updateEmailTemplate(
  db: Kysely<Database>,
  scope: EmailTemplateWriteScope,
  type: string,
  patch: unknown,
): Promise<EmailTemplateRead> {
  const definition = requireEmailTemplateDefinition(type);
  const slots = parseSlotsPatch(definition, patch);
  const sent = EMAIL_TEMPLATE_SLOTS.filter((slot) => slots[slot] !== undefined);

  return db.transaction().execute(async (trx) => {
    // Only `trx` in here: the embedded database is one connection, held by this transaction.
    const organization = await loadTemplateOrganization(trx, scope.organizationId);
    const current = await lockOverride(trx, scope, definition.type);
    const next = { ...overrideSlots(current)! };
    for (const slot of sent) next[slot] = slots[slot] ?? null;
    assertRequiredVariables(definition, resolveSlots(defaultSlots(definition, organization), next));

    const changed = sent.filter((slot) => next[slot] !== current[SLOT_COLUMNS[slot]]);
    let saved: EmailTemplateOverride | undefined = current;
    if (changed.length > 0) {
      saved = await trx
        .updateTable('email_template_overrides')
        .set({
          ...columnsOf(next, changed),
          updated_at: scope.at,
          updated_by: scope.actor.userId,
        })
        .where('organization_id', '=', scope.organizationId)
        .where('type', '=', definition.type)
        .returningAll()
        .executeTakeFirstOrThrow();
      await recordAudit(trx, {
        organizationId: scope.organizationId,
        actor: scope.actor,
        action: 'email_template.updated',
        targetType: 'email_template',
        targetId: definition.type,
        metadata: { fields: changed },
        at: scope.at,
      });
    }
    if (EMAIL_TEMPLATE_SLOTS.every((slot) => next[slot] === null)) {
      await trx
        .deleteFrom('email_template_overrides')
        .where('organization_id', '=', scope.organizationId)
        .where('type', '=', definition.type)
        .execute();
      saved = undefined;
    }
    return toEmailTemplateRead(definition, saved, organization, scope);
  });
}

/**
 * The override row of `type`, locked for this transaction, created empty
 * when missing. The insert lets concurrent first writes meet on the primary
 * key; the lock serialises writers, so each reads the slots the other wrote.
 * A row deleted by a concurrent reset between the two statements is created
 * again on the second pass.
 */
async function lockOverride(
  trx: Kysely<Database>,
  scope: EmailTemplateWriteScope,
  type: string,
): Promise<EmailTemplateOverride> {
  for (let attempt = 0; attempt < 3; attempt++) {
    await trx
      .insertInto('email_template_overrides')
      .values({
        organization_id: scope.organizationId,
        type,
        updated_by: scope.actor.userId,
        created_at: scope.at,
        updated_at: scope.at,
      })
      .onConflict((conflict) => conflict.columns(['organization_id', 'type']).doNothing())
      .execute();
    const row = await trx
      .selectFrom('email_template_overrides')
      .selectAll()
      .where('organization_id', '=', scope.organizationId)
      .where('type', '=', type)
      .forUpdate()
      .executeTakeFirst();
    if (row) return row;
  }
  throw new Error('Could not lock the email template override');
}

function columnsOf(slots: Record<EmailTemplateSlot, string | null>, names: EmailTemplateSlot[]) {
  const columns: Partial<Record<(typeof SLOT_COLUMNS)[EmailTemplateSlot], string | null>> = {};
  for (const slot of names) columns[SLOT_COLUMNS[slot]] = slots[slot];
  return columns;
}
