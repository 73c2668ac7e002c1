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
        `${ELIGIBILITY} Requests for one order queue on the order, so concurrent requests never return more than was bought.`,
        `With the optional \`x-idempotency-key\` the same key and body answer the recorded return again; a refused request records nothing. ${OWN_ORDER}`,
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
