import { merchantProcedureWith } from '../../../trpc.ts';

export const writer = () => merchantProcedureWith('catalog:write');
