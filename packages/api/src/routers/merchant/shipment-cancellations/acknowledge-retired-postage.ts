import {
  acknowledgeRetiredPostage,
  fulfillmentSchema,
  retiredPostageAcknowledgementInputSchema,
} from '@commerce/orders';
import { cancellationContext, ownerOrAdmin } from './cancellation-access.ts';
import { ADDRESSING, BASE, OWNER_OR_ADMIN, TAGS } from './docs.ts';

export const acknowledgeRetiredPostageProcedure = ownerOrAdmin
  .meta({
    openapi: {
      method: 'POST',
      path: `${BASE}/retired-postage-acknowledgement`,
      tags: TAGS,
      summary: 'Retire external or legacy postage by acknowledgement',
      description: `${OWNER_OR_ADMIN} ${ADDRESSING} Body \`{ reason (1 to 500), acknowledge: true }\`. The \`READY\` fulfillment's current \`EXTERNAL\` or \`LEGACY\` postage in \`ACTIVE\` becomes \`RETIRED\` with \`retirementEvidence { source: MERCHANT_ACKNOWLEDGEMENT, actorUserId, reason, at }\`; no provider is called and the fulfillment stays \`READY\` (handoff is then \`409 HANDOFF_BLOCKED\` \`POSTAGE_RETIRED\` until it gets new postage or is cancelled). Native postage, or none current, is \`409 POSTAGE_NOT_RETIRABLE\`; a fulfillment not \`READY\` \`409 INVALID_STATE_TRANSITION\`. Audited as \`shipping_label.retirement_acknowledged\`. Answers \`200\` with the fulfillment.`,
    },
    errors: ['INVALID_STATE_TRANSITION', 'POSTAGE_NOT_RETIRABLE'],
  })
  .input(retiredPostageAcknowledgementInputSchema)
  .output(fulfillmentSchema)
  .mutation(({ ctx, input }) => acknowledgeRetiredPostage(ctx.db, cancellationContext(ctx), input));
