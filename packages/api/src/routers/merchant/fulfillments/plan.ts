import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '@commerce/db';
import { fulfillmentSchema, planFulfillment, planFulfillmentInputSchema } from '@commerce/fulfillment';
import { emailingWriteContext } from '../../../write-context.ts';
import { ADDRESSING, BASE, FULFILLABLE, KEY_REQUIRED, LOCKED, OPERATOR, TAGS } from './docs.ts';
import { operator } from './fulfillment-access.ts';

export const planProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: `${BASE}/planned-fulfillments`,
      tags: TAGS,
      summary: 'Plan a package (allocate units)',
      description: `Allocates the units (they count against what is left, not as shipped); nothing is bought, shipped or consumed. A package from a box preset stores the preset's dimensions and revision; an archived preset or a stale revision is \`409 STALE_STATE\`. ${FULFILLABLE} ${LOCKED} ${KEY_REQUIRED} ${OPERATOR} ${ADDRESSING}`,
    },
    successStatus: 201,
    idempotencyKey: 'required',
    errors: ['IDEMPOTENCY_KEY_REUSED', 'ORDER_NOT_FULFILLABLE', 'OVER_FULFILLMENT', 'STALE_STATE'],
  })
  .input(planFulfillmentInputSchema)
  .output(fulfillmentSchema)
  .mutation(async ({ ctx, input }) => {
    const key = readIdempotencyKey(ctx.request.headers, { required: true });
    const { body, replayed } = await planFulfillment(ctx.db, emailingWriteContext(ctx), input, key);
    if (replayed) ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return body;
  });
