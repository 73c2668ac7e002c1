import type { WebhookSettings } from '@commerce/notifications/webhooks';
import type { ApiContext } from '../../../context.ts';
import { merchantProcedureWith } from '../../../trpc.ts';

/** Every webhook route, reads included (deliveries carry store data), needs `webhooks:manage`. */
export const manager = merchantProcedureWith('webhooks:manage');

/** The server's signing key and URL policy (WEBHOOK_SIGNING_KEY, WEBHOOK_ALLOW_PRIVATE_HOSTS, production). */
export function webhookSettings(ctx: Pick<ApiContext, 'config'>): WebhookSettings {
  const { signingKey, allowPrivateHosts, requireHttps } = ctx.config.webhooks;
  return { signingKey, policy: { allowPrivateHosts, requireHttps } };
}
