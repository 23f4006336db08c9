/**
 * Opens the database: an embedded PGlite file database by default, a `pg` pool when DATABASE_URL is set.
 * Both speak the same SQL, so the schema, the migrations and every query are shared.
 */
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { ServerConfig } from '../config.ts';
import * as schema from './schema.ts';

export type Schema = typeof schema;
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
/** A transaction or the database itself: services accept either so callers can compose them. */
export type DbOrTx = Parameters<Parameters<Database['transaction']>[0]>[0] | Database;

/** Raw SQL on one connection, for the migrator (which must hold an advisory lock on that connection). */
export type RawClient = {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
  /** Several statements separated by semicolons, no parameters. */
  exec(text: string): Promise<void>;
};

export type DatabaseHandle = {
  kind: 'pglite' | 'postgres';
  db: Database;
  /** Run `fn` with a single dedicated connection (PGlite has only one). */
  withRawClient<T>(fn: (client: RawClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
};

export async function openDatabase(config: ServerConfig['database']): Promise<DatabaseHandle> {
  if (config.kind === 'pglite') {
    fs.mkdirSync(config.dir, { recursive: true });
    const { PGlite } = await import('@electric-sql/pglite');
    const { drizzle } = await import('drizzle-orm/pglite');
    const client = await PGlite.create(config.dir);
    const db = drizzle({ client, schema }) as unknown as Database;
    const raw: RawClient = {
      query: async (text, params) => ({ rows: (await client.query(text, params)).rows as never[] }),
      exec: async (text) => {
        await client.exec(text);
      },
    };
    return {
      kind: 'pglite',
      db,
      withRawClient: (fn) => fn(raw),
      close: async () => {
        if (!client.closed) await client.close();
      },
    };
  }
  const pg = (await import('pg')).default;
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const pool = new pg.Pool({ connectionString: config.url, max: config.poolSize });
  // An idle client losing its connection must not crash the process; the pool replaces it.
  pool.on('error', (err) => console.error('[meshfront] idle PostgreSQL client error:', err.message));
  const db = drizzle({ client: pool, schema }) as unknown as Database;
  return {
    kind: 'postgres',
    db,
    async withRawClient(fn) {
      const client = await pool.connect();
      try {
        return await fn({
          query: async (text, params) => ({ rows: (await client.query(text, params as unknown[])).rows }),
          exec: async (text) => {
            await client.query(text);
          },
        });
      } finally {
        client.release();
      }
    },
    close: () => pool.end(),
  };
}

/**
 * Run `fn` in a transaction that holds a transaction-scoped advisory lock on `key`: concurrent callers
 * with the same key (in any process) run one after another. Used for per-session mutations and stock.
 */
export async function withLock<T>(db: Database, key: string, fn: (tx: DbOrTx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
    return fn(tx);
  });
}
