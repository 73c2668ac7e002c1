import { merchantProcedureWith } from '../../../trpc.ts';

export const operator = merchantProcedureWith('orders:operate');
