import { z } from 'zod';
import { tenantProcedure } from '../../../trpc.ts';

const publicOrganizationSchema = z
  .object({ id: z.string(), slug: z.string(), name: z.string() })
  .meta({ id: 'PublicOrganization' });

export const getProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/public/organization',
      tags: ['Public'],
      summary: 'The storefront organization named by x-organization-slug',
      description: 'A storefront reads its own name and id before anything else.',
    },
    rateLimit: 'public-read',
  })
  .input(z.object({}))
  .output(publicOrganizationSchema)
  .query(({ ctx }) => ({ id: ctx.tenant.organizationId, slug: ctx.tenant.slug, name: ctx.tenant.name }));
