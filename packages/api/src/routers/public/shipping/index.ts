import { router } from '../../../trpc.ts';
import { listZonesProcedure } from './list-zones.ts';

export const publicShippingRouter = router({
  listZones: listZonesProcedure,
});
