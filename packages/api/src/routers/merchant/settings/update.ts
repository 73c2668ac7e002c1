import { settingsSchema, updateSettings, updateSettingsInputSchema } from '@commerce/admin';
import { merchantProcedureWith } from '../../../trpc.ts';
import { merchantActor } from '../../../write-context.ts';

export const updateProcedure = merchantProcedureWith('settings:manage')
  .meta({
    openapi: {
      method: 'PATCH',
      path: '/merchant/settings',
      tags: ['Merchant: settings'],
      summary: 'Change some settings',
      description:
        'Send any subset of the four categories. Each category sent is shallow-merged into the stored one: a key with a value replaces it (objects such as `address` and arrays such as `allowedOrigins` are replaced whole), a key set to `null` is cleared (it then reads as its default, or is absent), and keys and categories not sent stay as they are. An unknown category or key is `400 VALIDATION_FAILED`. An empty body, or empty categories, change nothing. A change is audited as `settings.updated` with metadata `{ categories }`, the names of the categories whose stored values changed (never the values); a patch that changes nothing writes no audit record. Answers the full settings read after the change.',
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
