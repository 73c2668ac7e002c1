import { pageSchema } from '@commerce/core';
import {
  listWarehouseOutputs,
  warehouseOutputListQuerySchema,
  warehouseOutputSchema,
} from '@commerce/fulfillment';
import { merchantProcedure } from '../../../trpc.ts';
import { BASE, TAGS } from './docs.ts';

export const listProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: BASE,
      tags: TAGS,
      summary: 'Fulfillments not yet handed off, with packing slips and label eligibility',
      description:
        'The `PLANNED` and `READY` fulfillments, each with its packing slip (never the order notes) and whether its label can be printed in a batch.',
    },
  })
  .input(warehouseOutputListQuerySchema)
  .output(pageSchema(warehouseOutputSchema))
  .query(({ ctx, input }) => listWarehouseOutputs(ctx.db, ctx.tenant.organizationId, input));
