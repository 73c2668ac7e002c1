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
      description: [
        'Needs `fulfillment:operate` (Owner and Admin hold it; Staff need the group, else `403`). `{id}` is the order (`ord_…`) or its sales record (`sal_…`); a sales record without an order, an unknown id or another organization’s is `404`. `x-idempotency-key` is ignored: the whole address is replaced, so a repeat changes nothing.',
        'Body, replacing the address as a whole: `name` (1 to 200), `line1` (1 to 300), `line2?` (at most 300), `city` (1 to 200), `state?` (at most 200), `postalCode` (1 to 32), `country` (two letters, stored upper case), `phone?` (at most 50). Strings are trimmed; a blank or null optional line is none. Unknown keys are `400`.',
        'Sets the ship-to snapshot of the sales record and the order in one transaction (labels are rated and bought for it); postage already on a fulfillment is left as it is. A `CANCELLED` order, or one whose PRODUCT units have all shipped (`fulfillmentStatus: FULFILLED`), ships nothing more: `409 ORDER_NOT_FULFILLABLE` (`details.reason` `CANCELLED` or `FULFILLED`), nothing changed. An unpaid order may still be given its address.',
        'Answers `200` with the order (`shippingAddress`). A change is audited as `order.shipping_address_updated` with the changed `fields`; the same address again writes nothing.',
      ].join('\n\n'),
    },
    errors: ['ORDER_NOT_FULFILLABLE'],
  })
  .input(updateShippingAddressInputSchema)
  .output(orderSchema)
  .mutation(({ ctx, input }) => updateShippingAddress(ctx.db, writeContext(ctx), input));
