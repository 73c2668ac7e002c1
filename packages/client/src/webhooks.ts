/**
 * Signature checks for receivers (a merchant's server) of the Commerce API's outbound webhooks
 * (`POST /merchant/webhook-endpoints`). The check follows the Standard Webhooks scheme
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256>`), by the
 * `standardwebhooks` library, which the API signs deliveries with.
 */
import { Webhook, WebhookVerificationError } from 'standardwebhooks';

export { WebhookVerificationError };

export const WEBHOOK_HEADERS = ['webhook-id', 'webhook-timestamp', 'webhook-signature'] as const;

/** The request headers, as the Fetch API's `Headers`, a plain object or Node's `IncomingHttpHeaders`. */
export type WebhookHeaders = Headers | Record<string, string | string[] | undefined>;

/**
 * The JSON body of a webhook request, once its signature is verified with a `whsec_…` secret
 * (during a rotation's 24 hours a delivery carries both secrets' signatures, so either verifies);
 * the body is `{ id, type, createdAt, organizationSlug, data }`, `unknown` here unless the caller
 * names a type (the OpenAPI document's `WebhookEvent`). `body` must be
 * the raw body exactly as received, not JSON parsed and serialized again. Throws
 * `WebhookVerificationError` when a header is missing, the signature does not match, or the
 * timestamp is more than five minutes from the receiver's clock (a replay).
 */
export function verifyWebhook<T = unknown>(
  secret: string,
  body: string | Uint8Array,
  headers: WebhookHeaders,
): T {
  const picked: Record<string, string> = {};
  for (const name of WEBHOOK_HEADERS) {
    const value =
      headers instanceof Headers ? headers.get(name) : (headers[name] ?? headers[name.toLowerCase()]);
    const single = Array.isArray(value) ? value[0] : value;
    if (typeof single === 'string') picked[name] = single;
  }
  const payload = typeof body === 'string' ? body : new TextDecoder().decode(body);
  return new Webhook(secret).verify(payload, picked) as T;
}
