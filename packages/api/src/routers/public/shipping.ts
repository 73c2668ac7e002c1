import { router } from '../../trpc.ts';

export const publicShippingRouter = router({});
