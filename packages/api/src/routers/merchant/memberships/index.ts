import { router } from '../../../trpc.ts';
import { grantProcedure } from './grant.ts';
import { permissionPresetsProcedure } from './permission-presets.ts';
import { removeProcedure } from './remove.ts';
import { updateProcedure } from './update.ts';

export const merchantMembershipsRouter = router({
  grant: grantProcedure,
  update: updateProcedure,
  remove: removeProcedure,
  permissionPresets: permissionPresetsProcedure,
});
