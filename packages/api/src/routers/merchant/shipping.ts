import { router } from '../../trpc.ts';

export const merchantShippingRouter = router({});
