import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '@commerce/db';
import {
  createDirectFulfillment,
  createDirectFulfillmentInputSchema,
  directFulfillmentSchema,
} from '@commerce/fulfillment';
import { emailingWriteContext } from '../../../write-context.ts';
import { ADDRESSING, BASE, FULFILLABLE, KEY_REQUIRED, LOCKED, OPERATOR, TAGS } from './docs.ts';
import { operator } from './fulfillment-access.ts';

export const createDirectProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: `${BASE}/fulfillments`,
      tags: TAGS,
      summary: 'Ship units now (direct fulfillment)',
      description: [
        "Ships the units at once: tracked stock is consumed once (from the order's checkout reservation where it holds them; stock stops at zero), and the record's `fulfillmentStatus` is rewritten and returned. `notifyCustomer` decides the shipped email.",
        `${FULFILLABLE} ${LOCKED} ${KEY_REQUIRED} ${OPERATOR} ${ADDRESSING}`,
      ].join('\n\n'),
    },
    // Tracked stock consumed: its items' `inStock` on the public reads.
    purges: 'shipped-stock',
    successStatus: 201,
    idempotencyKey: 'required',
    errors: ['IDEMPOTENCY_KEY_REUSED', 'ORDER_NOT_FULFILLABLE', 'OVER_FULFILLMENT'],
  })
  .input(createDirectFulfillmentInputSchema)
  .output(directFulfillmentSchema)
  .mutation(async ({ ctx, input }) => {
    const key = readIdempotencyKey(ctx.request.headers, { required: true });
    const { body, replayed } = await createDirectFulfillment(ctx.db, emailingWriteContext(ctx), input, key);
    if (replayed) ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return body;
  });
