import { postageBalanceSchema, readPostageBalance } from '@commerce/fulfillment';
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
        'Asks the carrier now. `availableInCents` is what a purchase may spend: the balance less the charges of unsettled label purchases. `503` when the carrier cannot say.',
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
