import { getSettings } from '@commerce/admin';
import { AppError } from '@commerce/core';
import type { ApiContext } from '../../../context.ts';

/** Public order reads answer only when the organization turned them on. */
export async function assertPublicOrderReads(ctx: ApiContext, organizationId: string): Promise<void> {
  const settings = await getSettings(ctx.db, organizationId, ctx.clock.now());
  if (settings.apiSettings.publicOrderReadsEnabled !== true) throw AppError.notFound('Not found');
}
