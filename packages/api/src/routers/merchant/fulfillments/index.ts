import { router } from '../../../trpc.ts';
import { attachExternalPostageProcedure } from './attach-external-postage.ts';
import { cancelProcedure } from './cancel.ts';
import { createDirectProcedure } from './create-direct.ts';
import { deliverProcedure } from './deliver.ts';
import { getProcedure } from './get.ts';
import { handOffProcedure } from './hand-off.ts';
import { listProcedure } from './list.ts';
import { planProcedure } from './plan.ts';
import { repairTrackingProcedure } from './repair-tracking.ts';

export const merchantFulfillmentsRouter = router({
  list: listProcedure,
  get: getProcedure,
  createDirect: createDirectProcedure,
  plan: planProcedure,
  attachExternalPostage: attachExternalPostageProcedure,
  handOff: handOffProcedure,
  deliver: deliverProcedure,
  cancel: cancelProcedure,
  repairTracking: repairTrackingProcedure,
});
