import { addSandboxFunds, sandboxCarrierSchema, sandboxFundsInputSchema } from '@commerce/fulfillment';
import { SANDBOX_ONLY, TAGS } from './docs.ts';
import { sandboxConsole, sandboxContext } from './sandbox-console.ts';

export const addSandboxFundsProcedure = sandboxConsole
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/shipping/sandbox-carrier/funds',
      tags: TAGS,
      summary: 'Add funds to the sandbox carrier balance',
      description: `${SANDBOX_ONLY} The only way funds are ever added: the carrier has no top-up. Answers the account as \`GET\` does.`,
    },
  })
  .input(sandboxFundsInputSchema)
  .output(sandboxCarrierSchema)
  .mutation(async ({ ctx, input }) => addSandboxFunds(ctx.db, await sandboxContext(ctx), input));
