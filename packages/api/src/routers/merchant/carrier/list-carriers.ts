import { carrierListSchema, listCarriers } from '@commerce/orders';
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
        'Open to any member. `{ data: [{ carrier, services: [{ code, name, domesticOnly }] }], nextCursor: null }`: the one carrier `CARRIER_PROVIDER` configures (the sandbox: `GROUND`, `EXPRESS`, `OVERNIGHT`, the last domestic only). A quote or purchase names one of these pairs. A production server without a carrier (no sandbox allowed there) lists none, and its quotes, purchases and balance answer `503 PROVIDER_UNAVAILABLE`.',
    },
  })
  .input(z.object({}))
  .output(carrierListSchema)
  .query(({ ctx }) => listCarriers(ctx.services.carrier));
