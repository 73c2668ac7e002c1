import { AppError } from '@commerce/core';
import type { MerchantUser } from '@commerce/db';
import { SANDBOX_CARRIER, type SandboxControlContext } from '@commerce/fulfillment';
import type { ApiContext } from '../../../context.ts';
import { storeCurrency } from '../../../store-currency.ts';
import { merchantProcedureFor } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';

/** Sandbox carrier control (its balance, its voids, its test behaviour): Owner or Admin; Staff get 403 whatever their groups. */
export const sandboxConsole = merchantProcedureFor('Owner', 'Admin');

/** The console's context; 404 unless the configured carrier is the sandbox. */
export async function sandboxContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): Promise<SandboxControlContext> {
  if (ctx.services.carrier.carrier !== SANDBOX_CARRIER) throw AppError.notFound();
  return {
    ...writeContext(ctx),
    currency: await storeCurrency(ctx, ctx.tenant.organizationId),
    startingBalanceInCents: ctx.config.carrier.sandboxStartingBalanceInCents,
  };
}
