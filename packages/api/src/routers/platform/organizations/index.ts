import { router } from '../../../trpc.ts';
import { createProcedure } from './create.ts';

export const platformOrganizationsRouter = router({
  create: createProcedure,
});
