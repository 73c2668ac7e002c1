import { hasPermission } from '@commerce/auth';
import { AppError } from '@commerce/core';
import { merchantProcedure, merchantProcedureWith } from '../../../trpc.ts';

/** Reads need `customers:read` or `orders:operate` (Owner and Admin hold both). */
export const reader = merchantProcedure.use(({ ctx, next }) => {
  if (!hasPermission(ctx.membership, 'customers:read') && !hasPermission(ctx.membership, 'orders:operate'))
    throw new AppError('FORBIDDEN', 'Reading returns needs the customers:read or orders:operate permission');
  return next();
});

export const operator = merchantProcedureWith('orders:operate');
