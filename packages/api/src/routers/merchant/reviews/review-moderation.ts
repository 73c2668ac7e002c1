import { z } from 'zod';
import { merchantProcedureWith } from '../../../trpc.ts';

export const moderator = merchantProcedureWith('catalog:write');

export const idInput = z.object({ id: z.string().min(1).max(64) });

export function moderationScope(ctx: {
  tenant: { organizationId: string };
  merchantUser: { id: string; email: string };
  clock: { now(): Date };
}) {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    at: ctx.clock.now(),
  };
}
