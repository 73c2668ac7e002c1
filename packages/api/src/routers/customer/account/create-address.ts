import { createAddress, createAddressInputSchema, customerAddressSchema } from '@commerce/customers';
import { customerProcedure } from '../../../trpc.ts';
import { writer } from './account-scope.ts';
import { ADDRESS_TAGS } from './docs.ts';

export const createAddressProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/customer/account/addresses',
      tags: ADDRESS_TAGS,
      summary: 'Add an address',
      description:
        'Taking a default (shipping or billing) clears the previous one in the same transaction. Answers `201`.',
    },
    successStatus: 201,
  })
  .input(createAddressInputSchema)
  .output(customerAddressSchema)
  .mutation(({ ctx, input }) => createAddress(ctx.db, writer(ctx), input));
