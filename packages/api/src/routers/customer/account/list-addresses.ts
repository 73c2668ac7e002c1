import { pageSchema } from '@commerce/core';
import { addressListQuerySchema, customerAddressSchema, listAddresses } from '@commerce/customers';
import { customerProcedure } from '../../../trpc.ts';
import { owner } from './account-scope.ts';
import { ADDRESS_TAGS } from './docs.ts';

export const listAddressesProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/customer/account/addresses',
      tags: ADDRESS_TAGS,
      summary: 'The address book',
    },
  })
  .input(addressListQuerySchema)
  .output(pageSchema(customerAddressSchema))
  .query(({ ctx, input }) => listAddresses(ctx.db, owner(ctx), input));
