import { router } from '../../../trpc.ts';
import { requestLinkProcedure } from './request-link.ts';
import { requestOtpProcedure } from './request-otp.ts';
import { verifyProcedure } from './verify.ts';

export const publicCustomerAuthRouter = router({
  requestLink: requestLinkProcedure,
  requestOtp: requestOtpProcedure,
  verify: verifyProcedure,
});
