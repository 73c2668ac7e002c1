import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '@commerce/db';
import { createReturnByReferenceInputSchema, requestReturn, returnSchema } from '@commerce/orders';
import { customerProcedure } from '../../../trpc.ts';
import { ELIGIBILITY, OWN_ORDER, TAGS } from './docs.ts';
import { returnScope } from './return-scope.ts';

export const createProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/customer/account/orders/by-reference/{orderReference}/returns',
      tags: TAGS,
      summary: 'Request a return',
      description: [
        'Body `{ lines: [{ lineId, quantity, reason, note? }] }`: 1 to 100 lines, each a `PRODUCT` line of the order (`items[].id`) at most once; `quantity` 1 to what is left to return; `reason` one of `DAMAGED`, `DEFECTIVE`, `WRONG_ITEM`, `NOT_AS_DESCRIBED`, `SIZE_OR_FIT`, `NO_LONGER_NEEDED`, `OTHER`; `note` at most 500 characters. No customer email: the session is the identity. Unknown keys are `400`.',
        ELIGIBILITY,
        'Answers `201` with the return in `REQUESTED` (`refundTotalInCents` = Σ quantity × unit price). A line that is not a `PRODUCT` line of the order, or appears twice, is `400` (`lines.N.lineId`); an order that cannot be returned now is `409 RETURN_NOT_ELIGIBLE` (`details { reason, windowEndsAt }`); a quantity above what is left is `409 OVER_RETURN` (`details.lines[{ lineId, requested, returnable }]`). Requests for one order are serialised by the order’s lock, so concurrent requests never return more than was bought. The `RETURN_REQUESTED` email is queued in the same transaction; audited as `return.requested`.',
        'Optional header `x-idempotency-key` (alias `Idempotency-Key`; 16 to 255 of `A-Z a-z 0-9 _ . : -`, else `400`; kept 24 hours): the same key for the same order and body answers the recorded return again with `idempotent-replayed: true` and requests nothing more; the same key for another request is `409 IDEMPOTENCY_KEY_REUSED`. A refused request records nothing.',
        OWN_ORDER,
      ].join('\n\n'),
    },
    successStatus: 201,
    errors: ['RETURN_NOT_ELIGIBLE', 'OVER_RETURN', 'IDEMPOTENCY_KEY_REUSED'],
  })
  .input(createReturnByReferenceInputSchema)
  .output(returnSchema)
  .mutation(async ({ ctx, input }) => {
    const { orderReference, ...body } = input;
    const idempotencyKey = readIdempotencyKey(ctx.request.headers);
    const { created, replayed } = await requestReturn(
      ctx.db,
      await returnScope(ctx),
      { orderReference },
      body,
      idempotencyKey,
    );
    if (replayed) ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
    return created;
  });
