import { merchantProcedureWith } from '../../../trpc.ts';

export const writer = () => merchantProcedureWith('content:write');
