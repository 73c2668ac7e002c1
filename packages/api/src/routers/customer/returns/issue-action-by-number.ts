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
      description: `Compatibility route: the same as \`POST /customer/account/orders/by-reference/{orderReference}/return-actions\` with the order's display number. A number that is not plain digits is the neutral \`404\` too.\n\n${ISSUE}`,
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
