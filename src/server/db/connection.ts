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
    singleProcess.add(db);
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
 * Databases only this process can open (PGlite: the CLI refuses while the server holds the directory).
 * Their writers are all in this process, so per-key serialisation needs no database lock and in-process
 * caches of their rows can be authoritative (see session/cache.ts).
 */
const singleProcess = new WeakSet<object>();

export function isSingleProcess(db: DbOrTx): boolean {
  return singleProcess.has(db);
}

/** Per-database, per-key FIFO mutexes for single-process databases. */
const localLocks = new WeakMap<object, Map<string, Promise<void>>>();

/** Run `fn` after every earlier holder of `key` on `db` finished (in this process); keys are forgotten when idle. */
export async function withLocalLock<T>(db: Database, key: string, fn: () => Promise<T>): Promise<T> {
  let tails = localLocks.get(db);
  if (!tails) localLocks.set(db, (tails = new Map()));
  const previous = tails.get(key);
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = previous ? previous.then(() => mine) : mine;
  tails.set(key, tail);
  try {
    if (previous) await previous;
    return await fn();
  } finally {
    release();
    if (tails.get(key) === tail) tails.delete(key);
  }
}

/**
 * Run `fn` in a transaction during which no other caller with the same `key` runs: across processes by a
 * transaction-scoped advisory lock on PostgreSQL; on a single-process database (PGlite) by an in-process
 * mutex, which is the same guarantee without a lock statement per call. Used for per-session mutations.
 */
export async function withLock<T>(db: Database, key: string, fn: (tx: DbOrTx) => Promise<T>): Promise<T> {
  if (isSingleProcess(db)) return withLocalLock(db, key, () => db.transaction((tx) => fn(tx)));
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
    return fn(tx);
  });
}

/**
 * `withLock` for work whose only write is a single statement (so it needs no transaction of its own):
 * on a single-process database just the in-process mutex, `fn` getting the database itself; on PostgreSQL
 * the advisory-lock transaction, which other processes' callers also wait for.
 */
export async function withKeyLock<T>(db: Database, key: string, fn: (tx: DbOrTx) => Promise<T>): Promise<T> {
  if (isSingleProcess(db)) return withLocalLock(db, key, () => fn(db));
  return withLock(db, key, fn);
}
