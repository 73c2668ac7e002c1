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
        'Needs `orders:operate` (Owner and Admin hold it). Body `{ status }`. Allowed: `PENDING` → `CONFIRMED` → `PROCESSING` → `COMPLETED`, and `PENDING`, `CONFIRMED` or `PROCESSING` → `CANCELLED`. `COMPLETED` and `CANCELLED` are final. Any other move, the current status included, is `409 INVALID_STATE_TRANSITION` (`details: { from, to }`) and changes nothing.',
        'The order is locked while the move is judged, so of two concurrent moves the second is judged from the state the first left. Audited as `order.status_changed` with `{ from, to }`. Answers the order.',
        'Cancelling a checkout order that is not paid (`paymentStatus` `AWAITING_PAYMENT`, or `FAILED` with its session free to retry) takes its payment back: its stock is released, its checkout session is `CANCELLED` (a later `payment-session` is `409 INVALID_STATE_TRANSITION`), its `paymentStatus` becomes `FAILED`, and its payment intent is cancelled at the processor after the change commits (retried by the worker while the processor fails; the answer does not wait for it). A payment that still arrives for it is refunded in full and the order becomes `paymentStatus: REFUNDED`. Cancelling a `PAID` order changes only its status.',
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
