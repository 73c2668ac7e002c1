import { customerAddressSchema, updateAddress, updateAddressInputSchema } from '@commerce/customers';
import { customerProcedure } from '../../../trpc.ts';
import { writer } from './account-scope.ts';
import { ADDRESS_TAGS, NEUTRAL_404 } from './docs.ts';

export const updateAddressProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/customer/account/addresses/{id}',
      tags: ADDRESS_TAGS,
      summary: 'Change an address',
      description: `Fields not sent stay. Taking a default clears the previous one in the same transaction; \`false\` on the default leaves none. ${NEUTRAL_404.replace('value', 'address id')}`,
    },
    errors: ['RESOURCE_NOT_FOUND'],
  })
  .input(updateAddressInputSchema)
  .output(customerAddressSchema)
  .mutation(({ ctx, input }) => updateAddress(ctx.db, writer(ctx), input));
