import type { MerchantUser } from '@commerce/db';
import type { BoxPresetWriteContext } from '@commerce/orders';
import type { ApiContext } from '../../../context.ts';
import { merchantProcedureWith } from '../../../trpc.ts';

/** Box preset writes need `fulfillment:operate` (CONTRACT-fulfillment.md 13.1); reads are open to any member. */
export const operator = merchantProcedureWith('fulfillment:operate');

export function writeContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): BoxPresetWriteContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    at: ctx.clock.now(),
  };
}
