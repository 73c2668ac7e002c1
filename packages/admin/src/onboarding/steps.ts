/**
 * The canonical onboarding checklist, in the order it is shown. A step's
 * `position` column records its index here when its row is created. Steps
 * start open and change only through the merchant's explicit toggle.
 */
export const ONBOARDING_STEPS = [
  {
    key: 'business_profile',
    title: 'Add your business details',
    description:
      'Set the store name, support email and business address customers see (Settings: business profile).',
  },
  {
    key: 'verify_email',
    title: 'Verify your email',
    description: 'Confirm the email address you sign in with, so that account and order notices reach you.',
  },
  {
    key: 'first_product',
    title: 'Add your first product',
    description: 'Create an item with a price and at least one variant, then make it active.',
  },
  {
    key: 'shipping_zones',
    title: 'Set up shipping',
    description: 'Create a shipping zone with the countries you ship to and at least one rate.',
  },
  {
    key: 'checkout_settings',
    title: 'Review checkout settings',
    description: 'Choose the store currency, whether prices include tax, and link your store policies.',
  },
  {
    key: 'email_templates',
    title: 'Customize customer emails',
    description: 'Review the order confirmation and sign-in emails and adjust their wording to your brand.',
  },
  {
    key: 'invite_team',
    title: 'Invite your team',
    description: 'Give staff their own sign-in, with only the permission groups they need.',
  },
] as const;

export type OnboardingStepKey = (typeof ONBOARDING_STEPS)[number]['key'];
export type OnboardingStepDefinition = (typeof ONBOARDING_STEPS)[number];

export const ONBOARDING_STEP_KEYS = ONBOARDING_STEPS.map((step) => step.key) as [
  OnboardingStepKey,
  ...OnboardingStepKey[],
];

const STEP_INDEX = new Map<string, number>(ONBOARDING_STEPS.map((step, index) => [step.key, index]));

/** The step's place in the canonical list, or undefined for a key that is not in it. */
export function onboardingStepPosition(key: string): number | undefined {
  return STEP_INDEX.get(key);
}
