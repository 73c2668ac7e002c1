import { pageSchema } from '@commerce/core';
import { customerOrderListQuerySchema, listCustomerOrders } from '@commerce/customers';
import { customerOrderSchema } from '@commerce/orders';
import { customerProcedure } from '../../../trpc.ts';
import { ORDER_READ, ORDER_TAGS } from './docs.ts';

export const listOrdersProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/customer/account/orders',
      tags: ORDER_TAGS,
      summary: 'The customer’s orders, newest first',
      description: `${ORDER_READ}`,
    },
  })
  .input(customerOrderListQuerySchema)
  .output(pageSchema(customerOrderSchema))
  .query(({ ctx, input }) =>
    listCustomerOrders(
      ctx.db,
      { organizationId: ctx.customer.organizationId, email: ctx.customer.email },
      input,
    ),
  );
