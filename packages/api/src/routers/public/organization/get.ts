import { getSettings } from '@commerce/admin';
import { z } from 'zod';
import { tenantProcedure } from '../../../trpc.ts';

const publicOrganizationSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    displayName: z
      .string()
      .optional()
      .describe('The store name shown to customers (business profile); absent while unset, then show `name`'),
    logoUrl: z.string().optional().describe('The store logo (business profile); absent while unset'),
    websiteUrl: z
      .string()
      .optional()
      .describe(
        "The store's own website (business profile), where a hosted page links back to; absent while unset",
      ),
  })
  .meta({ id: 'PublicOrganization' });

export const getProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/public/organization',
      tags: ['Public'],
      summary: 'The storefront organization named by x-organization-slug',
      description:
        'A storefront reads its own name and id before anything else, and how the store presents itself to customers.',
    },
    rateLimit: 'public-read',
  })
  .input(z.object({}))
  .output(publicOrganizationSchema)
  .query(async ({ ctx }) => {
    const { businessProfile } = await getSettings(ctx.db, ctx.tenant.organizationId, ctx.clock.now());
    return {
      id: ctx.tenant.organizationId,
      slug: ctx.tenant.slug,
      name: ctx.tenant.name,
      ...(businessProfile.displayName ? { displayName: businessProfile.displayName } : {}),
      ...(businessProfile.logoUrl ? { logoUrl: businessProfile.logoUrl } : {}),
      ...(businessProfile.websiteUrl ? { websiteUrl: businessProfile.websiteUrl } : {}),
    };
  });
