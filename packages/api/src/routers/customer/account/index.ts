import { router } from '../../../trpc.ts';
import { createAddressProcedure } from './create-address.ts';
import { deleteAddressProcedure } from './delete-address.ts';
import { getAddressProcedure } from './get-address.ts';
import { getOrderByNumberProcedure } from './get-order-by-number.ts';
import { getOrderByReferenceProcedure } from './get-order-by-reference.ts';
import { getProfileProcedure } from './get-profile.ts';
import { listAddressesProcedure } from './list-addresses.ts';
import { listOrdersProcedure } from './list-orders.ts';
import { updateAddressProcedure } from './update-address.ts';
import { updateProfileProcedure } from './update-profile.ts';

export const customerAccountRouter = router({
  getProfile: getProfileProcedure,
  updateProfile: updateProfileProcedure,
  listAddresses: listAddressesProcedure,
  createAddress: createAddressProcedure,
  getAddress: getAddressProcedure,
  updateAddress: updateAddressProcedure,
  deleteAddress: deleteAddressProcedure,
  listOrders: listOrdersProcedure,
  getOrderByReference: getOrderByReferenceProcedure,
  getOrderByNumber: getOrderByNumberProcedure,
});
