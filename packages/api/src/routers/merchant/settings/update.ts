import { settingsSchema, updateSettings, updateSettingsInputSchema } from '@commerce/admin';
import { merchantProcedureWith } from '../../../trpc.ts';
import { merchantActor } from '../../../write-context.ts';

export const updateProcedure = merchantProcedureWith('settings:manage')
  .meta({
    purges: 'tenant',
    openapi: {
      method: 'PATCH',
      path: '/merchant/settings',
      tags: ['Merchant: settings'],
      summary: 'Change some settings',
      description:
        'Each category sent is shallow-merged into the stored one: a key with a value replaces it (objects and arrays whole), `null` clears it, keys not sent stay. The audit log records the changed categories, never the values. Answers the full settings.',
    },
    errors: ['VALIDATION_FAILED'],
  })
  .input(updateSettingsInputSchema)
  .output(settingsSchema)
  .mutation(({ ctx, input }) =>
    updateSettings(
      ctx.db,
      {
        organizationId: ctx.tenant.organizationId,
        actor: merchantActor(ctx),
        at: ctx.clock.now(),
      },
      input,
    ),
  );
