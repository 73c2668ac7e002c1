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
        'Body: `line1` (1 to 300), `city` (1 to 200), `country` (2 letters, stored uppercase) required; `name`, `company` (at most 200), `line2` (300), `state` (200), `postalCode` (32), `phone` (50) optional; `isDefaultShipping`, `isDefaultBilling` (default false). A customer has at most one default-shipping and one default-billing address (enforced by the database): taking a default clears the previous one in the same transaction. Answers `201` with the address.',
    },
    successStatus: 201,
  })
  .input(createAddressInputSchema)
  .output(customerAddressSchema)
  .mutation(({ ctx, input }) => createAddress(ctx.db, writer(ctx), input));
