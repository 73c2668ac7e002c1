import { z } from 'zod';
import { ONBOARDING_STEP_KEYS } from './steps.ts';

export const onboardingStepSchema = z
  .object({
    key: z.enum(ONBOARDING_STEP_KEYS).describe('Stable step key'),
    title: z.string(),
    description: z.string(),
    completed: z.boolean(),
    completedAt: z.iso.datetime().nullable().describe('When the step was completed; null while open'),
    completedBy: z
      .string()
      .nullable()
      .describe('The merchant user id that completed the step; null while open'),
  })
  .meta({ id: 'OnboardingStep' });
export type OnboardingStepRead = z.infer<typeof onboardingStepSchema>;

export const onboardingSchema = z
  .object({
    steps: z.array(onboardingStepSchema).describe('Every canonical step, in canonical order'),
    summary: z
      .object({
        totalSteps: z.number().int().min(0),
        completedSteps: z.number().int().min(0),
        percent: z
          .number()
          .int()
          .min(0)
          .max(100)
          .describe('floor(completedSteps × 100 / totalSteps): 100 only when every step is completed'),
      })
      .meta({ id: 'OnboardingSummary' }),
  })
  .meta({ id: 'Onboarding' });
export type OnboardingRead = z.infer<typeof onboardingSchema>;

/** Path `stepKey` plus body `{ completed }`. An unknown key is 404, not 400, so it is a bounded string here. */
export const updateOnboardingStepInputSchema = z.strictObject({
  stepKey: z.string().min(1).max(100).describe('One of the canonical step keys; another key answers 404'),
  completed: z.boolean().describe('true completes the step, false reopens it'),
});
export type UpdateOnboardingStepInput = z.infer<typeof updateOnboardingStepInputSchema>;
