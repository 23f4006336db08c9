/**
 * The PostgreSQL side of openDatabase (connection.ts): a `pg` pool that survives the database going
 * away. node-postgres emits 'error' on a client whose connection breaks; the pool listens only while a
 * client is idle, so a client checked out at that moment — inside a transaction, or the migrator's —
 * had no listener and the error event ended the process ("Unhandled 'error' event … Connection
 * terminated unexpectedly", and every later request failed until someone restarted it). Every client now
 * gets a listener when it is made: the statements in flight fail (db/unavailable.ts names them), the pool
 * drops the broken client when it is released, and the next request gets a new connection as soon as
 * the database accepts them again.
 *
 * The waits are bounded (db/settings.ts): getting a connection (DATABASE_CONNECT_TIMEOUT_MS, also while
 * the pool is exhausted), a statement (statement_timeout) and a transaction left idle
 * (idle_in_transaction_session_timeout). TCP keep-alive notices a peer that vanished without a word.
 */
import type pg from 'pg';
import type { ServerConfig } from '../config.ts';
import { errorSummary } from '../error-summary.ts';
import type { DatabaseSettings } from './settings.ts';

type PostgresConfig = Extract<ServerConfig['database'], { kind: 'postgres' }>;

/** Raw SQL on one connection (connection.ts RawClient). */
type SqlClient = {
  query<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: T[] }>;
  exec(text: string): Promise<void>;
};

/** Connection errors are logged once per this many milliseconds: a restart breaks every connection at once. */
const LOG_EVERY_MS = 10_000;

/** The engine's pool: every client with an error listener, every wait bounded. */
export async function openPostgresPool(
  config: PostgresConfig,
  settings: DatabaseSettings,
  log: (message: string) => void = (m) => console.error(`[meshfront] ${m}`),
): Promise<pg.Pool> {
  const { Pool } = (await import('pg')).default;
  const pool = new Pool({
    connectionString: config.url,
    max: config.poolSize,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    ...(settings.statementTimeoutMs > 0 ? { statement_timeout: settings.statementTimeoutMs } : {}),
    ...(settings.idleInTransactionTimeoutMs > 0
      ? { idle_in_transaction_session_timeout: settings.idleInTransactionTimeoutMs }
      : {}),
  });
  let lastLogged = 0;
  let quiet = 0;
  const connectionLost = (err: Error) => {
    const now = Date.now();
    if (now - lastLogged < LOG_EVERY_MS) {
      quiet++;
      return;
    }
    log(
      `PostgreSQL connection lost: ${errorSummary(err)}${quiet ? ` (${quiet} more since the last message)` : ''}; new requests reconnect`,
    );
    lastLogged = now;
    quiet = 0;
  };
  // Idle clients: the pool removes them itself and emits the error here.
  pool.on('error', connectionLost);
  // Clients in use (a transaction, the migrator): without a listener of their own, the error event of a
  // broken connection would end the process. The query in flight fails on its own; the pool discards the
  // client when it is released.
  pool.on('connect', (client) => client.on('error', connectionLost));
  return pool;
}

/** Runs `fn` on one connection of the pool (the migrator's advisory lock lives on it). */
export async function withPostgresClient<T>(
  pool: pg.Pool,
  settings: DatabaseSettings,
  fn: (client: SqlClient) => Promise<T>,
): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    // The migrator waits for another process's migrations and may run long statements: no time limit.
    if (settings.statementTimeoutMs > 0) await client.query('set statement_timeout = 0');
    const result = await fn({
      query: async <R = Record<string, unknown>>(text: string, params?: unknown[]) => ({
        rows: (await client.query(text, params)).rows as R[],
      }),
      exec: async (text) => {
        await client.query(text);
      },
    });
    if (settings.statementTimeoutMs > 0) await client.query('reset statement_timeout');
    return result;
  } catch (err) {
    // A client whose session state is unknown (timeout left at 0, a lock held) is not given back.
    broken = err as Error;
    throw err;
  } finally {
    client.release(broken);
  }
}
