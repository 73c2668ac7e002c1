import {
  acknowledgeRetiredPostage,
  fulfillmentSchema,
  retiredPostageAcknowledgementInputSchema,
} from '@commerce/fulfillment';
import { cancellationContext, ownerOrAdmin } from './cancellation-access.ts';
import { ADDRESSING, BASE, OWNER_OR_ADMIN, TAGS } from './docs.ts';

export const acknowledgeRetiredPostageProcedure = ownerOrAdmin
  .meta({
    openapi: {
      method: 'POST',
      path: `${BASE}/retired-postage-acknowledgement`,
      tags: TAGS,
      summary: 'Retire external or legacy postage by acknowledgement',
      description: `Retires a \`READY\` fulfillment's current external or legacy postage on the merchant's word; no provider is called. The fulfillment stays \`READY\` and cannot be handed off until it gets new postage or is cancelled. ${OWNER_OR_ADMIN} ${ADDRESSING}`,
    },
    errors: ['INVALID_STATE_TRANSITION', 'POSTAGE_NOT_RETIRABLE'],
  })
  .input(retiredPostageAcknowledgementInputSchema)
  .output(fulfillmentSchema)
  .mutation(({ ctx, input }) => acknowledgeRetiredPostage(ctx.db, cancellationContext(ctx), input));
