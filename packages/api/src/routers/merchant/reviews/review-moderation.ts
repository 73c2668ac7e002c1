import { z } from 'zod';
import { merchantProcedureWith } from '../../../trpc.ts';

export const moderator = merchantProcedureWith('catalog:write');

export const idInput = z.object({ id: z.string().min(1).max(64) });
