import { serviceSchema, updateService, updateServiceInputSchema } from '@commerce/bookings';
import { storeCurrency } from '../../../store-currency.ts';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { SERVICE_BODY, TAGS } from './docs.ts';

export const updateProcedure = merchantProcedureWith('catalog:write')
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/booking-services/{id}',
      tags: TAGS,
      summary: 'Change a booking service',
      description: [
        'Any subset of the create fields; each top-level key sent replaces that key whole (send all of `availability` to change one of its settings). Requirements sent with the `id` of one of this service’s requirements keep it; without an `id` they are new; those left out are removed. An `id` of no requirement of this service is `400`.',
        SERVICE_BODY,
        'The merged service is checked again, with the activation check while it is or becomes `ACTIVE`. `status` on an archived service is `409 INVALID_STATE_TRANSITION` (restore first). The agreement `version` grows by one when its title or text changes. Only changed keys are written, audited as `booking_service.updated` with `{ fields }`.',
      ].join('\n\n'),
    },
    errors: ['SLUG_TAKEN', 'INVALID_STATE_TRANSITION'],
  })
  .input(updateServiceInputSchema)
  .output(serviceSchema)
  .mutation(async ({ ctx, input }) => {
    const { id, ...changes } = input;
    return updateService(ctx.db, writeContext(ctx), id, changes, {
      currency: await storeCurrency(ctx, ctx.tenant.organizationId),
    });
  });
