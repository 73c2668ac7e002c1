import { getSettings } from '@commerce/admin';
import type { CustomerReturnScope } from '@commerce/orders';
import type { ApiContext, CustomerIdentity } from '../../../context.ts';
import { customerEmailConfig } from '../../../hosted-origin.ts';

/** The signed-in customer, the store's return window and where return emails link. */
export async function returnScope(
  ctx: ApiContext & { customer: CustomerIdentity },
): Promise<CustomerReturnScope> {
  const at = ctx.clock.now();
  const settings = await getSettings(ctx.db, ctx.customer.organizationId, at);
  return {
    customer: {
      organizationId: ctx.customer.organizationId,
      customerId: ctx.customer.id,
      email: ctx.customer.email,
    },
    returnWindowDays: settings.checkoutSettings.returnWindowDays,
    email: customerEmailConfig(ctx),
    at,
  };
}
