import { router } from '../../../trpc.ts';
import { getProcedure } from './get.ts';
import { updateProcedure } from './update.ts';

export const merchantSettingsRouter = router({
  get: getProcedure,
  update: updateProcedure,
});
