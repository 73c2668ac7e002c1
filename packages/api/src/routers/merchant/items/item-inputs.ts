import { type ItemWriteContext, itemIdInputSchema, variantPathInputSchema } from '@commerce/catalog';
import type { MerchantUser } from '@commerce/db';
import { z } from 'zod';
import type { ApiContext } from '../../../context.ts';

export function writeContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): ItemWriteContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    at: ctx.clock.now(),
  };
}

/** Body-less actions: the path's id and nothing else. */
export const itemActionInputSchema = z.strictObject({ id: itemIdInputSchema.shape.id });

export const variantActionInputSchema = variantPathInputSchema.strict();
