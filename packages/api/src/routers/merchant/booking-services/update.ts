import { serviceSchema, updateService, updateServiceInputSchema } from '@commerce/bookings';
import { storeCurrency } from '../../../store-currency.ts';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { ACTIVATION, TAGS } from './docs.ts';

export const updateProcedure = merchantProcedureWith('catalog:write')
  .meta({
    purges: 'booking-service',
    openapi: {
      method: 'PATCH',
      path: '/merchant/booking-services/{id}',
      tags: TAGS,
      summary: 'Change a booking service',
      description: [
        "Each top-level key sent replaces that key whole (send all of `availability` to change one setting). A requirement sent with the `id` of one of the service's keeps it; without an `id` it is new; those left out are removed.",
        `The merged service is checked again. An archived service's status changes only through restore (\`409\`). The agreement's \`version\` grows when its title or text changes. ${ACTIVATION}`,
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
