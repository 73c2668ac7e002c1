import {
  sandboxCarrierSchema,
  sandboxCarrierUpdateInputSchema,
  updateSandboxCarrier,
} from '@commerce/orders';
import { SANDBOX_ONLY, TAGS } from './docs.ts';
import { sandboxConsole, sandboxContext } from './sandbox-console.ts';

export const updateSandboxProcedure = sandboxConsole
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/shipping/sandbox-carrier',
      tags: TAGS,
      summary: "Set the sandbox carrier's behaviours",
      description: `${SANDBOX_ONLY} Body \`{ behaviours }\`, partial: any of \`rate\` (\`OK\`, \`UNAVAILABLE\`), \`balance\` (\`OK\`, \`UNAVAILABLE\`), \`purchase\` (\`OK\`, \`DECLINED\`, \`UNAVAILABLE\`, \`TIMEOUT_COMMITTED\`, \`TIMEOUT_NOT_COMMITTED\`), \`void\` (\`VOIDED\`, \`PENDING\`, \`REJECTED\`, \`TIMEOUT_COMMITTED\`, \`TIMEOUT_PENDING\`), \`read\` (\`OK\`, \`UNAVAILABLE\`). A behaviour holds for every later call of this organization until it is changed again. Audited as \`sandbox_carrier.updated\` with the changed \`fields\`; a change that changes nothing records nothing. Answers the account as \`GET\` does.`,
    },
  })
  .input(sandboxCarrierUpdateInputSchema)
  .output(sandboxCarrierSchema)
  .mutation(async ({ ctx, input }) => updateSandboxCarrier(ctx.db, await sandboxContext(ctx), input));
