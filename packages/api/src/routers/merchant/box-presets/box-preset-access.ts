import { merchantProcedureWith } from '../../../trpc.ts';

/** Box preset writes need `fulfillment:operate` (CONTRACT-fulfillment.md 13.1); reads are open to any member. */
export const operator = merchantProcedureWith('fulfillment:operate');
