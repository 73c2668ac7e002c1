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
        'Revokes the session presented (bearer `s1_…` or the `__Host-session` cookie): the token is refused from then on. Answers `200 { revoked: true }` with `Set-Cookie: __Host-session=; Max-Age=0`, which clears the cookie. No body is needed. Audited as `customer.signed_out`. With the cookie, the request must come from an allowed origin (`403` otherwise).',
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
