import { AppError } from '@commerce/core';
import { type AuditActor, type Database, recordAudit } from '@commerce/db';
import type { Kysely } from 'kysely';
import { insertOpenSteps, toOnboardingStepRead } from './onboarding-row.ts';
import type { OnboardingStepRead, UpdateOnboardingStepInput } from './schemas.ts';
import { ONBOARDING_STEPS, onboardingStepPosition } from './steps.ts';

/**
 * Completes or reopens one step (SPEC "Onboarding step"). open → completed
 * stamps `completedAt` and `completedBy` and audits `onboarding.step_completed`;
 * completed → open clears both and audits `onboarding.step_reopened`. A step
 * already in the requested state is returned unchanged, without an audit
 * record. A missing row is created in the requested state. The row lock makes
 * concurrent toggles apply (and audit) one transition each, never two.
 */
export async function updateOnboardingStep(
  db: Kysely<Database>,
  /** The actor is a merchant user: `completedBy` is their id. */
  context: { organizationId: string; actor: AuditActor & { userId: string }; at: Date },
  input: UpdateOnboardingStepInput,
): Promise<OnboardingStepRead> {
  const position = onboardingStepPosition(input.stepKey);
  if (position === undefined) throw AppError.notFound('Onboarding step not found');
  const definition = ONBOARDING_STEPS[position]!;
  const { organizationId, actor, at } = context;

  const run = async (trx: Kysely<Database>) => {
    // An absent step is open; creating it open first makes "created in the requested state" a transition.
    await insertOpenSteps(trx, organizationId, [definition.key], at);
    const row = await trx
      .selectFrom('onboarding_steps')
      .select(['completed_at', 'completed_by'])
      .where('organization_id', '=', organizationId)
      .where('step_key', '=', definition.key)
      .forUpdate()
      .executeTakeFirstOrThrow();

    const isCompleted = row.completed_at !== null;
    if (isCompleted === input.completed) return toOnboardingStepRead(definition, row);

    const completion = input.completed
      ? { completed_at: at, completed_by: actor.userId }
      : { completed_at: null, completed_by: null };
    const updated = await trx
      .updateTable('onboarding_steps')
      .set({ ...completion, updated_at: at })
      .where('organization_id', '=', organizationId)
      .where('step_key', '=', definition.key)
      .returning(['completed_at', 'completed_by'])
      .executeTakeFirstOrThrow();
    await recordAudit(trx, {
      organizationId,
      actor,
      action: input.completed ? 'onboarding.step_completed' : 'onboarding.step_reopened',
      targetType: 'onboarding_step',
      targetId: definition.key,
      metadata: { stepKey: definition.key },
      at,
    });
    return toOnboardingStepRead(definition, updated);
  };
  // Handed a transaction, it runs in it.
  return db.isTransaction ? run(db) : db.transaction().execute(run);
}
