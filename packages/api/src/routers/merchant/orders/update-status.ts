import { orderSchema, updateOrderStatus, updateOrderStatusInputSchema } from '@commerce/orders';
import { customerEmailConfig } from '../../../hosted-origin.ts';
import { writeContext } from '../../../write-context.ts';
import { TAGS } from './docs.ts';
import { operator } from './order-access.ts';

export const updateStatusProcedure = operator
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/orders/{id}/status',
      tags: TAGS,
      summary: 'Move an order to its next status',
      description: [
        'Needs `orders:operate`. `PENDING` → `CONFIRMED` → `PROCESSING` → `COMPLETED`, or to `CANCELLED` before completion; anything else is `409 INVALID_STATE_TRANSITION`. Concurrent moves are judged one after the other.',
        'Cancelling an unpaid checkout order takes its payment back: stock released, checkout session cancelled, payment intent cancelled after the commit (retried by the worker); a payment that still arrives is refunded in full.',
      ].join('\n\n'),
    },
    errors: ['INVALID_STATE_TRANSITION'],
  })
  .input(updateOrderStatusInputSchema)
  .output(orderSchema)
  .mutation(({ ctx, input }) =>
    updateOrderStatus(ctx.db, writeContext(ctx), input, {
      payments: ctx.services.payments,
      email: customerEmailConfig(ctx),
      ...(ctx.services.logger ? { logger: ctx.services.logger } : {}),
    }),
  );
