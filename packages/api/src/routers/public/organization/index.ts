import { router } from '../../../trpc.ts';
import { getProcedure } from './get.ts';

export const publicOrganizationRouter = router({
  get: getProcedure,
});
