import { holdCheckoutSchema, holdPathInputSchema, readHoldForCheckout } from '@commerce/bookings';
import { readIdempotencyKey } from '@commerce/db';
import { storeCurrency } from '../../../store-currency.ts';
import { tenantProcedure } from '../../../trpc.ts';
import { TAGS } from './docs.ts';

export const getProcedure = tenantProcedure
  .meta({
    openapi: {
      method: 'GET',
      path: '/public/booking-holds/{id}',
      tags: TAGS,
      summary: 'Read a hold for its checkout page',
      description: [
        'Needs the key the hold was created with in `x-idempotency-key` (the proof of possession, as release): another key, an unknown id or another store’s hold is the neutral `404`. Reads only; nothing is replayed or recorded.',
        'The hold as create answers it (`status`, `expiresAt` and `expiresInSeconds` counted now, so a page can show the time left), with the service name, the duration, the named resources and `payment`: what booking would cost under the service terms in force, due now and later, before tax.',
      ].join('\n\n'),
    },
    rateLimit: 'public-checkout',
    idempotencyKey: 'required',
  })
  .input(holdPathInputSchema)
  .output(holdCheckoutSchema)
  .query(async ({ ctx, input }) => {
    const idempotencyKey = readIdempotencyKey(ctx.request.headers, { required: true });
    return readHoldForCheckout(
      ctx.db,
      { organizationId: ctx.tenant.organizationId, at: ctx.clock.now() },
      input.id,
      idempotencyKey,
      { currency: () => storeCurrency(ctx, ctx.tenant.organizationId) },
    );
  });
