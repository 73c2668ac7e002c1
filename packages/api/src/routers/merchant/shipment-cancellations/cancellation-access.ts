import type { MerchantUser } from '@commerce/db';
import type { ShipmentCancellationContext } from '@commerce/fulfillment';
import type { ApiContext } from '../../../context.ts';
import { merchantProcedureFor } from '../../../trpc.ts';
import { merchantActor } from '../../../write-context.ts';

export const ownerOrAdmin = merchantProcedureFor('Owner', 'Admin');

export function cancellationContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): ShipmentCancellationContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: merchantActor(ctx),
    clock: ctx.clock,
    carrier: ctx.services.carrier,
  };
}
