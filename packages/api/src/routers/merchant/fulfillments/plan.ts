import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '@commerce/db';
import { fulfillmentSchema, planFulfillment, planFulfillmentInputSchema } from '@commerce/orders';
import { emailingWriteContext } from '../../../write-context.ts';
import { ADDRESSING, BASE, FULFILLABLE, KEY_REQUIRED, LINES, LOCKED, OPERATOR, TAGS } from './docs.ts';
import { operator } from './fulfillment-access.ts';

export const planProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: `${BASE}/planned-fulfillments`,
      tags: TAGS,
      summary: 'Plan a package (allocate units)',
      description: [
        `${OPERATOR} ${ADDRESSING} ${KEY_REQUIRED}`,
        `Body: ${LINES}`,
        '`package?`: a box preset `{ boxPresetId, boxPresetRevision?, loadedWeightGrams }` (its outer dimensions, the inner ones where it sets none, and its current revision are stored) or custom outer dimensions `{ lengthMm, widthMm, heightMm, loadedWeightGrams }` (integers 1 to 3000 mm), never both; `loadedWeightGrams` is the packed parcel, 1 to 150000 g. A preset id that names none of the organization’s presets is `400` at `package.boxPresetId`; a weight below the preset’s tare or above its `maxLoadGrams` is `400` at `package.loadedWeightGrams`; an archived preset, or a `boxPresetRevision` that is no longer current, is `409 STALE_STATE` (`details.boxPresetId`, and `archivedAt` or the current `revision`).',
        `${FULFILLABLE} ${LOCKED}`,
        'Answers `201` with the `PLANNED` fulfillment: its units are allocated (they count against what is left, not as shipped); nothing is bought, shipped or consumed. Audited as `fulfillment.planned`.',
      ].join('\n\n'),
    },
    successStatus: 201,
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
