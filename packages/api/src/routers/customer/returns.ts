import { getSettings } from '@commerce/admin';
import { IDEMPOTENT_REPLAYED_HEADER, readIdempotencyKey } from '@commerce/db';
import {
  byNumberInputSchema,
  byReferenceInputSchema,
  type CustomerReturnScope,
  cancelReturn,
  cancelReturnInputSchema,
  createReturnByReferenceInputSchema,
  issuedReturnActionSchema,
  issueReturnAction,
  issueReturnActionInputSchema,
  listOrderReturns,
  orderReturnsByNumberQuerySchema,
  orderReturnsByReferenceQuerySchema,
  orderReturnsSchema,
  requestReturn,
  returnSchema,
} from '@commerce/orders';
import type { ApiContext, CustomerIdentity } from '../../context.ts';
import { customerEmailConfig } from '../../hosted-origin.ts';
import { customerProcedure, router } from '../../trpc.ts';

const TAGS = ['Customer: returns'];

/** The signed-in customer, the store's return window and where return emails link. */
async function returnScope(ctx: ApiContext & { customer: CustomerIdentity }): Promise<CustomerReturnScope> {
  const at = ctx.clock.now();
  const settings = await getSettings(ctx.db, ctx.customer.organizationId, at);
  return {
    customer: {
      organizationId: ctx.customer.organizationId,
      customerId: ctx.customer.id,
      email: ctx.customer.email,
    },
    returnWindowDays: settings.checkoutSettings.returnWindowDays,
    email: customerEmailConfig(ctx),
    at,
  };
}

const OWN_ORDER =
  'The order must be one of yours: an order of the store whose `customerEmail` is your verified email. An unknown, malformed, another store’s or another customer’s order is the same neutral `404 RESOURCE_NOT_FOUND`.';
const ELIGIBILITY =
  'A return can be requested for the shipped units of the `PRODUCT` lines of an order (units in `SHIPPED` or `DELIVERED` fulfillments, whatever the order status) while its return window is open: `checkoutSettings.returnWindowDays` days (default 30; 0 turns returns off) from the last delivery of the order, else its last shipment. Each line can be returned up to its shipped quantity less what live returns (`REQUESTED`, `APPROVED`, `RECEIVED`, `COMPLETED`) already claim; rejected and cancelled returns give their quantity back. Returns never change fulfillments.';
const LIST = [
  'Your returns of the order, newest first, `{ data, nextCursor, eligibility }`: pass `nextCursor` as `cursor` (`limit` 1 to 200, default 50). `eligibility` says whether a return can be requested now, why not (`NOT_SHIPPED`, `RETURNS_DISABLED`, `WINDOW_CLOSED`, `NOTHING_TO_RETURN`), when the window closes, and per `PRODUCT` line the purchased, shipped and returnable quantities.',
  ELIGIBILITY,
  OWN_ORDER,
].join('\n\n');
const ISSUE = [
  'Issues a return action token: `a1_` + 43 characters, bound to one `purpose`, to you, to this order and to the lines eligible now (with the quantity then left to return). Body `{ purpose }`; the only purpose is `RETURN_REQUEST`: whoever holds the token may request one return of those lines through `POST /customer/actions/{token}` without signing in (hand it to a drop-off point or your own server).',
  'The raw token is in this `201` answer only: it is never emailed and is stored only as a SHA-256 hash. It expires 24 hours after issue or when the return window closes, whichever comes first. Issuing a new token for the same order and purpose revokes your earlier unused ones. An order that cannot be returned now is `409 RETURN_NOT_ELIGIBLE` (`details { reason, windowEndsAt }`).',
  OWN_ORDER,
].join('\n\n');

export const customerReturnsRouter = router({
  list: customerProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/customer/account/orders/by-reference/{orderReference}/returns',
        tags: TAGS,
        summary: "An order's return activity",
        description: LIST,
      },
    })
    .input(orderReturnsByReferenceQuerySchema)
    .output(orderReturnsSchema)
    .query(async ({ ctx, input }) => {
      const { orderReference, ...page } = input;
      return listOrderReturns(ctx.db, await returnScope(ctx), { orderReference }, page);
    }),

  create: customerProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/customer/account/orders/by-reference/{orderReference}/returns',
        tags: TAGS,
        summary: 'Request a return',
        description: [
          'Body `{ lines: [{ lineId, quantity, reason, note? }] }`: 1 to 100 lines, each a `PRODUCT` line of the order (`items[].id`) at most once; `quantity` 1 to what is left to return; `reason` one of `DAMAGED`, `DEFECTIVE`, `WRONG_ITEM`, `NOT_AS_DESCRIBED`, `SIZE_OR_FIT`, `NO_LONGER_NEEDED`, `OTHER`; `note` at most 500 characters. No customer email: the session is the identity. Unknown keys are `400`.',
          ELIGIBILITY,
          'Answers `201` with the return in `REQUESTED` (`refundTotalInCents` = Σ quantity × unit price). A line that is not a `PRODUCT` line of the order, or appears twice, is `400` (`lines.N.lineId`); an order that cannot be returned now is `409 RETURN_NOT_ELIGIBLE` (`details { reason, windowEndsAt }`); a quantity above what is left is `409 OVER_RETURN` (`details.lines[{ lineId, requested, returnable }]`). Requests for one order are serialised by the order’s lock, so concurrent requests never return more than was bought. The `RETURN_REQUESTED` email is queued in the same transaction; audited as `return.requested`.',
          'Optional header `x-idempotency-key` (alias `Idempotency-Key`; 16 to 255 of `A-Z a-z 0-9 _ . : -`, else `400`; kept 24 hours): the same key for the same order and body answers the recorded return again with `idempotent-replayed: true` and requests nothing more; the same key for another request is `409 IDEMPOTENCY_KEY_REUSED`. A refused request records nothing.',
          OWN_ORDER,
        ].join('\n\n'),
      },
      successStatus: 201,
      errors: ['RETURN_NOT_ELIGIBLE', 'OVER_RETURN', 'IDEMPOTENCY_KEY_REUSED'],
    })
    .input(createReturnByReferenceInputSchema)
    .output(returnSchema)
    .mutation(async ({ ctx, input }) => {
      const { orderReference, ...body } = input;
      const idempotencyKey = readIdempotencyKey(ctx.request.headers);
      const { created, replayed } = await requestReturn(
        ctx.db,
        await returnScope(ctx),
        { orderReference },
        body,
        idempotencyKey,
      );
      if (replayed) ctx.resHeaders.set(IDEMPOTENT_REPLAYED_HEADER, 'true');
      return created;
    }),

  cancel: customerProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/customer/account/orders/by-reference/{orderReference}/returns/{returnId}/cancel',
        tags: TAGS,
        summary: 'Cancel a pending return',
        description: [
          'No body. A `REQUESTED` return becomes `CANCELLED` and gives its quantities back; once the merchant approved or rejected it, it cannot be cancelled (`409 INVALID_STATE_TRANSITION`, `details { from, to }`). No email; audited as `return.cancelled`. Answers the return.',
          `A return that is not of this order is \`404\`. ${OWN_ORDER}`,
        ].join('\n\n'),
      },
      errors: ['INVALID_STATE_TRANSITION'],
    })
    .input(cancelReturnInputSchema)
    .output(returnSchema)
    .mutation(async ({ ctx, input }) => cancelReturn(ctx.db, await returnScope(ctx), input)),

  issueAction: customerProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/customer/account/orders/by-reference/{orderReference}/return-actions',
        tags: TAGS,
        summary: 'Issue a return action token',
        description: ISSUE,
      },
      successStatus: 201,
      errors: ['RETURN_NOT_ELIGIBLE'],
    })
    .input(issueReturnActionInputSchema.extend(byReferenceInputSchema.shape))
    .output(issuedReturnActionSchema)
    .mutation(async ({ ctx, input }) => {
      const { orderReference, ...body } = input;
      return issueReturnAction(ctx.db, await returnScope(ctx), { orderReference }, body);
    }),

  listByNumber: customerProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/customer/account/orders/{orderNumber}/returns',
        tags: TAGS,
        summary: "An order's return activity, by order number (compatibility)",
        description: `Compatibility route: the same as \`GET /customer/account/orders/by-reference/{orderReference}/returns\` with the order's display number; new links should use the reference. A number that is not plain digits is the neutral \`404\` too.\n\n${LIST}`,
      },
    })
    .input(orderReturnsByNumberQuerySchema)
    .output(orderReturnsSchema)
    .query(async ({ ctx, input }) => {
      const { orderNumber, ...page } = input;
      return listOrderReturns(ctx.db, await returnScope(ctx), { orderNumber }, page);
    }),

  issueActionByNumber: customerProcedure
    .meta({
      openapi: {
        method: 'POST',
        path: '/customer/account/orders/{orderNumber}/return-actions',
        tags: TAGS,
        summary: 'Issue a return action token, by order number (compatibility)',
        description: `Compatibility route: the same as \`POST /customer/account/orders/by-reference/{orderReference}/return-actions\` with the order's display number. A number that is not plain digits is the neutral \`404\` too.\n\n${ISSUE}`,
      },
      successStatus: 201,
      errors: ['RETURN_NOT_ELIGIBLE'],
    })
    .input(issueReturnActionInputSchema.extend(byNumberInputSchema.shape))
    .output(issuedReturnActionSchema)
    .mutation(async ({ ctx, input }) => {
      const { orderNumber, ...body } = input;
      return issueReturnAction(ctx.db, await returnScope(ctx), { orderNumber }, body);
    }),
});
