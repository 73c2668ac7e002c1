import type { ApiContext, CustomerIdentity } from '../../../context.ts';

export const owner = (ctx: { customer: CustomerIdentity }) => ({
  organizationId: ctx.customer.organizationId,
  customerId: ctx.customer.id,
});

export const writer = (ctx: ApiContext & { customer: CustomerIdentity }) => ({
  ...owner(ctx),
  at: ctx.clock.now(),
});
