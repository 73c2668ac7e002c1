import { router } from '../../../trpc.ts';
import { archiveRateProcedure } from './archive-rate.ts';
import { archiveZoneProcedure } from './archive-zone.ts';
import { createRateProcedure } from './create-rate.ts';
import { createZoneProcedure } from './create-zone.ts';
import { getRateProcedure } from './get-rate.ts';
import { getZoneProcedure } from './get-zone.ts';
import { listZonesProcedure } from './list-zones.ts';
import { restoreRateProcedure } from './restore-rate.ts';
import { restoreZoneProcedure } from './restore-zone.ts';
import { updateRateProcedure } from './update-rate.ts';
import { updateZoneProcedure } from './update-zone.ts';

export const merchantShippingRouter = router({
  listZones: listZonesProcedure,
  getZone: getZoneProcedure,
  createZone: createZoneProcedure,
  updateZone: updateZoneProcedure,
  archiveZone: archiveZoneProcedure,
  restoreZone: restoreZoneProcedure,
  createRate: createRateProcedure,
  getRate: getRateProcedure,
  updateRate: updateRateProcedure,
  archiveRate: archiveRateProcedure,
  restoreRate: restoreRateProcedure,
});
