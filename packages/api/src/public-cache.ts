/**
 * HTTP caching of the public reads (docs/api.md, "HTTP caching of public reads"): the surrogate
 * keys a cacheable answer carries, the keys a merchant write purges, and the purge hook.
 *
 * Keys are the ids themselves, which are unique across tenants and name their kind by their prefix
 * (`org_…`, `itm_…`, `col_…`), plus per-tenant group keys (`org_…:items`, `org_…:item-list`):
 *
 * - every cacheable answer of a tenant carries the tenant's id (a settings write purges it);
 * - every answer about one kind carries `<org>:<kinds>` (a write that touches every answer of a
 *   kind, such as a booking resource renamed under several services, purges it);
 * - a detail read carries its object's id, a list read `<org>:<kind>-list` (a write of one object
 *   purges its id and its kind's lists, nothing else).
 */

/** What a cacheable public read is about. */
export type PublicCacheKind = 'item' | 'collection' | 'page' | 'booking-service';

/** The plural group name of a kind, as its per-tenant group key spells it. */
const GROUP: Record<PublicCacheKind, string> = {
  item: 'items',
  collection: 'collections',
  page: 'pages',
  'booking-service': 'booking-services',
};

/**
 * How a public GET route is cached: a detail read (its answer's `id` names the object), a list
 * read, or a collection's items (the collection's id, and the item lists' key: an item write
 * changes them).
 */
export type PublicCacheRule =
  | { kind: PublicCacheKind; read: 'detail' }
  | { kind: PublicCacheKind; read: 'list' }
  | { kind: 'collection'; read: 'collection-items' };

/** The group key of every answer of `kind` of a tenant. */
export const groupKey = (organizationId: string, kind: PublicCacheKind) => `${organizationId}:${GROUP[kind]}`;
/** The key of a tenant's lists of `kind`. */
export const listKey = (organizationId: string, kind: PublicCacheKind) => `${organizationId}:${kind}-list`;

/**
 * The surrogate keys of one cacheable answer. `subjectId` is the object the answer is about (a
 * detail read's, the collection of a collection's items); a list has none.
 */
export function answerKeys(
  rule: PublicCacheRule,
  organizationId: string,
  subjectId: string | undefined,
): string[] {
  const keys = [organizationId, groupKey(organizationId, rule.kind)];
  if (rule.read === 'list') keys.push(listKey(organizationId, rule.kind));
  else if (subjectId !== undefined) keys.push(subjectId);
  // A collection shows how many of its items a shopper sees, and its items read shows them: a
  // write of any item (which purges the item lists) may change both.
  if (rule.kind === 'collection') keys.push(listKey(organizationId, 'item'));
  if (rule.read === 'collection-items') keys.push(groupKey(organizationId, 'item'));
  return keys;
}

/**
 * What a merchant write changes in the public reads (a procedure's `purges` meta):
 * - a kind: one object of it, named by the call (`itemId`, else `id`, else the answer's `id`),
 *   and that kind's lists; without an id (a reorder) every answer of the kind;
 * - a collection also shows in every item's `collectionIds` (its membership, its status, the
 *   collections' order): every item answer too;
 * - `review`: a moderated review changes its item's rating: every item answer;
 * - `booking-resource`: a resource shows under any service that uses it: every booking service;
 * - `tenant`: settings every public read may show (the store currency): everything of the tenant.
 */
export type PurgeScope = PublicCacheKind | 'review' | 'booking-resource' | 'tenant';

/** The keys a merchant write of `scope` purges, after it committed. */
export function purgeKeys(scope: PurgeScope, organizationId: string, objectId: string | undefined): string[] {
  if (scope === 'tenant') return [organizationId];
  if (scope === 'review') return [groupKey(organizationId, 'item')];
  if (scope === 'booking-resource') return [groupKey(organizationId, 'booking-service')];
  const keys =
    objectId === undefined ? [groupKey(organizationId, scope)] : [objectId, listKey(organizationId, scope)];
  if (scope === 'collection') keys.push(groupKey(organizationId, 'item'));
  return keys;
}

/**
 * Tells the shared caches in front of the API (a CDN) to drop the answers that carry any of `keys`.
 * Called after the write committed, never inside its transaction, and not awaited by the write: a
 * failure is the purger's to log or retry (the answers it misses expire after their `s-maxage`).
 */
export interface CachePurger {
  purge(keys: string[]): Promise<void>;
}

/** The default: no shared cache to tell (answers expire after their `s-maxage`). */
export const noopCachePurger: CachePurger = { purge: async () => {} };

/**
 * The object a merchant write of `scope` names: an item write's `itemId` (a variant's item), else
 * `id` (a path's object), else the answer's `id` (a create). Only an item write reads `itemId`:
 * `/collections/{id}/items/{itemId}` is a write of the collection.
 */
export function purgedObjectId(scope: PurgeScope, rawInput: unknown, data: unknown): string | undefined {
  const input = (rawInput ?? {}) as Record<string, unknown>;
  if (scope === 'item' && typeof input.itemId === 'string') return input.itemId;
  if (typeof input.id === 'string') return input.id;
  const answer = data as Record<string, unknown> | null | undefined;
  return answer !== null && typeof answer === 'object' && typeof answer.id === 'string'
    ? answer.id
    : undefined;
}
