import { z } from 'zod';
import { tenantProcedure } from '../../../trpc.ts';

const publicOrganizationSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    websiteUrl: z
      .string()
      .nullable()
      .describe(
        'The store\'s public website (`businessProfile.websiteUrl`, an absolute http or https URL): where a hosted page\'s "Continue shopping" leads; null when unset',
      ),
  })
  .meta({ id: 'PublicOrganization' });

const webUrl = z.url({ protocol: /^https?$/ });

export const getProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/public/organization',
      tags: ['Public'],
      summary: 'The storefront organization named by x-organization-slug',
      description:
        'A storefront reads its own name and id before anything else; the hosted pages read the store’s website here.',
    },
    rateLimit: 'public-read',
  })
  .input(z.object({}))
  .output(publicOrganizationSchema)
  .query(async ({ ctx }) => {
    const settings = await ctx.db
      .selectFrom('organization_settings')
      .select('business_profile')
      .where('organization_id', '=', ctx.tenant.organizationId)
      .executeTakeFirst();
    // A value the settings schema accepted; read defensively all the same (older rows, hand edits).
    const website = webUrl.safeParse(settings?.business_profile?.websiteUrl);
    return {
      id: ctx.tenant.organizationId,
      slug: ctx.tenant.slug,
      name: ctx.tenant.name,
      websiteUrl: website.success ? website.data : null,
    };
  });
