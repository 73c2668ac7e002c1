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
      description:
        'Newest first, `{ data, nextCursor }`: pass `nextCursor` as `cursor` (`limit` 1 to 200, default 50); a cursor that names no address of the customer is `400`.',
    },
  })
  .input(addressListQuerySchema)
  .output(pageSchema(customerAddressSchema))
  .query(({ ctx, input }) => listAddresses(ctx.db, owner(ctx), input));
