import { sandboxCarrierSchema, sandboxSettleVoidInputSchema, settleSandboxVoid } from '@commerce/fulfillment';
import { SANDBOX_ONLY, TAGS } from './docs.ts';
import { sandboxConsole, sandboxContext } from './sandbox-console.ts';

export const settleSandboxVoidProcedure = sandboxConsole
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/shipping/sandbox-carrier/labels/{trackingNumber}/settle-void',
      tags: TAGS,
      summary: 'End a pending sandbox refund',
      description: `${SANDBOX_ONLY} Ends a refund in progress on a label awaiting its void: \`VOIDED\` credits its charge back, \`REJECTED\` leaves the label standing. Answers the account as \`GET\` does.`,
    },
    errors: ['INVALID_STATE_TRANSITION'],
  })
  .input(sandboxSettleVoidInputSchema)
  .output(sandboxCarrierSchema)
  .mutation(async ({ ctx, input }) => settleSandboxVoid(ctx.db, await sandboxContext(ctx), input));
