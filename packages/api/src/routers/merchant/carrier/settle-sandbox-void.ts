import { sandboxCarrierSchema, sandboxSettleVoidInputSchema, settleSandboxVoid } from '@commerce/orders';
import { SANDBOX_ONLY, TAGS } from './docs.ts';
import { sandboxConsole, sandboxContext } from './sandbox-console.ts';

export const settleSandboxVoidProcedure = sandboxConsole
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/shipping/sandbox-carrier/labels/{trackingNumber}/settle-void',
      tags: TAGS,
      summary: 'End a pending sandbox refund',
      description: `${SANDBOX_ONLY} Body \`{ outcome: VOIDED or REJECTED }\`: the carrier ends a refund in progress on a label in \`VOID_PENDING\` (a void answered \`PENDING\`): \`VOIDED\` credits its charge back, \`REJECTED\` leaves the label standing (\`VOID_REJECTED\`). A label in any other status is \`409 INVALID_STATE_TRANSITION\` (\`details.status\`); an unknown tracking number \`404\`. Audited as \`sandbox_carrier.updated\`. Answers the account as \`GET\` does.`,
    },
    errors: ['INVALID_STATE_TRANSITION'],
  })
  .input(sandboxSettleVoidInputSchema)
  .output(sandboxCarrierSchema)
  .mutation(async ({ ctx, input }) => settleSandboxVoid(ctx.db, await sandboxContext(ctx), input));
