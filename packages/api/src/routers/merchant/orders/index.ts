import { router } from '../../../trpc.ts';
import { getProcedure } from './get.ts';
import { getByNumberProcedure } from './get-by-number.ts';
import { listProcedure } from './list.ts';
import { recommendShippingPackageProcedure } from './recommend-shipping-package.ts';
import { updateFulfillmentStatusProcedure } from './update-fulfillment-status.ts';
import { updateNotesProcedure } from './update-notes.ts';
import { updateShippingAddressProcedure } from './update-shipping-address.ts';
import { updateStatusProcedure } from './update-status.ts';

export const merchantOrdersRouter = router({
  list: listProcedure,
  getByNumber: getByNumberProcedure,
  get: getProcedure,
  updateStatus: updateStatusProcedure,
  updateNotes: updateNotesProcedure,
  updateShippingAddress: updateShippingAddressProcedure,
  updateFulfillmentStatus: updateFulfillmentStatusProcedure,
  recommendShippingPackage: recommendShippingPackageProcedure,
});
