import type { MerchantUser } from '@commerce/db';
import type { OrderWriteContext } from '@commerce/orders';
import type { ApiContext } from '../../../context.ts';
import { merchantProcedureWith } from '../../../trpc.ts';

export const operator = merchantProcedureWith('orders:operate');

export function writeContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): OrderWriteContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    at: ctx.clock.now(),
  };
}
