import { clearedSessionCookie, signOut } from '@commerce/customers';
import { z } from 'zod';
import { customerProcedure } from '../../../trpc.ts';

const TAGS = ['Customer: sign-in'];

export const logoutProcedure = customerProcedure
  .meta({
    openapi: {
      method: 'POST',
      path: '/customer/auth/logout',
      tags: TAGS,
      summary: 'Sign out: revoke the session and clear its cookie',
      description:
        'Revokes the session presented (bearer or cookie) and clears the cookie. With the cookie, the request must come from an allowed origin (else `403`).',
    },
  })
  .input(z.object({}).strict())
  .output(z.object({ revoked: z.literal(true) }))
  .mutation(async ({ ctx }) => {
    await signOut(
      ctx.db,
      { organizationId: ctx.customer.organizationId, at: ctx.clock.now() },
      {
        sessionId: ctx.customer.sessionId,
        customer: ctx.customer,
      },
    );
    ctx.resHeaders.append('Set-Cookie', clearedSessionCookie());
    return { revoked: true as const };
  });
