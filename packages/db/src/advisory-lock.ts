import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';

/**
 * Holds, until the transaction ends, the advisory lock named by `parts` (its 64-bit key: the first
 * eight bytes of the SHA-256 of the parts joined by NUL). Serializes the writes that must count or
 * check before they add (a per-tenant limit, a name that must stay free) where no row can be locked.
 */
export async function lockForTransaction<DB>(trx: Kysely<DB>, ...parts: string[]): Promise<void> {
  const key = createHash('sha256').update(parts.join('\u0000')).digest().readBigInt64BE(0);
  await sql`select pg_advisory_xact_lock(${key.toString()}::bigint)`.execute(trx);
}
