import { createHash } from 'node:crypto';

/**
 * One key from its parts, e.g. `rateLimitKey([organizationId, clientIp])`.
 * JSON keeps ['a:b', 'c'] apart from ['a', 'b:c']; the hash keeps every key 43
 * characters long (the postgres store holds at most 255 with the rule name) and
 * keeps emails and addresses out of the shared store.
 */
export function rateLimitKey(parts: string[]): string {
  return createHash('sha256').update(JSON.stringify(parts)).digest('base64url');
}
