import type { Database, DatabaseHandle } from '@commerce/db';
import type { Kysely } from 'kysely';
import { findTenantSnapshotBySlug, type TenantSnapshot } from './find-organization.ts';

/** The channel the database's tenant triggers notify on, with the organization's id as payload. */
export const TENANT_CHANGES_CHANNEL = 'tenant_changed';

export interface TenantDirectoryOptions {
  /** How long an entry is trusted without a notice: the backstop if a notice were ever lost. */
  ttlMs?: number;
  /** Most tenants kept; the least recently used go first. */
  maxEntries?: number;
  /** Milliseconds since some fixed point (tests move it). */
  now?: () => number;
}

/** The backstop: an entry older than this is looked up again even if no notice said it changed. */
export const TENANT_CACHE_TTL_MS = 15_000;
export const TENANT_CACHE_MAX_ENTRIES = 10_000;

interface Entry {
  snapshot: TenantSnapshot;
  storedAt: number;
}

/**
 * The active tenants this process serves, by slug, kept in memory (docs/database.md, "Tenant
 * changes"): every tenant request needs its store (the organization, its allowed browser origins,
 * its public profile), and looking it up again on every storefront read was a round trip per
 * request.
 *
 * It stays coherent across gateways: triggers on `organizations` and `organization_settings`
 * notify `tenant_changed` with the organization's id when a change commits, and every gateway
 * listening forgets that tenant. While the listening connection is down (notices may be missed)
 * nothing is kept and every lookup goes to the database; when it listens again everything kept
 * before is dropped. A lookup that was running when any change was heard does not store what it
 * read (it may predate the change), so a notice cannot be undone by a slower read. Entries also
 * expire after `ttlMs`. Unknown slugs are never kept: a made-up slug costs a query, never memory.
 *
 * Without `listen` (a directory made for a database that cannot notify) it keeps nothing.
 */
export class TenantDirectory {
  readonly #db: Kysely<Database>;
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;
  /** Insertion order is recency: a hit moves its entry to the end. */
  readonly #bySlug = new Map<string, Entry>();
  readonly #slugsById = new Map<string, string>();
  /** Bumped by every change heard; a lookup stores its answer only if no change came in between. */
  #epoch = 0;
  #listening = false;
  #stop: (() => Promise<void>) | undefined;

  constructor(db: Kysely<Database>, options: TenantDirectoryOptions = {}) {
    this.#db = db;
    this.#ttlMs = options.ttlMs ?? TENANT_CACHE_TTL_MS;
    this.#maxEntries = options.maxEntries ?? TENANT_CACHE_MAX_ENTRIES;
    this.#now = options.now ?? (() => performance.now());
  }

  /** Starts listening to the database's tenant notices; until then (and while not heard) nothing is kept. */
  async listen(database: Pick<DatabaseHandle, 'listen'>): Promise<void> {
    this.#stop = await database.listen(TENANT_CHANGES_CHANNEL, {
      onNotice: (organizationId) => this.forget(organizationId),
      onState: (listening) => {
        // Either way what is kept may have missed a notice: drop it all.
        this.#listening = listening;
        this.forgetAll();
      },
    });
  }

  /** Whether entries are kept (notices are being heard). */
  get caching(): boolean {
    return this.#listening;
  }

  /** The active tenant of `slug` with its origins and public profile, or undefined. */
  async bySlug(slug: string): Promise<TenantSnapshot | undefined> {
    const entry = this.#bySlug.get(slug);
    if (entry) {
      if (this.#listening && this.#now() - entry.storedAt < this.#ttlMs) {
        this.#bySlug.delete(slug);
        this.#bySlug.set(slug, entry);
        return entry.snapshot;
      }
      this.#remove(slug, entry.snapshot.organizationId);
    }
    const epoch = this.#epoch;
    const listening = this.#listening;
    const snapshot = await findTenantSnapshotBySlug(this.#db, slug);
    if (snapshot && listening && this.#listening && this.#epoch === epoch) this.#store(slug, snapshot);
    return snapshot;
  }

  /** Forgets one tenant: a notice, or this process's own write to it once committed. */
  forget(organizationId: string): void {
    this.#epoch += 1;
    const slug = this.#slugsById.get(organizationId);
    if (slug !== undefined) this.#remove(slug, organizationId);
  }

  forgetAll(): void {
    this.#epoch += 1;
    this.#bySlug.clear();
    this.#slugsById.clear();
  }

  /** Stops listening (the gateway's shutdown). */
  async close(): Promise<void> {
    this.#listening = false;
    this.forgetAll();
    await this.#stop?.();
    this.#stop = undefined;
  }

  /** How many tenants are kept (tests and metrics). */
  get size(): number {
    return this.#bySlug.size;
  }

  #store(slug: string, snapshot: TenantSnapshot): void {
    const previous = this.#slugsById.get(snapshot.organizationId);
    if (previous !== undefined && previous !== slug) this.#bySlug.delete(previous);
    this.#bySlug.set(slug, { snapshot, storedAt: this.#now() });
    this.#slugsById.set(snapshot.organizationId, slug);
    while (this.#bySlug.size > this.#maxEntries) {
      const [oldest, entry] = this.#bySlug.entries().next().value as [string, Entry];
      this.#remove(oldest, entry.snapshot.organizationId);
    }
  }

  #remove(slug: string, organizationId: string): void {
    this.#bySlug.delete(slug);
    if (this.#slugsById.get(organizationId) === slug) this.#slugsById.delete(organizationId);
  }
}
