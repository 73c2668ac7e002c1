import { router } from '../../../trpc.ts';
import { createProcedure } from './create.ts';
import { deliveriesProcedure } from './deliveries.ts';
import { getProcedure } from './get.ts';
import { listProcedure } from './list.ts';
import { redeliverProcedure } from './redeliver.ts';
import { removeProcedure } from './remove.ts';
import { rotateSecretProcedure } from './rotate-secret.ts';
import { testProcedure } from './test.ts';
import { updateProcedure } from './update.ts';

export const merchantWebhookEndpointsRouter = router({
  list: listProcedure,
  create: createProcedure,
  get: getProcedure,
  update: updateProcedure,
  remove: removeProcedure,
  rotateSecret: rotateSecretProcedure,
  deliveries: deliveriesProcedure,
  redeliver: redeliverProcedure,
  test: testProcedure,
});
