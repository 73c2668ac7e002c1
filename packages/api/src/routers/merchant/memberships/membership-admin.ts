import type { MembershipAdminContext } from '@commerce/admin';
import type { Membership, MerchantUser } from '@commerce/db';
import type { ApiContext } from '../../../context.ts';

export function adminContext(
  ctx: ApiContext & {
    tenant: { organizationId: string };
    merchantUser: MerchantUser;
    membership: Membership;
  },
): MembershipAdminContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: {
      userId: ctx.merchantUser.id,
      email: ctx.merchantUser.email,
      membershipId: ctx.membership.id,
      role: ctx.membership.role,
    },
    at: ctx.clock.now(),
  };
}
