import { getSettings, settingsSchema, updateSettings, updateSettingsInputSchema } from '@commerce/admin';
import { z } from 'zod';
import { merchantProcedure, merchantProcedureWith, router } from '../../trpc.ts';

export const merchantSettingsRouter = router({
  get: merchantProcedure
    .meta({
      openapi: {
        method: 'GET',
        path: '/merchant/settings',
        tags: ['Merchant: settings'],
        summary: "The organization's settings",
        description:
          'Open to any member. Answers the four categories `businessProfile`, `checkoutSettings`, `apiSettings` and `notifications`. Each holds the keys that were set, plus the default of every unset key that has one (`checkoutSettings.currency` `USD`, `apiSettings.publicOrderReadsEnabled` `false`, …); an unset key without a default is absent, never `null`. The first read creates the settings, so this route never answers 404 for them.',
      },
      errors: [],
    })
    .input(z.object({}))
    .output(settingsSchema)
    .query(({ ctx }) => getSettings(ctx.db, ctx.tenant.organizationId, ctx.clock.now())),

  update: merchantProcedureWith('settings:manage')
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
          actor: { userId: ctx.merchantUser.id, email: ctx.merchantUser.email },
          at: ctx.clock.now(),
        },
        input,
      ),
    ),
});
