import type { MerchantUser } from '@commerce/db';
import type { WarehouseContext } from '@commerce/orders';
import type { ApiContext } from '../../../context.ts';
import { merchantProcedureWith } from '../../../trpc.ts';

export const operator = merchantProcedureWith('fulfillment:operate');

export function warehouseContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): WarehouseContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    at: ctx.clock.now(),
  };
}
