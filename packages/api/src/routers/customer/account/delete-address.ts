import { addressIdInputSchema, deleteAddress } from '@commerce/customers';
import { z } from 'zod';
import { customerProcedure } from '../../../trpc.ts';
import { owner } from './account-scope.ts';
import { ADDRESS_TAGS, NEUTRAL_404 } from './docs.ts';

export const deleteAddressProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'DELETE',
      path: '/customer/account/addresses/{id}',
      tags: ADDRESS_TAGS,
      summary: 'Remove an address',
      description: `Answers \`204\`. Removing a default address leaves the customer without that default. ${NEUTRAL_404.replace('value', 'address id')}`,
    },
    successStatus: 204,
    errors: ['RESOURCE_NOT_FOUND'],
  })
  .input(addressIdInputSchema)
  .output(z.void())
  .mutation(({ ctx, input }) => deleteAddress(ctx.db, owner(ctx), input.id));
