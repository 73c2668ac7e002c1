import { router } from '../../trpc.ts';

export const merchantEmailTemplatesRouter = router({});
