import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dropTestSchema } from '../test/database.ts';
import { fromDatabaseClient, isConnectionLost, isDatabaseUnavailable } from './connection-errors.ts';
import { type DatabaseHandle, openDatabase } from './open-database.ts';

describe('isDatabaseUnavailable', () => {
  const withCode = (code: string, message = 'failed') => Object.assign(new Error(message), { code });
  /** As pg, pg-pool or PGlite raise it: the database layer marks what its client threw. */
  const fromClient = <E>(error: E) => fromDatabaseClient(error);

  it.each([
    ['an administrator ended the connection', withCode('57P01')],
    ['the server is crashing', withCode('57P02')],
    ['the server is starting or shutting down', withCode('57P03')],
    ['the connection failed', withCode('08006')],
    ['the server refused the connection', withCode('08001')],
    ['a write reached a read-only standby', withCode('25006')],
    ['the disk is full', withCode('53100')],
    ['the socket was reset', fromClient(withCode('ECONNRESET'))],
    ['nothing listens', fromClient(withCode('ECONNREFUSED'))],
    ['the data directory is read-only', fromClient(withCode('EROFS'))],
    ['the data directory is full', fromClient(withCode('ENOSPC'))],
    ['node-postgres lost the socket', fromClient(new Error('Connection terminated unexpectedly'))],
    [
      'node-postgres will not use a broken client',
      fromClient(new Error('Client has encountered a connection error and is not queryable')),
    ],
    ['the pool timed out', fromClient(new Error('timeout exceeded when trying to connect'))],
    ['a wrapped cause', new Error('procedure failed', { cause: withCode('57P01') })],
    [
      "a wrapped database client's socket error",
      new Error('procedure failed', { cause: fromClient(withCode('ECONNRESET')) }),
    ],
  ])('is true when %s', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', withCode('23505')],
    ['a serialization failure', withCode('40001')],
    ['a syntax error', withCode('42601')],
    ['a plain error', new Error('boom')],
    ['nothing', undefined],
    // A provider's failure (the payment processor, a carrier, SMTP, a lookup) is not the database's.
    [
      "fetch's failure to reach a provider",
      new TypeError('fetch failed', {
        cause: Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:443'), { code: 'ECONNREFUSED' }),
      }),
    ],
    ["a provider's timeout", withCode('ETIMEDOUT', 'request to the provider timed out')],
    ["a provider's unknown host", withCode('ENOTFOUND', 'getaddrinfo ENOTFOUND api.provider.test')],
    ["a provider's reset socket", withCode('ECONNRESET', 'socket hang up')],
    ["an SMTP server's closed connection", new Error('Connection closed')],
  ])('is false for %s', (_case, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });

  it('keeps a connection that only met a read-only or full server', () => {
    expect(isConnectionLost(withCode('25006'))).toBe(false);
    expect(isConnectionLost(withCode('53100'))).toBe(false);
    expect(isConnectionLost(withCode('57P01'))).toBe(true);
  });
});

describe('a PostgreSQL server that cannot be reached', () => {
  it("answers the pool's refused connection as unavailable", async () => {
    // Port 1 on the loopback: nothing listens there, so the connection is refused at once.
    const handle = await openDatabase({
      databaseUrl: 'postgres://postgres@127.0.0.1:1/postgres',
      poolSize: 1,
    });
    try {
      await expect(handle.ping()).rejects.toSatisfy(isDatabaseUnavailable);
    } finally {
      await handle.close();
    }
  });
});

const url = process.env.TEST_DATABASE_URL;

/**
 * The pool's connections ended by the server (`pg_terminate_backend`, as a
 * fast shutdown or a failover ends them), picked by this file's own
 * `application_name` so that no other connection of the server is touched.
 */
describe.skipIf(!url)('a PostgreSQL connection that dies', () => {
  const applicationName = `connection_loss_test_${randomBytes(4).toString('hex')}`;
  const schema = `connection_loss_${randomBytes(4).toString('hex')}`;
  let admin: pg.Client;
  let handle: DatabaseHandle;

  beforeAll(async () => {
    admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    await admin.query(`create table ${schema}.writes (n int)`);
    // One connection: a dead one handed out again would fail every statement after it.
    // The name in the URL wins over PGAPPNAME, so the test finds its connections wherever it runs.
    const named = new URL(url ?? '');
    named.searchParams.set('application_name', applicationName);
    handle = await openDatabase({
      databaseUrl: named.toString(),
      poolSize: 1,
      applicationName: 'overridden-by-the-url',
    });
  });

  afterAll(async () => {
    await handle?.close();
    await admin?.end();
    if (url) await dropTestSchema(url, schema);
  });

  const terminateOwn = async (state?: 'active') => {
    const { rows } = await admin.query<{ pid: number }>(
      `select pid from pg_stat_activity where application_name = $1 ${state ? 'and state = $2' : ''}`,
      state ? [applicationName, state] : [applicationName],
    );
    for (const { pid } of rows) await admin.query('select pg_terminate_backend($1)', [pid]);
    return rows.length;
  };
  const ownPid = async () =>
    (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(handle.db)).rows[0]!.pid;

  it('fails the transaction it was checked out to, without an unhandled error event, and is not handed out again', async () => {
    let deadPid = 0;
    const outcome = handle.db.transaction().execute(async (trx) => {
      deadPid = (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx)).rows[0]!.pid;
      await admin.query('select pg_terminate_backend($1)', [deadPid]);
      // The server's goodbye arrives while the client is checked out and between two statements.
      await sleep(200);
      await sql`select 1`.execute(trx);
    });
    await expect(outcome).rejects.toSatisfy(isDatabaseUnavailable);
    const pid = await ownPid();
    expect(pid).not.toBe(deadPid);
    expect(handle.pool?.totalCount).toBe(1);
  });

  it('comes back after every connection was ended while idle', async () => {
    await ownPid();
    expect(await terminateOwn()).toBe(1);
    await sleep(100);
    await expect(ownPid()).resolves.toBeGreaterThan(0);
  });

  it('runs a read outside a transaction once more on a new connection', async () => {
    const reading = sql<{ one: number }>`select 1 as one from pg_sleep(0.5)`.execute(handle.db);
    await sleep(150);
    expect(await terminateOwn('active')).toBe(1);
    expect((await reading).rows).toEqual([{ one: 1 }]);
  });

  it('never runs a write again: its outcome is unknown', async () => {
    const writing = sql`insert into ${sql.table(`${schema}.writes`)} select 1 from pg_sleep(0.5)`.execute(
      handle.db,
    );
    // Its failure is awaited from now on: it can arrive before the terminating call answers.
    const failed = expect(writing).rejects.toSatisfy(isDatabaseUnavailable);
    await sleep(150);
    expect(await terminateOwn('active')).toBe(1);
    await failed;
    const { rows } = await admin.query(`select count(*)::int as count from ${schema}.writes`);
    expect(rows).toEqual([{ count: 0 }]);
  });

  it('never runs a read inside a transaction again', async () => {
    const reading = handle.db
      .transaction()
      .execute((trx) => sql`select 1 as one from pg_sleep(0.5)`.execute(trx));
    const failed = expect(reading).rejects.toSatisfy(isDatabaseUnavailable);
    await sleep(150);
    expect(await terminateOwn('active')).toBe(1);
    await failed;
    await expect(ownPid()).resolves.toBeGreaterThan(0);
  });
});
