import { orderSchema, rejectFulfillmentStatusWrite } from '@commerce/orders';
import { z } from 'zod';
import { merchantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const updateFulfillmentStatusProcedure = merchantProcedure
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/orders/{id}/fulfillment-status',
      tags: TAGS,
      summary: 'Deprecated: always refused',
      description:
        '`fulfillmentStatus` is derived from fulfillment records: every call answers `409 LINE_FULFILLMENT_REQUIRED` and changes nothing.',
      deprecated: true,
    },
    errors: ['LINE_FULFILLMENT_REQUIRED'],
  })
  .input(
    z
      .object({
        id: z.string().describe('Order id; not looked up'),
        fulfillmentStatus: z.unknown().optional().describe('Ignored, as is every other body key'),
      })
      .catchall(z.unknown()),
  )
  .output(orderSchema)
  .mutation(() => rejectFulfillmentStatusWrite());
