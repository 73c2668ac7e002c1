import pg from 'pg';

/** A database a benchmark creates for itself on the local PostgreSQL, and drops afterwards. */
export interface BenchDatabase {
  /** Its connection URL (the admin URL with the database's name). */
  url: string;
  /** `PostgreSQL <server_version>`. */
  version: string;
}

async function connect(adminUrl: string): Promise<pg.Client> {
  const admin = new pg.Client({ connectionString: adminUrl });
  try {
    await admin.connect();
  } catch (error) {
    throw new Error(
      `cannot reach PostgreSQL at ${adminUrl} (${String(error)}); ` +
        'set BENCH_POSTGRES_URL, or BENCH_ENGINES=pglite to skip PostgreSQL',
    );
  }
  return admin;
}

/** Drops `name` (closing its connections) and creates it empty. `name` must be a plain identifier. */
export async function recreateBenchDatabase(adminUrl: string, name: string): Promise<BenchDatabase> {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`database name "${name}" must be a plain identifier`);
  const admin = await connect(adminUrl);
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
    await admin.query(`create database ${name}`);
    const { rows } = await admin.query<{ server_version: string }>('show server_version');
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    return { url: url.toString(), version: `PostgreSQL ${rows[0]?.server_version ?? '?'}` };
  } finally {
    await admin.end();
  }
}

export async function dropBenchDatabase(adminUrl: string, name: string): Promise<void> {
  const admin = await connect(adminUrl);
  try {
    await admin.query(`drop database if exists ${name} with (force)`);
  } finally {
    await admin.end();
  }
}
