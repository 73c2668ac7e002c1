import { createOrganization, createOrganizationInputSchema, organizationSchema } from '@commerce/admin';
import { platformProcedure } from '../../../trpc.ts';

export const createProcedure = platformProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/platform/organizations',
      tags: ['Platform'],
      summary: 'Provision an organization with its first Owner',
      description:
        'Operator surface, with `Authorization: Bearer <PLATFORM_ADMIN_TOKEN>`; every /platform route answers `404` while PLATFORM_ADMIN_TOKEN is unset. The Owner membership stays pending until a merchant token with that email signs in.',
    },
    successStatus: 201,
    errors: ['SLUG_TAKEN'],
  })
  .input(createOrganizationInputSchema)
  .output(organizationSchema)
  .mutation(({ ctx, input }) => createOrganization(ctx.db, input, ctx.clock.now()));
