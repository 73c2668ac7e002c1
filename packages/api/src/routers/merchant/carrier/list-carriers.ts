import { carrierListSchema, listCarriers } from '@commerce/fulfillment';
import { z } from 'zod';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const listCarriersProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/shipping/carriers',
      tags: TAGS,
      summary: 'The configured carrier and its services',
      description:
        'The one carrier `CARRIER_PROVIDER` configures; a quote or purchase names one of its services. A production server without a carrier lists none, and its quotes, purchases and balance answer `503`.',
    },
  })
  .input(z.object({}))
  .output(carrierListSchema)
  .query(({ ctx }) => listCarriers(ctx.services.carrier));
