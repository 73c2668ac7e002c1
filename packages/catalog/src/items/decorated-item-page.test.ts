import type { Database, DatabaseHandle } from '@commerce/db';
import { createTestDatabase } from '@commerce/db/testing';
import { type Kysely, type KyselyPlugin, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertOrganization } from '../../test/items.ts';
import { SEARCH_HEAD_ROWS } from './decorated-item-page.ts';
import { listItems } from './list-items.ts';
import { listPublicItems } from './list-public-items.ts';
import { itemListQuerySchema, publicItemListQuerySchema } from './schemas.ts';

let handle: DatabaseHandle;
let organizationId: string;
/** More items than a search looks through in list order before it turns to the trigram index. */
const ITEMS = SEARCH_HEAD_ROWS + 500;

beforeAll(async () => {
  handle = await createTestDatabase();
  organizationId = await insertOrganization(handle.db, 'search-page');
  // Every third item is a "lantern" (common); item 2400 alone, far past the head, is a "periscope".
  await sql`
    insert into items (organization_id, id, slug, name, type, status, sort_order, search_text, created_at, updated_at)
    select ${organizationId}, 'itm_sp_' || lpad(n::text, 5, '0'), 'sp-' || n,
           case when n = 2400 then 'Periscope' when n % 3 = 0 then 'Lantern ' || n else 'Tent ' || n end,
           'SALE', 'ACTIVE', 0,
           lower(case when n = 2400 then 'Periscope' when n % 3 = 0 then 'Lantern ' || n else 'Tent ' || n end),
           timestamptz '2026-05-01T00:00:00Z' - make_interval(secs => n),
           timestamptz '2026-05-01T00:00:00Z'
    from generate_series(1, ${ITEMS}::int) as n`.execute(handle.db);
});
afterAll(async () => {
  await handle.close();
});

function counting(db: Kysely<Database>) {
  const counter = { statements: 0 };
  const plugin: KyselyPlugin = {
    transformQuery: (args) => args.node,
    // Once per statement run (a query built inside another is transformed with it, but runs once).
    transformResult: async (args) => {
      counter.statements += 1;
      return args.result;
    },
  };
  return { db: db.withPlugin(plugin), counter };
}

/** The matches in list order, computed without any index strategy. */
async function expectedIds(term: string, after = 0, limit = 50) {
  const { rows } = await sql<{ id: string }>`
    select id from items where organization_id = ${organizationId} and search_text like ${`%${term}%`}
    order by sort_order, created_at desc, id desc`.execute(handle.db);
  return rows.slice(after, after + limit).map((row) => row.id);
}

describe('a searched item page', () => {
  it('finds a common term among the first items in list order, in one statement', async () => {
    const { db, counter } = counting(handle.db);
    const page = await listItems(
      db,
      organizationId,
      itemListQuerySchema.parse({ search: 'lantern', limit: 50 }),
    );
    expect(page.data.map((item) => item.id)).toEqual(await expectedIds('lantern'));
    expect(page.nextCursor).toBe(page.data[49]!.id);
    expect(counter.statements).toBe(1);
  });

  it('finds a selective term past the first items in list order, in a second statement', async () => {
    const { db, counter } = counting(handle.db);
    const page = await listItems(db, organizationId, itemListQuerySchema.parse({ search: 'PERISCOPE' }));
    expect(page.data.map((item) => item.name)).toEqual(['Periscope']);
    expect(page.nextCursor).toBeNull();
    expect(counter.statements).toBe(2);
    const shown = await listPublicItems(
      handle.db,
      organizationId,
      publicItemListQuerySchema.parse({ search: 'scope' }),
    );
    expect(shown.map((item) => item.name)).toEqual(['Periscope']);
  });

  it('pages a common term past the head with its cursor, in the same order', async () => {
    const cursor = (await expectedIds('lantern', 0, 700))[699]!;
    const page = await listItems(
      handle.db,
      organizationId,
      itemListQuerySchema.parse({ search: 'lantern', limit: 50, cursor }),
    );
    expect(page.data.map((item) => item.id)).toEqual(await expectedIds('lantern', 700));
  });

  it('pages a term rarer than a page per head through the trigram path', async () => {
    // "ntern 1" matches the lanterns numbered 1…, 10…, 100…, 1000…: about one item in 30 of the head.
    const all = await expectedIds('ntern 1', 0, 10_000);
    const first = await listItems(
      handle.db,
      organizationId,
      itemListQuerySchema.parse({ search: 'ntern 1', limit: 40 }),
    );
    expect(first.data.map((item) => item.id)).toEqual(all.slice(0, 40));
    const second = await listItems(
      handle.db,
      organizationId,
      itemListQuerySchema.parse({ search: 'ntern 1', limit: 40, cursor: first.nextCursor }),
    );
    expect(second.data.map((item) => item.id)).toEqual(all.slice(40, 80));
  });
});
