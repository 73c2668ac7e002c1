import { requestSignIn, requestSignInInputSchema, signInRequestedSchema } from '@commerce/customers';
import { tenantProcedure } from '../../../trpc.ts';
import { customerEmailContext } from '../../../write-context.ts';
import { NEUTRAL, TAGS } from './docs.ts';
import { limitSignIn } from './sign-in.ts';

export const requestLinkProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/public/customer/auth/request-link',
      tags: TAGS,
      summary: 'Email a sign-in link with a fallback code',
      description: `Emails a sign-in link and a 6-digit fallback code; either works once, for 15 minutes, through \`POST /public/customer/auth/verify\`. ${NEUTRAL}`,
    },
    errors: ['RATE_LIMIT_EXCEEDED'],
  })
  .input(requestSignInInputSchema)
  .output(signInRequestedSchema)
  .mutation(async ({ ctx, input }) => {
    await limitSignIn(ctx, ctx.tenant.organizationId, 'request', input.email);
    return requestSignIn(ctx.db, customerEmailContext(ctx, ctx.tenant.organizationId), input, 'LINK');
  });
