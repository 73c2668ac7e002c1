import type { Clock } from '@commerce/core';
import type { Database } from '@commerce/db';
import type { Kysely, KyselyPlugin } from 'kysely';
import type { ShippingWriteContext } from '../src/shipping/schemas.ts';

let sequence = 0;

/** A fresh organization, and the write context of a merchant acting in it. */
export async function createShippingTenant(
  db: Kysely<Database>,
  clock: Clock,
): Promise<{ organizationId: string; ctx: () => ShippingWriteContext }> {
  sequence += 1;
  const organizationId = `org_ship_${process.pid}_${sequence}`;
  await db
    .insertInto('organizations')
    .values({ id: organizationId, slug: `ship-${process.pid}-${sequence}`, name: 'Shipping shop' })
    .execute();
  return {
    organizationId,
    ctx: () => ({
      organizationId,
      actor: { userId: 'usr_shipping_test', email: 'merchant@ship.test' },
      at: clock.now(),
    }),
  };
}

/** A handle on `db` that counts the statements run through it. */
export function countingQueries(db: Kysely<Database>): { db: Kysely<Database>; count: () => number } {
  let count = 0;
  const plugin: KyselyPlugin = {
    transformQuery: ({ node }) => {
      count += 1;
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { db: db.withPlugin(plugin), count: () => count };
}
