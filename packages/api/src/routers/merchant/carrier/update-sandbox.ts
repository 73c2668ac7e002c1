import {
  sandboxCarrierSchema,
  sandboxCarrierUpdateInputSchema,
  updateSandboxCarrier,
} from '@commerce/fulfillment';
import { SANDBOX_ONLY, TAGS } from './docs.ts';
import { sandboxConsole, sandboxContext } from './sandbox-console.ts';

export const updateSandboxProcedure = sandboxConsole
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/shipping/sandbox-carrier',
      tags: TAGS,
      summary: "Set the sandbox carrier's behaviours",
      description: `${SANDBOX_ONLY} A behaviour holds for every later call of this organization until it is changed again. Answers the account as \`GET\` does.`,
    },
  })
  .input(sandboxCarrierUpdateInputSchema)
  .output(sandboxCarrierSchema)
  .mutation(async ({ ctx, input }) => updateSandboxCarrier(ctx.db, await sandboxContext(ctx), input));
