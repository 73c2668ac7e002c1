import type { MerchantUser } from '@commerce/db';
import type { LabelPurchaseContext } from '@commerce/fulfillment';
import type { ApiContext } from '../../../context.ts';
import { merchantProcedureWith } from '../../../trpc.ts';
import { merchantActor } from '../../../write-context.ts';

/** Label work needs `fulfillment:operate`. */
export const operator = merchantProcedureWith('fulfillment:operate');

export type MerchantContext = ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser };

export function labelContext(ctx: MerchantContext): LabelPurchaseContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: merchantActor(ctx),
    clock: ctx.clock,
    carrier: ctx.services.carrier,
    carrierTimeoutMs: ctx.config.carrier.timeoutMs,
  };
}

export const readContext = (ctx: MerchantContext) => ({
  organizationId: ctx.tenant.organizationId,
  now: ctx.clock.now(),
  carrierTimeoutMs: ctx.config.carrier.timeoutMs,
});
