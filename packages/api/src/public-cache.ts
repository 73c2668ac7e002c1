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
 * - `tenant`: settings every public read may show (the store currency): everything of the tenant;
 * - `shipped-stock`: a shipment took tracked stock off the variants of its lines, which may change
 *   their items' `inStock`: the items of the answer's `lines` that name a variant, and the item lists.
 */
export type PurgeScope = PublicCacheKind | 'review' | 'booking-resource' | 'tenant' | 'shipped-stock';

/**
 * The keys a merchant write of `scope` purges, after it committed. `objectId` is the object it
 * wrote; for `shipped-stock`, an item whose stock it took (without one, every item answer).
 */
export function purgeKeys(scope: PurgeScope, organizationId: string, objectId: string | undefined): string[] {
  if (scope === 'tenant') return [organizationId];
  if (scope === 'shipped-stock')
    return objectId === undefined
      ? [groupKey(organizationId, 'item')]
      : [objectId, listKey(organizationId, 'item')];
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

/** How long after a write's purge the same keys are purged again (`repurgingCachePurger`). */
export const REPURGE_DELAY_MS = 5000;

/** A purger that purges every set of keys twice; `close` drops the second purges not yet sent. */
export interface RepurgingCachePurger extends CachePurger {
  close(): void;
}

/**
 * `purger`, purging each set of keys a second time `delayMs` later. A CDN miss that reached the
 * origin before the write committed can land in the CDN after the first purge and would be served
 * for `s-maxage` + `stale-while-revalidate`; the second purge drops it. Its failure goes to
 * `onError` (the first's to the caller). The timers are unref'd (they never keep a process alive)
 * and `close` clears them, for a shutdown.
 */
export function repurgingCachePurger(
  purger: CachePurger,
  options: { delayMs?: number; onError?: (error: unknown, keys: string[]) => void } = {},
): RepurgingCachePurger {
  const delayMs = options.delayMs ?? REPURGE_DELAY_MS;
  const pending = new Set<ReturnType<typeof setTimeout>>();
  return {
    purge(keys) {
      const timer = setTimeout(() => {
        pending.delete(timer);
        purger.purge(keys).catch((error: unknown) => options.onError?.(error, keys));
      }, delayMs);
      timer.unref?.();
      pending.add(timer);
      return purger.purge(keys);
    },
    close() {
      for (const timer of pending) clearTimeout(timer);
      pending.clear();
    },
  };
}

/**
 * The keys a successful merchant write of `scope` purges, from its input and its answer: a
 * shipment's the items of its lines that name a variant (none: nothing to purge), any other write's
 * those of the object it names (`purgedObjectId`).
 */
export function writePurgeKeys(
  scope: PurgeScope,
  organizationId: string,
  rawInput: unknown,
  data: unknown,
): string[] {
  if (scope !== 'shipped-stock')
    return purgeKeys(scope, organizationId, purgedObjectId(scope, rawInput, data));
  const itemIds = shippedItemIds(data);
  return itemIds.length === 0 ? [] : [...itemIds, listKey(organizationId, 'item')];
}

/** The distinct items of a fulfillment answer's lines that name a variant (a line without one takes no stock). */
function shippedItemIds(data: unknown): string[] {
  const lines = (data as { lines?: unknown } | null | undefined)?.lines;
  if (!Array.isArray(lines)) return [];
  const ids = new Set<string>();
  for (const line of lines as { itemId?: unknown; variantId?: unknown }[]) {
    if (typeof line?.itemId === 'string' && typeof line.variantId === 'string') ids.add(line.itemId);
  }
  return [...ids];
}

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
