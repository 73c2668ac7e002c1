import { getSettings } from '@commerce/admin';
import type { ApiContext } from './context.ts';

/** The store currency that service reads quote their pricing preview in. */
export async function storeCurrency(ctx: ApiContext, organizationId: string): Promise<string> {
  return (await getSettings(ctx.db, organizationId, ctx.clock.now())).checkoutSettings.currency;
}
