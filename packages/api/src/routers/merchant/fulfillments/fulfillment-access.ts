import type { MerchantUser } from '@commerce/db';
import type { FulfillmentContext } from '@commerce/orders';
import type { ApiContext } from '../../../context.ts';
import { customerEmailConfig } from '../../../hosted-origin.ts';
import { merchantProcedureWith } from '../../../trpc.ts';

export const operator = merchantProcedureWith('fulfillment:operate');

export function fulfillmentContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): FulfillmentContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    at: ctx.clock.now(),
    email: customerEmailConfig(ctx),
  };
}
