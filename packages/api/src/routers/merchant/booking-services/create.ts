import { createService, createServiceInputSchema, serviceSchema } from '@commerce/bookings';
import { storeCurrency } from '../../../store-currency.ts';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { ACTIVATION, TAGS } from './docs.ts';

export const createProcedure = merchantProcedureWith('catalog:write')
  .meta({
    purges: 'booking-service',
    openapi: {
      method: 'POST',
      path: '/merchant/booking-services',
      tags: TAGS,
      summary: 'Create a booking service',
      description: `${ACTIVATION} \`pricing\` reads as a preview in the store currency.`,
    },
    successStatus: 201,
    errors: ['SLUG_TAKEN'],
  })
  .input(createServiceInputSchema)
  .output(serviceSchema)
  .mutation(async ({ ctx, input }) =>
    createService(ctx.db, writeContext(ctx), input, {
      currency: await storeCurrency(ctx, ctx.tenant.organizationId),
    }),
  );
