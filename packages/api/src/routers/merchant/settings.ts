import { router } from '../../trpc.ts';

export const merchantSettingsRouter = router({});
