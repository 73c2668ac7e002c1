import { router } from '../../../trpc.ts';
import { createProcedure } from './create.ts';

export const publicSignupRouter = router({
  create: createProcedure,
});
