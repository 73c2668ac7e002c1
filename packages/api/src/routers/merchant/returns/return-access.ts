import { hasPermission } from '@commerce/auth';
import { AppError } from '@commerce/core';
import type { MerchantUser } from '@commerce/db';
import type { ReturnWriteContext } from '@commerce/orders';
import type { ApiContext } from '../../../context.ts';
import { customerEmailConfig } from '../../../hosted-origin.ts';
import { merchantProcedure, merchantProcedureWith } from '../../../trpc.ts';

/** Reads need `customers:read` or `orders:operate` (Owner and Admin hold both). */
export const reader = merchantProcedure.use(({ ctx, next }) => {
  if (!hasPermission(ctx.membership, 'customers:read') && !hasPermission(ctx.membership, 'orders:operate'))
    throw new AppError('FORBIDDEN', 'Reading returns needs the customers:read or orders:operate permission');
  return next();
});

export const operator = merchantProcedureWith('orders:operate');

export function writeContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): ReturnWriteContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    email: customerEmailConfig(ctx),
    at: ctx.clock.now(),
  };
}
