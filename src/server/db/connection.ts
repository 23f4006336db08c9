/**
 * Opens the database: an embedded PGlite file database by default, a `pg` pool when DATABASE_URL is set.
 * Both speak the same SQL, so the schema, the migrations and every query are shared.
 */
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { ServerConfig } from '../config.ts';
import { lockDatabaseDir, type DataDirLock } from './data-dir-lock.ts';
import { openGuardedPGlite, StorageWatch } from './pglite-storage.ts';
import { openPostgresPool, withPostgresClient } from './postgres.ts';
import * as schema from './schema.ts';
import { readDatabaseSettings } from './settings.ts';

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
  /** The embedded database's storage: 'read-only' while a full or read-only disk stops changes (pglite-storage.ts). */
  storageState?(): 'ok' | 'read-only';
  /**
   * The embedded database's whole data directory as a gzipped tarball (PGlite only), taken between two
   * statements, so it is what a restart after a crash at that moment would find: every committed
   * transaction and nothing half-done. The shop keeps running meanwhile.
   */
  dumpDataDir?(): Promise<Blob>;
  close(): Promise<void>;
};

export type OpenOptions = {
  /** What this process is, named to the processes the embedded database's lock refuses (data-dir-lock.ts). */
  holder?: string;
  /** The embedded database's lock, when the caller took it already (kept when the database closes). */
  lock?: DataDirLock;
};

/**
 * PGlite's buffer pool. Its default (PostgreSQL's 128MB) becomes resident in the WASM heap as soon as the
 * database opens, so an engine with an 11 MB database held ~150 MB of resident memory for buffers it
 * never fills. 32MB keeps a shop's hot tables cached (measured: WASM resident 151 → 47 MB, engine ~130 MB
 * less after the API bench, a read/write statement loop no slower); pages beyond it are read through the
 * OS page cache, as PostgreSQL itself does.
 */
const PGLITE_SHARED_BUFFERS = '32MB';

export async function openDatabase(
  config: ServerConfig['database'],
  options: OpenOptions = {},
): Promise<DatabaseHandle> {
  if (config.kind === 'pglite') {
    fs.mkdirSync(config.dir, { recursive: true });
    // Before PGlite touches the directory: a second process writing to it would overwrite the first's data.
    const lock = options.lock ?? lockDatabaseDir(config.dir, options.holder);
    const release = () => {
      if (!options.lock) lock.release();
    };
    try {
      return await openPGlite(config.dir, release);
    } catch (err) {
      release();
      throw err;
    }
  }
  const settings = readDatabaseSettings();
  // Survives the database going away and bounds every wait (postgres.ts).
  const pool = await openPostgresPool(config, settings);
  const { drizzle } = await import('drizzle-orm/node-postgres');
  const db = drizzle({ client: pool, schema }) as unknown as Database;
  return {
    kind: 'postgres',
    db,
    withRawClient: (fn) => withPostgresClient(pool, settings, fn),
    close: () => pool.end(),
  };
}

/** The PGlite side of openDatabase; `onClose` runs once the database is closed (lets go of the lock). */
async function openPGlite(dir: string, onClose: () => void): Promise<DatabaseHandle> {
  const { PGlite, types } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  // Drizzle passes these parsers (dates and intervals left as text, it maps them itself) with every
  // query; PGlite then merges them into its full parser table per query, which costs about a quarter of
  // a millisecond each time — as much as a small write. Installed once on the instance instead, and
  // dropped from each call by `drizzleClient`.
  const keepText = (value: string) => value;
  const parsers = Object.fromEntries(
    [types.TIMESTAMP, types.TIMESTAMPTZ, types.INTERVAL, types.DATE, 1231, 1115, 1185, 1187, 1182].map((oid) => [
      oid,
      keepText,
    ]),
  );
  // Behind the full/read-only disk rules of pglite-storage.ts (reopened from its files after a storage error).
  const settings = readDatabaseSettings();
  const log = (m: string) => console.error(`[meshfront] ${m}`);
  const { client, storageState } = await openGuardedPGlite(
    () =>
      PGlite.create(dir, {
        parsers,
        startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${PGLITE_SHARED_BUFFERS}`],
      }),
    new StorageWatch(dir, { minFreeBytes: settings.minFreeBytes, checkMs: settings.storageCheckMs }, log),
    { retryMs: settings.storageCheckMs, log },
  );
  const db = drizzle({ client: drizzleClient(client, parsers), schema }) as unknown as Database;
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
    storageState,
    dumpDataDir: async () => {
      // Dirty pages written back first, so a restore of the copy has little WAL to replay.
      await client.exec('checkpoint');
      return client.dumpDataDir('gzip');
    },
    close: async () => {
      try {
        if (!client.closed) await client.close();
      } finally {
        onClose();
      }
    },
  };
}

type QueryFn = (text: string, params?: unknown[], options?: { parsers?: Record<number, unknown> }) => Promise<unknown>;

/** Resolves in the next event-loop turn, after Node has polled for I/O (new connections, request bytes). */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * The PGlite client as drizzle sees it.
 *
 * - `query` (on the client and on a transaction) without the per-query `parsers` option when those are
 *   exactly the ones installed on the instance: the same results, without PGlite rebuilding its parser
 *   table for every statement. Any other parsers pass on.
 * - Each statement outside a transaction, and each transaction, starts in a new event-loop turn. PGlite
 *   runs SQL synchronously in this thread, and its promises resolve at once, so without this every request
 *   read in one turn ran all of its statements, and every other request's, before Node looked at its
 *   sockets again — and Node accepts one new connection per turn. Under a checkout load a turn took
 *   seconds and a new shopper's connection waited ~12 s to be accepted (bench: Checkout p99 7.4 s → 2.4 s).
 *   Statements inside a transaction run on without a break: it holds the database until it ends.
 */
function drizzleClient<C extends object>(client: C, installed: Record<number, unknown>): C {
  const sameAsInstalled = (given: Record<number, unknown> | undefined) =>
    !!given &&
    Object.keys(given).length === Object.keys(installed).length &&
    Object.keys(given).every((oid) => oid in installed);
  const wrapQuery =
    (query: QueryFn, self: object): QueryFn =>
    (text, params, options) =>
      query.call(
        self,
        text,
        params,
        options && sameAsInstalled(options.parsers) ? { ...options, parsers: undefined } : options,
      );
  const wrap = <T extends object>(target: T, inTransaction: boolean): T =>
    new Proxy(target, {
      get(t, name) {
        const value = Reflect.get(t, name, t) as unknown;
        if (name === 'query' && typeof value === 'function') {
          const query = wrapQuery(value as QueryFn, t);
          return inTransaction ? query : (((...args) => nextTurn().then(() => query(...args))) satisfies QueryFn);
        }
        if (name === 'transaction' && typeof value === 'function') {
          return async (fn: (tx: object) => Promise<unknown>) => {
            await nextTurn();
            return (value as (f: typeof fn) => Promise<unknown>).call(t, (tx) => fn(wrap(tx, true)));
          };
        }
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(t) : value;
      },
    });
  return wrap(client, false);
}

/**
 * Databases only this process can open (PGlite: data-dir-lock.ts refuses every other opener).
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
  if (!tails) {
    tails = new Map();
    localLocks.set(db, tails);
  }
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
