import type { Database, OnboardingStep } from '@commerce/db';
import type { Kysely } from 'kysely';
import { insertOpenSteps, toOnboardingStepRead } from './onboarding-row.ts';
import type { OnboardingRead } from './schemas.ts';
import { ONBOARDING_STEPS } from './steps.ts';

/**
 * The onboarding checklist: every canonical step in canonical order, with a
 * summary. A read that finds steps missing creates them open first.
 */
export async function getOnboarding(
  db: Kysely<Database>,
  organizationId: string,
  at: Date,
): Promise<OnboardingRead> {
  let rows = await readSteps(db, organizationId);
  const missing = ONBOARDING_STEPS.filter((step) => !rows.has(step.key)).map((step) => step.key);
  if (missing.length > 0) {
    await insertOpenSteps(db, organizationId, missing, at);
    rows = await readSteps(db, organizationId);
  }

  const steps = ONBOARDING_STEPS.map((definition) =>
    toOnboardingStepRead(definition, rows.get(definition.key)),
  );
  const completedSteps = steps.filter((step) => step.completed).length;
  return {
    steps,
    summary: {
      totalSteps: steps.length,
      completedSteps,
      percent: Math.floor((completedSteps * 100) / steps.length),
    },
  };
}

async function readSteps(
  db: Kysely<Database>,
  organizationId: string,
): Promise<Map<string, Pick<OnboardingStep, 'step_key' | 'completed_at' | 'completed_by'>>> {
  const rows = await db
    .selectFrom('onboarding_steps')
    .select(['step_key', 'completed_at', 'completed_by'])
    .where('organization_id', '=', organizationId)
    .orderBy('position')
    .execute();
  return new Map(rows.map((row) => [row.step_key, row]));
}
