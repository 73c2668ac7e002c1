import type { Database } from '@commerce/db';
import { type Kysely, sql } from 'kysely';

/**
 * Takes the organization's next order number: one upsert on its counter row,
 * which holds the row lock until the caller's transaction ends. Concurrent
 * creators queue on that lock, so no two take the same number, and a rolled
 * back creation gives its number back, so the numbers have no gaps. Must run
 * inside the transaction that inserts the order.
 */
export async function takeOrderNumber(trx: Kysely<Database>, organizationId: string): Promise<number> {
  const { rows } = await sql<{ taken: number }>`
    insert into order_number_counters (organization_id, next_number) values (${organizationId}, 2)
    on conflict (organization_id) do update set next_number = order_number_counters.next_number + 1
    returning next_number - 1 as taken`.execute(trx);
  return Number(rows[0]!.taken);
}
