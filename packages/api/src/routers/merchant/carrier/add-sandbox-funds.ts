import { addSandboxFunds, sandboxCarrierSchema, sandboxFundsInputSchema } from '@commerce/orders';
import { SANDBOX_ONLY, TAGS } from './docs.ts';
import { sandboxConsole, sandboxContext } from './sandbox-console.ts';

export const addSandboxFundsProcedure = sandboxConsole
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/shipping/sandbox-carrier/funds',
      tags: TAGS,
      summary: 'Add funds to the sandbox carrier balance',
      description: `${SANDBOX_ONLY} Body \`{ amountInCents }\`, 1 to 10000000: the only way funds are ever added (the carrier has no top-up method, and \`autoTopUp\` is always false). A balance that would pass 2000000000 is \`400\`. Audited as \`postage.sandbox_funds_added\`. Answers the account as \`GET\` does.`,
    },
  })
  .input(sandboxFundsInputSchema)
  .output(sandboxCarrierSchema)
  .mutation(async ({ ctx, input }) => addSandboxFunds(ctx.db, await sandboxContext(ctx), input));
