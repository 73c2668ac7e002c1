import { attachExternalPostage, attachExternalPostageInputSchema, fulfillmentSchema } from '@commerce/orders';
import { emailingWriteContext } from '../../../write-context.ts';
import { ADDRESSING, BASE, FULFILLABLE, OPERATOR, TAGS } from './docs.ts';
import { operator } from './fulfillment-access.ts';

export const attachExternalPostageProcedure = operator
  .meta({
    openapi: {
      method: 'POST',
      path: `${BASE}/fulfillments/{fulfillmentId}/external-postage`,
      tags: TAGS,
      summary: 'Record a label bought elsewhere',
      description: [
        `${OPERATOR} ${ADDRESSING} \`x-idempotency-key\` is ignored: the state guards the route.`,
        'Body: `carrier` (1 to 50), `service?` (1 to 50), `trackingNumber` (1 to 100 letters, digits, spaces, hyphens), `trackingUrl?` (https, at most 2000). Unknown keys are `400`.',
        `\`PLANNED\` → \`READY\` with postage \`{ source: EXTERNAL, status: ACTIVE }\` (no label artifact is stored). Any other state, a \`READY\` one with current postage included, is \`409 INVALID_STATE_TRANSITION\` (\`details { from, to }\`); \`409 PAID_POSTAGE_ACTIVE\` is answered instead when that postage is paid native postage (\`NATIVE\` or \`LEGACY\`, \`ACTIVE\` or \`VOID_PENDING\`): void or acknowledge it first; a fulfillment an unsettled label purchase holds is \`409 LABEL_PURCHASE_UNSETTLED\` (\`details.purchaseId\`). ${FULFILLABLE} Counters do not change. Audited as \`fulfillment.external_postage_attached\`. Answers \`200\` with the fulfillment.`,
      ].join('\n\n'),
    },
    errors: [
      'INVALID_STATE_TRANSITION',
      'LABEL_PURCHASE_UNSETTLED',
      'ORDER_NOT_FULFILLABLE',
      'PAID_POSTAGE_ACTIVE',
    ],
  })
  .input(attachExternalPostageInputSchema)
  .output(fulfillmentSchema)
  .mutation(({ ctx, input }) => attachExternalPostage(ctx.db, emailingWriteContext(ctx), input));
