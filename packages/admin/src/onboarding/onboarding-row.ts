import type { Database, OnboardingStep } from '@commerce/db';
import type { Kysely } from 'kysely';
import type { OnboardingStepRead } from './schemas.ts';
import { ONBOARDING_STEPS, type OnboardingStepDefinition } from './steps.ts';

export function toOnboardingStepRead(
  definition: OnboardingStepDefinition,
  row: Pick<OnboardingStep, 'completed_at' | 'completed_by'> | undefined,
): OnboardingStepRead {
  const completedAt = row?.completed_at ?? null;
  return {
    key: definition.key,
    title: definition.title,
    description: definition.description,
    completed: completedAt !== null,
    completedAt: completedAt === null ? null : completedAt.toISOString(),
    completedBy: completedAt === null ? null : (row?.completed_by ?? null),
  };
}

/**
 * Inserts open rows for the given canonical steps, in canonical order, leaving
 * existing rows alone: concurrent callers never duplicate a step (the primary
 * key is (organization_id, step_key)).
 */
export async function insertOpenSteps(
  db: Kysely<Database>,
  organizationId: string,
  keys: readonly string[],
  at: Date,
): Promise<void> {
  const wanted = new Set(keys);
  const values = ONBOARDING_STEPS.flatMap((step, position) =>
    wanted.has(step.key)
      ? [
          {
            organization_id: organizationId,
            step_key: step.key,
            position,
            completed_at: null,
            completed_by: null,
            created_at: at,
            updated_at: at,
          },
        ]
      : [],
  );
  if (values.length === 0) return;
  await db
    .insertInto('onboarding_steps')
    .values(values)
    .onConflict((conflict) => conflict.columns(['organization_id', 'step_key']).doNothing())
    .execute();
}
