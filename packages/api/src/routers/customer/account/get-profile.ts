import { customerProfileSchema, getCustomerProfile } from '@commerce/customers';
import { z } from 'zod';
import { customerProcedure } from '../../../trpc.ts';
import { PROFILE_TAGS } from './docs.ts';

export const getProfileProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/customer/account/profile',
      tags: PROFILE_TAGS,
      summary: 'The signed-in customer’s profile',
      description:
        'Name, email, phone and the email-verified state of the customer the session belongs to. `pendingEmail` is a new address asked for through `PATCH` and not yet verified.',
    },
  })
  .input(z.object({}))
  .output(customerProfileSchema)
  .query(({ ctx }) => getCustomerProfile(ctx.db, ctx.customer.organizationId, ctx.customer.id));
