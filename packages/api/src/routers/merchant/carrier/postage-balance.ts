import { postageBalanceSchema, readPostageBalance } from '@commerce/orders';
import { z } from 'zod';
import { storeCurrency } from '../../../store-currency.ts';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const postageBalanceProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/shipping/postage-balance',
      tags: TAGS,
      summary: 'The prepaid postage balance',
      description:
        "Open to any member. Asks the carrier for the organization's prepaid balance now: `{ carrier, fundingModel: PREPAID_BALANCE, balanceInCents, openClaimsInCents, availableInCents, currency, autoTopUp: false, checkedAt }`; `availableInCents` is the balance less the charges of the organization's `PENDING` and `UNCERTAIN` label purchases, what a purchase may spend. A balance the carrier could not give (unreachable, or no answer within `CARRIER_TIMEOUT_MS`) is `503 PROVIDER_UNAVAILABLE`.",
    },
    errors: ['PROVIDER_UNAVAILABLE'],
  })
  .input(z.object({}))
  .output(postageBalanceSchema)
  .query(async ({ ctx }) =>
    readPostageBalance(
      ctx.db,
      ctx.services.carrier,
      {
        organizationId: ctx.tenant.organizationId,
        currency: await storeCurrency(ctx, ctx.tenant.organizationId),
      },
      ctx.clock.now(),
    ),
  );
