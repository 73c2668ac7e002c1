import { router } from '../../../trpc.ts';
import { confirmProcedure } from './confirm.ts';

export const publicSandboxPaymentsRouter = router({
  confirm: confirmProcedure,
});
