import { z } from 'zod';
import { permissionGroupSchema, roleSchema } from '../permissions.ts';

export const merchantUserSchema = z
  .object({ id: z.string(), email: z.string(), name: z.string().nullable() })
  .meta({ id: 'MerchantUser' });
export type MerchantUserRead = z.infer<typeof merchantUserSchema>;

export const membershipSchema = z
  .object({
    id: z.string(),
    userId: z.string().nullable().describe('Null while the membership waits for its first sign-in'),
    email: z.string(),
    name: z.string().nullable(),
    role: roleSchema,
    permissions: z.array(permissionGroupSchema).describe('Permission groups; meaningful for Staff only'),
    status: z.enum(['PENDING', 'ACTIVE']),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'Membership' });
export type MembershipRead = z.infer<typeof membershipSchema>;

export const organizationSummarySchema = z
  .object({ id: z.string(), slug: z.string(), name: z.string() })
  .meta({ id: 'OrganizationSummary' });

export const merchantSessionSchema = z
  .object({
    user: merchantUserSchema,
    memberships: z.array(membershipSchema.extend({ organization: organizationSummarySchema })),
  })
  .meta({ id: 'MerchantSession' });
export type MerchantSession = z.infer<typeof merchantSessionSchema>;

export const updateProfileInputSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
});
