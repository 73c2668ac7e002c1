import { addressIdInputSchema, customerAddressSchema, getAddress } from '@commerce/customers';
import { customerProcedure } from '../../../trpc.ts';
import { owner } from './account-scope.ts';
import { ADDRESS_TAGS, NEUTRAL_404 } from './docs.ts';

export const getAddressProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/customer/account/addresses/{id}',
      tags: ADDRESS_TAGS,
      summary: 'One address',
      description: `${NEUTRAL_404.replace('value', 'address id')}`,
    },
    errors: ['RESOURCE_NOT_FOUND'],
  })
  .input(addressIdInputSchema)
  .output(customerAddressSchema)
  .query(({ ctx, input }) => getAddress(ctx.db, owner(ctx), input.id));
