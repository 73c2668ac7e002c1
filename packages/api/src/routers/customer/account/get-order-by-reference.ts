import { getCustomerOrderByReference, orderReferenceInputSchema } from '@commerce/customers';
import { customerOrderSchema } from '@commerce/orders';
import { customerProcedure } from '../../../trpc.ts';
import { NEUTRAL_404, ORDER_READ, ORDER_TAGS } from './docs.ts';

export const getOrderByReferenceProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/customer/account/orders/by-reference/{orderReference}',
      tags: ORDER_TAGS,
      summary: 'One of the customer’s orders by its reference (primary)',
      description: `${NEUTRAL_404.replace('value', '`orderReference`')} ${ORDER_READ}`,
    },
    errors: ['RESOURCE_NOT_FOUND'],
  })
  .input(orderReferenceInputSchema)
  .output(customerOrderSchema)
  .query(({ ctx, input }) =>
    getCustomerOrderByReference(
      ctx.db,
      { organizationId: ctx.customer.organizationId, email: ctx.customer.email },
      input.orderReference,
    ),
  );
