import { createHmac, randomBytes } from 'node:crypto';

/**
 * Endpoint signing secrets (docs/webhooks.md "Secrets"). No secret is stored: an endpoint keeps a
 * random salt, and its secret is HMAC-SHA256(WEBHOOK_SIGNING_KEY, salt) in the Standard Webhooks
 * form `whsec_<base64 of 32 bytes>`. A database dump without the server key reveals none, and the
 * answer of a create replayed under its idempotency key can show the same secret again.
 */
export function newSecretSalt(): string {
  return randomBytes(24).toString('base64url');
}

export function deriveEndpointSecret(signingKey: string, salt: string): string {
  const key = createHmac('sha256', signingKey).update(`webhook-endpoint-secret\u0000${salt}`).digest();
  return `whsec_${key.toString('base64')}`;
}

/** How long a rotated-out secret keeps signing beside the new one. */
export const PREVIOUS_SECRET_OVERLAP_MS = 24 * 60 * 60 * 1000;

/** The secrets a delivery at `now` is signed with: the current one, and the previous while it overlaps. */
export function signingSecretsOf(
  signingKey: string,
  endpoint: {
    secret_salt: string;
    previous_secret_salt: string | null;
    previous_secret_expires_at: Date | null;
  },
  now: Date,
): string[] {
  const secrets = [deriveEndpointSecret(signingKey, endpoint.secret_salt)];
  if (
    endpoint.previous_secret_salt !== null &&
    endpoint.previous_secret_expires_at !== null &&
    endpoint.previous_secret_expires_at.getTime() > now.getTime()
  ) {
    secrets.push(deriveEndpointSecret(signingKey, endpoint.previous_secret_salt));
  }
  return secrets;
}
