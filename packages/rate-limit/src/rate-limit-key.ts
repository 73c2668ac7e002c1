import { createHash } from 'node:crypto';

/** Keys recently built, by their parts' JSON: a busy client's key is hashed once, not per request. */
const recent = new Map<string, string>();
const RECENT_MAX = 10_000;

/**
 * One key from its parts, e.g. `rateLimitKey([organizationId, clientIp])`.
 * JSON keeps ['a:b', 'c'] apart from ['a', 'b:c']; the hash keeps every key 43
 * characters long (the postgres store holds at most 255 with the rule name) and
 * keeps emails and addresses out of the shared store.
 */
export function rateLimitKey(parts: string[]): string {
  const text = JSON.stringify(parts);
  let key = recent.get(text);
  if (key === undefined) {
    key = createHash('sha256').update(text).digest('base64url');
    // Bounded: past the limit the memory starts over rather than grow with the number of clients.
    if (recent.size >= RECENT_MAX) recent.clear();
    recent.set(text, key);
  }
  return key;
}
