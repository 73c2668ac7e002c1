import { z } from 'zod';
import { tenantProfileProcedure } from '../../../trpc.ts';

const publicOrganizationSchema = z
  .object({
    id: z.string(),
    slug: z.string(),
    name: z.string(),
    displayName: z
      .string()
      .nullable()
      .describe(
        'The store name shown to customers (`businessProfile.displayName`); null while unset, then show `name`',
      ),
    logoUrl: z
      .string()
      .nullable()
      .describe(
        'The store logo (`businessProfile.logoUrl`, an absolute http or https URL); null while unset',
      ),
    websiteUrl: z
      .string()
      .nullable()
      .describe(
        'The store\'s own website (`businessProfile.websiteUrl`, an absolute http or https URL): where a hosted page\'s header and "Continue shopping" lead; null while unset',
      ),
    locale: z
      .string()
      .describe(
        "The store's BCP 47 locale (`businessProfile.locale`, canonical, e.g. `de-DE`): the language of the hosted pages and how they format money, numbers and dates; `en-US` while unset",
      ),
  })
  .meta({ id: 'PublicOrganization' });

export const getProcedure = tenantProfileProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/public/organization',
      tags: ['Public'],
      summary: 'The storefront organization named by x-organization-slug',
      description:
        'A storefront reads its own name and id before anything else, and how the store presents itself to customers (display name, logo, website, locale).',
    },
    rateLimit: 'public-read',
  })
  .input(z.object({}))
  .output(publicOrganizationSchema)
  .query(({ ctx }) => ({
    id: ctx.tenant.organizationId,
    slug: ctx.tenant.slug,
    name: ctx.tenant.name,
    ...ctx.profile,
  }));
