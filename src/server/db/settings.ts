/**
 * How the engine treats its database when the database misbehaves, read from the environment (empty
 * values count as unset) and validated with zod. DATABASE_URL and DATABASE_POOL_SIZE stay in config.ts.
 *
 * PostgreSQL (DATABASE_URL):
 *   DATABASE_CONNECT_TIMEOUT_MS   how long a request waits for a connection — a new one, or a free one
 *                                 of the pool — before it is answered "database unavailable" (default 5000).
 *   DATABASE_STATEMENT_TIMEOUT_MS PostgreSQL's statement_timeout for the engine's connections: a statement
 *                                 (or a lock wait) running longer is cancelled (default 30000; 0 = none).
 *                                 The migrations run without it.
 *   DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS  idle_in_transaction_session_timeout: a transaction left
 *                                 open without a statement this long is ended by the server, so its locks
 *                                 cannot hold up every other process (default 60000; 0 = none).
 *
 * The embedded database (PGlite, no DATABASE_URL):
 *   MESHFRONT_DB_MIN_FREE_MB      free space its filesystem must keep: below it the shop takes no more
 *                                 writes (orders, carts, accounts) and keeps serving pages and catalog
 *                                 reads until space returns (default 64; WAL segments are 16 MB each).
 *   MESHFRONT_DB_STORAGE_CHECK_MS how often, at most, the free space and writability of its directory
 *                                 are looked at (default 1000).
 */
import { z } from 'zod';

export type DatabaseSettings = {
  connectTimeoutMs: number;
  statementTimeoutMs: number;
  idleInTransactionTimeoutMs: number;
  minFreeBytes: number;
  storageCheckMs: number;
};

const envSchema = z.object({
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(30_000),
  DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(0).max(86_400_000).default(60_000),
  MESHFRONT_DB_MIN_FREE_MB: z.coerce.number().int().min(0).max(1_000_000).default(64),
  MESHFRONT_DB_STORAGE_CHECK_MS: z.coerce.number().int().min(50).max(600_000).default(1_000),
});

export function readDatabaseSettings(env: Record<string, string | undefined> = process.env): DatabaseSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success)
    throw new Error(
      `Invalid database settings:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  const e = parsed.data;
  return {
    connectTimeoutMs: e.DATABASE_CONNECT_TIMEOUT_MS,
    statementTimeoutMs: e.DATABASE_STATEMENT_TIMEOUT_MS,
    idleInTransactionTimeoutMs: e.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    minFreeBytes: e.MESHFRONT_DB_MIN_FREE_MB * 1024 * 1024,
    storageCheckMs: e.MESHFRONT_DB_STORAGE_CHECK_MS,
  };
}
