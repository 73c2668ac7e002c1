import {
  byNumberInputSchema,
  issuedReturnActionSchema,
  issueReturnAction,
  issueReturnActionInputSchema,
} from '@commerce/orders';
import { customerProcedure } from '../../../trpc.ts';
import { ISSUE, TAGS } from './docs.ts';
import { returnScope } from './return-scope.ts';

export const issueActionByNumberProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/customer/account/orders/{orderNumber}/return-actions',
      tags: TAGS,
      summary: 'Issue a return action token, by order number (compatibility)',
      description: `Compatibility: the by-reference route with the order's display number. ${ISSUE}`,
    },
    successStatus: 201,
    errors: ['RETURN_NOT_ELIGIBLE'],
  })
  .input(issueReturnActionInputSchema.extend(byNumberInputSchema.shape))
  .output(issuedReturnActionSchema)
  .mutation(async ({ ctx, input }) => {
    const { orderNumber, ...body } = input;
    return issueReturnAction(ctx.db, await returnScope(ctx), { orderNumber }, body);
  });
