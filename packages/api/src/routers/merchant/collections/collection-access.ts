import type { CollectionContext } from '@commerce/catalog';
import type { MerchantUser } from '@commerce/db';
import type { ApiContext } from '../../../context.ts';
import { merchantProcedureWith } from '../../../trpc.ts';

export function collectionContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): CollectionContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    at: ctx.clock.now(),
  };
}

export const writer = () => merchantProcedureWith('catalog:write');
