import { readSandboxCarrier, sandboxCarrierSchema } from '@commerce/fulfillment';
import { z } from 'zod';
import { SANDBOX_ONLY, TAGS } from './docs.ts';
import { sandboxConsole, sandboxContext } from './sandbox-console.ts';

export const getSandboxProcedure = sandboxConsole
  .meta({
    openapi: {
      method: 'GET',
      path: '/merchant/shipping/sandbox-carrier',
      tags: TAGS,
      summary: "The sandbox carrier's account of this organization",
      description: `${SANDBOX_ONLY} The prepaid balance (SANDBOX_POSTAGE_BALANCE_IN_CENTS at first use), the behaviours in force and the latest labels.`,
    },
  })
  .input(z.object({}))
  .output(sandboxCarrierSchema)
  .query(async ({ ctx }) => readSandboxCarrier(ctx.db, await sandboxContext(ctx)));
