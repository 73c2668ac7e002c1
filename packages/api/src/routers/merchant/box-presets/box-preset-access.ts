import { merchantProcedureWith } from '../../../trpc.ts';

/** Box preset writes need `fulfillment:operate`; reads are open to any member. */
export const operator = merchantProcedureWith('fulfillment:operate');
