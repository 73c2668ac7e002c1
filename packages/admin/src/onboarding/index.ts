export * from './get-onboarding.ts';
export { toOnboardingStepRead } from './onboarding-row.ts';
export * from './schemas.ts';
export * from './steps.ts';
export * from './update-onboarding-step.ts';
