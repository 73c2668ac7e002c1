import { ORGANIZATION_SLUG_PATTERN } from '@commerce/core';
import { z } from 'zod';

/** Lowercase letters, digits and inner hyphens; 2 to 63 characters, like a DNS label. */
export const organizationSlugSchema = z
  .string()
  .regex(ORGANIZATION_SLUG_PATTERN, 'must be 2 to 63 lowercase letters, digits or inner hyphens');

export const createOrganizationInputSchema = z.strictObject({
  slug: organizationSlugSchema,
  name: z.string().trim().min(1).max(200),
  owner: z.strictObject({
    email: z.email().max(320),
    name: z.string().trim().min(1).max(200).optional(),
  }),
});
export type CreateOrganizationInput = z.infer<typeof createOrganizationInputSchema>;

export const organizationSchema = z
  .object({ id: z.string(), slug: z.string(), name: z.string() })
  .meta({ id: 'Organization' });
export type OrganizationRead = z.infer<typeof organizationSchema>;
