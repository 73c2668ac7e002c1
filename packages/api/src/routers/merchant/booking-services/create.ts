import { createService, createServiceInputSchema, serviceSchema } from '@commerce/bookings';
import { storeCurrency } from '../../../store-currency.ts';
import { merchantProcedureWith } from '../../../trpc.ts';
import { writeContext } from '../../../write-context.ts';
import { SERVICE_BODY, TAGS } from './docs.ts';

export const createProcedure = merchantProcedureWith('catalog:write')
  .meta({
    openapi: {
      method: 'POST',
      path: '/merchant/booking-services',
      tags: TAGS,
      summary: 'Create a booking service',
      description: `${SERVICE_BODY}\n\nAnswers \`201\` with the service; \`pricing\` reads as a preview (\`authoritative: false\`) in the store currency. Audited as \`booking_service.created\`.`,
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
