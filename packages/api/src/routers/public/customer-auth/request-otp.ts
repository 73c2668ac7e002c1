import { requestSignIn, requestSignInInputSchema, signInRequestedSchema } from '@commerce/customers';
import { tenantProcedure } from '../../../trpc.ts';
import { customerEmailContext } from '../../../write-context.ts';
import { NEUTRAL, TAGS } from './docs.ts';
import { limitSignIn } from './sign-in.ts';

export const requestOtpProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/customer/auth/request-otp',
      tags: TAGS,
      summary: 'Email a one-time sign-in code',
      description: `Emails a 6-digit code that works once, for 15 minutes; 5 wrong attempts void it. Verify with \`POST /public/customer/auth/verify\`. ${NEUTRAL}`,
    },
    errors: ['RATE_LIMIT_EXCEEDED'],
  })
  .input(requestSignInInputSchema)
  .output(signInRequestedSchema)
  .mutation(async ({ ctx, input }) => {
    await limitSignIn(ctx, ctx.tenant.organizationId, 'request', input.email);
    return requestSignIn(ctx.db, customerEmailContext(ctx, ctx.tenant.organizationId), input, 'CODE');
  });
