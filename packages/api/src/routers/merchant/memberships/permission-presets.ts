import { listPermissionPresets, permissionPresetListSchema } from '@commerce/admin';
import { z } from 'zod';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const permissionPresetsProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/auth/permission-presets',
      tags: TAGS,
      summary: 'Named bundles of Staff permission groups',
      description:
        'A preset suggests the `permissions` of a Staff grant or update; memberships store the groups, never the preset.',
    },
  })
  .input(z.object({}))
  .output(permissionPresetListSchema)
  .query(() => listPermissionPresets());
