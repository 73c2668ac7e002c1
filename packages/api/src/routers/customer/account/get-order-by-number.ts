import { customerOrderNumberInputSchema, getCustomerOrderByNumber } from '@commerce/customers';
import { customerOrderSchema } from '@commerce/orders';
import { customerProcedure } from '../../../trpc.ts';
import { NEUTRAL_404, ORDER_READ, ORDER_TAGS } from './docs.ts';

export const getOrderByNumberProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/customer/account/orders/{orderNumber}',
      tags: ORDER_TAGS,
      summary: 'One of the customer’s orders by its display number (compatibility)',
      description: `Kept for compatibility; new links use the by-reference route. ${NEUTRAL_404.replace('value', 'number')} ${ORDER_READ}`,
    },
    errors: ['RESOURCE_NOT_FOUND'],
  })
  .input(customerOrderNumberInputSchema)
  .output(customerOrderSchema)
  .query(({ ctx, input }) =>
    getCustomerOrderByNumber(
      ctx.db,
      { organizationId: ctx.customer.organizationId, email: ctx.customer.email },
      input.orderNumber,
    ),
  );
