import type { MerchantUser } from '@commerce/db';
import type { ShipmentCancellationContext } from '@commerce/orders';
import type { ApiContext } from '../../../context.ts';
import { merchantProcedureFor } from '../../../trpc.ts';

export const ownerOrAdmin = merchantProcedureFor('Owner', 'Admin');

export function cancellationContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): ShipmentCancellationContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    clock: ctx.clock,
    carrier: ctx.services.carrier,
  };
}
