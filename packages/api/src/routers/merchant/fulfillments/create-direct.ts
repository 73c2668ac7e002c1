import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '@commerce/db';
import {
  createDirectFulfillment,
  createDirectFulfillmentInputSchema,
  directFulfillmentSchema,
} from '@commerce/orders';
import { emailingWriteContext } from '../../../write-context.ts';
import { ADDRESSING, BASE, FULFILLABLE, KEY_REQUIRED, LINES, LOCKED, OPERATOR, TAGS } from './docs.ts';
import { operator } from './fulfillment-access.ts';

export const createDirectProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: `${BASE}/fulfillments`,
      tags: TAGS,
      summary: 'Ship units now (direct fulfillment)',
      description: [
        `${OPERATOR} ${ADDRESSING} ${KEY_REQUIRED}`,
        `Body: ${LINES} \`notifyCustomer\` (boolean, required, no default); \`tracking?\` \`{ carrier (1 to 50), trackingNumber (1 to 100 letters, digits, spaces, hyphens), trackingUrl? (https, at most 2000) }\`; \`shippedAt?\` (ISO 8601 with an offset, not in the future, not before the order was created; default now); \`note?\` (1 to 500, merchant-internal).`,
        `${FULFILLABLE} ${LOCKED}`,
        "Answers `201` with the `SHIPPED` fulfillment and `recordFulfillmentStatus`, the record's and its legacy order's `fulfillmentStatus` as this transaction rewrote it (`UNFULFILLED`, `PARTIALLY_FULFILLED` or `FULFILLED` by the PRODUCT lines' shipped units). Tracked variants lose the units once (an `inventory_movements` row per line; units the order's checkout reservation holds are drawn from it; stock stops at zero, the rest recorded as shortfall). `notifyCustomer: true` queues one `ORDER_SHIPPED` email to the customer; `false` records `SUPPRESS`. Audited as `fulfillment.created`.",
      ].join('\n\n'),
    },
    successStatus: 201,
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
