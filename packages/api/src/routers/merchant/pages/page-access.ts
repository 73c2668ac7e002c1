import type { PageContext } from '@commerce/catalog';
import type { MerchantUser } from '@commerce/db';
import type { ApiContext } from '../../../context.ts';
import { merchantProcedureWith } from '../../../trpc.ts';

export function pageContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): PageContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    at: ctx.clock.now(),
  };
}

export const writer = () => merchantProcedureWith('content:write');
