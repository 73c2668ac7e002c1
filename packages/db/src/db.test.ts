import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test/database.ts';
import { recordAudit } from './audit.ts';
import type { DatabaseHandle } from './open-database.ts';
import { SCHEMA_COLUMNS } from './schema.ts';

let handle: DatabaseHandle;

beforeAll(async () => {
  handle = await createTestDatabase();
  await handle.db.insertInto('organizations').values({ id: 'org_A', slug: 'a', name: 'A' }).execute();
});

afterAll(async () => {
  await handle.close();
});

describe('schema', () => {
  it('matches the hand-kept Database types column for column', async () => {
    const rows = await sql<{ table_name: string; column_name: string }>`
      select table_name, column_name from information_schema.columns
      where table_schema = current_schema()`.execute(handle.db);
    const actual: Record<string, string[]> = {};
    for (const row of rows.rows) {
      actual[row.table_name] = [...(actual[row.table_name] ?? []), row.column_name];
    }
    for (const [table, columns] of Object.entries(SCHEMA_COLUMNS)) {
      expect([...(actual[table] ?? [])].sort(), table).toEqual([...columns].sort());
    }
    const known = new Set([...Object.keys(SCHEMA_COLUMNS), 'kysely_migration', 'kysely_migration_lock']);
    expect(Object.keys(actual).filter((table) => !known.has(table))).toEqual([]);
  });
});

describe('audit log', () => {
  it('accepts inserts and refuses UPDATE, DELETE and TRUNCATE', async () => {
    const id = await recordAudit(handle.db, {
      organizationId: 'org_A',
      actor: { userId: 'usr_1', email: 'owner@example.com' },
      action: 'settings.updated',
      targetType: 'settings',
      targetId: null,
      metadata: { categories: ['businessProfile'] },
      at: new Date('2026-01-01T00:00:00Z'),
    });
    await expect(
      handle.db.updateTable('audit_logs').set({ action: 'tampered' }).where('id', '=', id).execute(),
    ).rejects.toThrow(/append-only/);
    await expect(handle.db.deleteFrom('audit_logs').where('id', '=', id).execute()).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`truncate audit_logs`.execute(handle.db)).rejects.toThrow(/append-only/);
    const row = await handle.db
      .selectFrom('audit_logs')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row.action).toBe('settings.updated');
    expect(row.metadata).toEqual({ categories: ['businessProfile'] });
  });
});

describe('transactions', () => {
  it('queue when issued at once instead of interleaving or failing', async () => {
    await sql`create table counters (id int primary key, value int not null)`.execute(handle.db);
    await sql`insert into counters values (1, 0)`.execute(handle.db);
    const trace: string[] = [];
    // Each transaction reads, yields to the event loop, then writes read + 1: interleaving would lose updates.
    const increment = (name: string) =>
      handle.db.transaction().execute(async (trx) => {
        trace.push(`${name}:begin`);
        const { rows } = await sql<{
          value: number;
        }>`select value from counters where id = 1 for update`.execute(trx);
        await new Promise((resolve) => setTimeout(resolve, 5));
        await sql`update counters set value = ${rows[0]!.value + 1} where id = 1`.execute(trx);
        trace.push(`${name}:end`);
      });
    await Promise.all(Array.from({ length: 10 }, (_, index) => increment(`t${index}`)));
    const { rows } = await sql<{ value: number }>`select value from counters where id = 1`.execute(handle.db);
    expect(rows[0]!.value).toBe(10);
    expect(trace).toHaveLength(20);
    if (handle.kind === 'embedded') {
      // On the single embedded connection each transaction runs whole before the next begins.
      for (let index = 0; index < trace.length; index += 2) {
        expect(trace[index]!.replace(':begin', '')).toBe(trace[index + 1]!.replace(':end', ''));
      }
    }
  });

  it('rolls back a failed transaction and keeps serving the next one', async () => {
    await expect(
      handle.db.transaction().execute(async (trx) => {
        await trx.insertInto('organizations').values({ id: 'org_R', slug: 'r', name: 'R' }).execute();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    const found = await handle.db
      .selectFrom('organizations')
      .select('id')
      .where('id', '=', 'org_R')
      .execute();
    expect(found).toEqual([]);
  });

  it('streams a query result in chunks', async () => {
    let streamed = 0;
    for await (const _row of handle.db
      .selectFrom(sql<{ n: number }>`generate_series(1, 1200)`.as('s'))
      .selectAll()
      .stream(250)) {
      streamed += 1;
    }
    expect(streamed).toBe(1200);
  });

  it('streams inside a transaction, and leaves the database usable after a stream stopped early', async () => {
    await handle.db.transaction().execute(async (trx) => {
      let inside = 0;
      for await (const _row of trx
        .selectFrom(sql<{ n: number }>`generate_series(1, 600)`.as('s'))
        .selectAll()
        .stream(100)) {
        inside += 1;
      }
      expect(inside).toBe(600);
    });

    const early = handle.db
      .selectFrom(sql<{ n: number }>`generate_series(1, 1000)`.as('s'))
      .selectAll()
      .stream(100)
      [Symbol.asyncIterator]();
    await early.next();
    await early.return?.();
    // A cursor or transaction left open would break the next transaction or hold the connection.
    await handle.db.transaction().execute(async (trx) => {
      await trx.selectFrom('organizations').select('id').execute();
    });
  });
});
