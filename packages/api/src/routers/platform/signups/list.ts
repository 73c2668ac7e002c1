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
      description: [
        'Operator surface: `Authorization: Bearer <PLATFORM_ADMIN_TOKEN>`. Every /platform route answers 404 while PLATFORM_ADMIN_TOKEN is unset.',
        'One record per email, ordered by its first request (`createdAt` desc, then `id` desc); `updatedAt` is its latest. Keyset-paginated: pass `nextCursor` as `cursor` (limit 1 to 200, default 50); a cursor that names no signup is `400 VALIDATION_FAILED`.',
      ].join('\n\n'),
    },
  })
  .input(signupListQuerySchema)
  .output(pageSchema(signupSchema))
  .query(({ ctx, input }) => listSignups(ctx.db, input));
