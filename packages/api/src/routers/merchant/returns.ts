import { hasPermission } from '@commerce/auth';
import { AppError, pageSchema } from '@commerce/core';
import type { MerchantUser } from '@commerce/db';
import {
  approveReturn,
  completeReturn,
  getReturn,
  listReturns,
  type ReturnWriteContext,
  receiveReturn,
  rejectReturn,
  rejectReturnInputSchema,
  returnIdInputSchema,
  returnListQuerySchema,
  returnSchema,
} from '@commerce/orders';
import type { ApiContext } from '../../context.ts';
import { customerEmailConfig } from '../../hosted-origin.ts';
import { merchantProcedure, merchantProcedureWith, router } from '../../trpc.ts';

const TAGS = ['Merchant: returns'];

/** Reads need `customers:read` or `orders:operate` (Owner and Admin hold both). */
const reader = merchantProcedure.use(({ ctx, next }) => {
  if (!hasPermission(ctx.membership, 'customers:read') && !hasPermission(ctx.membership, 'orders:operate'))
    throw new AppError('FORBIDDEN', 'Reading returns needs the customers:read or orders:operate permission');
  return next();
});
const operator = merchantProcedureWith('orders:operate');

function writeContext(
  ctx: ApiContext & { tenant: { organizationId: string }; merchantUser: MerchantUser },
): ReturnWriteContext {
  return {
    organizationId: ctx.tenant.organizationId,
    actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
    email: customerEmailConfig(ctx),
    at: ctx.clock.now(),
  };
}

const READ_ACCESS =
  'Needs `customers:read` or `orders:operate` (Owner and Admin hold both); other Staff get `403`.';
const STATES =
  'States: `REQUESTED` → `APPROVED` → `RECEIVED` → `COMPLETED`; `REQUESTED` or `APPROVED` → `REJECTED` (merchant); `REQUESTED` → `CANCELLED` (the customer). `COMPLETED`, `REJECTED` and `CANCELLED` are final.';
const MOVE = (what: string, email: string) =>
  [
    `Needs \`orders:operate\`. ${what} Any other move, the current state included, is \`409 INVALID_STATE_TRANSITION\` (\`details { from, to }\`) and changes nothing; an unknown or another organization's return is \`404\`.`,
    `The return is locked while the move is judged, so of two concurrent moves the second is judged from the state the first left. Audited as \`return.<verb>\` with \`{ orderId, from, to }\`; the \`${email}\` email is queued to the customer in the same transaction. Answers the return.`,
    STATES,
  ].join('\n\n');

export const merchantReturnsRouter = router({
  list: reader
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/returns',
        tags: TAGS,
        summary: "The organization's returns, newest first",
        description: [
          READ_ACCESS,
          'Newest first (`createdAt`, then `id`, descending), keyset-paginated: pass `nextCursor` as `cursor` (`limit` 1 to 200, default 50); a cursor that names no return is `400`. Filters, composable: `status`, `orderId`, `email` (the customer email, case-insensitive).',
          STATES,
        ].join('\n\n'),
      },
    })
    .input(returnListQuerySchema)
    .output(pageSchema(returnSchema))
    .query(({ ctx, input }) => listReturns(ctx.db, ctx.tenant.organizationId, input)),

  get: reader
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/returns/{returnId}',
        tags: TAGS,
        summary: 'A return by id',
        description: `${READ_ACCESS} An unknown id, or one of another organization, is \`404\`.`,
      },
    })
    .input(returnIdInputSchema)
    .output(returnSchema)
    .query(({ ctx, input }) => getReturn(ctx.db, ctx.tenant.organizationId, input.returnId)),

  approve: operator
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/returns/{returnId}/approve',
        tags: TAGS,
        summary: 'Approve a requested return',
        description: MOVE('No body. `REQUESTED` → `APPROVED`.', 'RETURN_APPROVED'),
      },
      errors: ['INVALID_STATE_TRANSITION'],
    })
    .input(returnIdInputSchema)
    .output(returnSchema)
    .mutation(({ ctx, input }) => approveReturn(ctx.db, writeContext(ctx), input)),

  reject: operator
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/returns/{returnId}/reject',
        tags: TAGS,
        summary: 'Reject a return',
        description: MOVE(
          'Body `{ reason }` (1 to 500 characters, shown to the customer). `REQUESTED` or `APPROVED` → `REJECTED`; the quantities return to the order’s returnable quantities.',
          'RETURN_REJECTED',
        ),
      },
      errors: ['INVALID_STATE_TRANSITION'],
    })
    .input(rejectReturnInputSchema)
    .output(returnSchema)
    .mutation(({ ctx, input }) => rejectReturn(ctx.db, writeContext(ctx), input)),

  receive: operator
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/returns/{returnId}/receive',
        tags: TAGS,
        summary: 'Mark the returned goods received',
        description: MOVE('No body. `APPROVED` → `RECEIVED`.', 'RETURN_RECEIVED'),
      },
      errors: ['INVALID_STATE_TRANSITION'],
    })
    .input(returnIdInputSchema)
    .output(returnSchema)
    .mutation(({ ctx, input }) => receiveReturn(ctx.db, writeContext(ctx), input)),

  complete: operator
    .meta({
      openapi: {
        method: 'POST',
        path: '/merchant/returns/{returnId}/complete',
        tags: TAGS,
        summary: 'Complete a received return',
        description: MOVE(
          'No body. `RECEIVED` → `COMPLETED`: the return is settled; the email states `refundTotalInCents` as refunded. No payment provider is called: the refund itself is made by the merchant in the processor until refunds are automated.',
          'RETURN_COMPLETED',
        ),
      },
      errors: ['INVALID_STATE_TRANSITION'],
    })
    .input(returnIdInputSchema)
    .output(returnSchema)
    .mutation(({ ctx, input }) => completeReturn(ctx.db, writeContext(ctx), input)),
});
