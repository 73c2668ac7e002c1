import { router } from '../../../trpc.ts';
import { listMembershipsProcedure } from './list-memberships.ts';
import { sessionProcedure } from './session.ts';
import { updateProfileProcedure } from './update-profile.ts';

export const merchantAuthRouter = router({
  session: sessionProcedure,
  updateProfile: updateProfileProcedure,
  listMemberships: listMembershipsProcedure,
});
