import { listSignups, signupListQuerySchema, signupSchema } from '@commerce/admin';
import { pageSchema } from '@commerce/core';
import { platformProcedure } from '../../../trpc.ts';

export const listProcedure = platformProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/platform/signups',
      tags: ['Platform'],
      summary: 'Captured self-serve signup requests, newest first',
      description:
        'Operator surface, with `Authorization: Bearer <PLATFORM_ADMIN_TOKEN>`; every /platform route answers `404` while PLATFORM_ADMIN_TOKEN is unset. One record per email, ordered by its first request; `updatedAt` is its latest.',
    },
  })
  .input(signupListQuerySchema)
  .output(pageSchema(signupSchema))
  .query(({ ctx, input }) => listSignups(ctx.db, input));
