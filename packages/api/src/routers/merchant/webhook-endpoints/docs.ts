/** OpenAPI text the webhook endpoint procedures share. */

export const TAGS = ['Merchant: webhooks'];

export const BASE = '/merchant/webhook-endpoints';

export const ACCESS = 'Needs `webhooks:manage` (Owner and Admin hold it).';

export const URL_RULES =
  'The URL is `https://` in production, at most 2048 characters, without credentials or a fragment; a host that is or resolves to a loopback, private, link-local, multicast, unspecified or metadata address is refused (`400 VALIDATION_FAILED`, path `url`) unless the server allows private hosts.';
