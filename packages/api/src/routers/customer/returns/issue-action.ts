import {
  byReferenceInputSchema,
  issuedReturnActionSchema,
  issueReturnAction,
  issueReturnActionInputSchema,
} from '@commerce/orders';
import { customerProcedure } from '../../../trpc.ts';
import { ISSUE, TAGS } from './docs.ts';
import { returnScope } from './return-scope.ts';

export const issueActionProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/customer/account/orders/by-reference/{orderReference}/return-actions',
      tags: TAGS,
      summary: 'Issue a return action token',
      description: ISSUE,
    },
    successStatus: 201,
    errors: ['RETURN_NOT_ELIGIBLE'],
  })
  .input(issueReturnActionInputSchema.extend(byReferenceInputSchema.shape))
  .output(issuedReturnActionSchema)
  .mutation(async ({ ctx, input }) => {
    const { orderReference, ...body } = input;
    return issueReturnAction(ctx.db, await returnScope(ctx), { orderReference }, body);
  });
