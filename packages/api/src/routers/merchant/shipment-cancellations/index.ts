import { router } from '../../../trpc.ts';
import { acknowledgeRetiredPostageProcedure } from './acknowledge-retired-postage.ts';
import { cancelPreparedShipmentProcedure } from './cancel-prepared-shipment.ts';
import { carrierCheckProcedure } from './carrier-check.ts';

export const merchantShipmentCancellationsRouter = router({
  cancelPreparedShipment: cancelPreparedShipmentProcedure,
  carrierCheck: carrierCheckProcedure,
  acknowledgeRetiredPostage: acknowledgeRetiredPostageProcedure,
});
