import { router } from '../../../trpc.ts';
import { addSandboxFundsProcedure } from './add-sandbox-funds.ts';
import { getSandboxProcedure } from './get-sandbox.ts';
import { listCarriersProcedure } from './list-carriers.ts';
import { postageBalanceProcedure } from './postage-balance.ts';
import { settleSandboxVoidProcedure } from './settle-sandbox-void.ts';
import { updateSandboxProcedure } from './update-sandbox.ts';

export const merchantCarrierRouter = router({
  listCarriers: listCarriersProcedure,
  postageBalance: postageBalanceProcedure,
  getSandbox: getSandboxProcedure,
  updateSandbox: updateSandboxProcedure,
  addSandboxFunds: addSandboxFundsProcedure,
  settleSandboxVoid: settleSandboxVoidProcedure,
});
