import { orderSchema, updateShippingAddress, updateShippingAddressInputSchema } from '@commerce/orders';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';

const fulfillmentOperator = merchantProcedureWith('fulfillment:operate');

export const updateShippingAddressProcedure = fulfillmentOperator
  .meta({
    openapi: {
      method: 'PUT',
      path: '/merchant/orders/{id}/shipping-address',
      tags: TAGS,
      summary: "Set the order's ship-to address",
      description:
        'Needs `fulfillment:operate`. Replaces the ship-to of the sales record and the order (labels are rated for it); postage already bought is left as it is. A cancelled or fully shipped order is `409 ORDER_NOT_FULFILLABLE`. `{id}` is the order or its sales record; the same address again changes nothing.',
    },
    errors: ['ORDER_NOT_FULFILLABLE'],
  })
  .input(updateShippingAddressInputSchema)
  .output(orderSchema)
  .mutation(({ ctx, input }) => updateShippingAddress(ctx.db, writeContext(ctx), input));
