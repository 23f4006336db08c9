/**
 * Which failures mean "the database cannot be used right now" rather than "this request is wrong", so a
 * request caught by them is answered with a retryable error instead of "Unexpected error." (http/yoga.ts)
 * and /ready reports the process as not ready (http/health.ts):
 *
 * - `unavailable`: the connection is gone or cannot be made (PostgreSQL restarted, stopped, unreachable,
 *   out of connections, shutting down), or a statement ran past DATABASE_STATEMENT_TIMEOUT_MS. Nothing of
 *   the request's transaction was committed (a lost COMMIT answer excepted, which no client can tell).
 * - `read-only`: the embedded database refuses changes because its disk is full or read-only
 *   (pglite-storage.ts); reads still work.
 *
 * Errors arrive wrapped (drizzle's "Failed query" error, GraphQL's originalError), so causes are followed.
 */

/** The embedded database's disk is full or read-only: changes are refused, reads go on. */
export class DatabaseReadOnlyError extends Error {
  override name = 'DatabaseReadOnlyError';
  readonly code = '53100';
}

/** The database cannot be reached or used at the moment; the same request may work a few seconds later. */
export class DatabaseUnavailableError extends Error {
  override name = 'DatabaseUnavailableError';
}

export type DatabaseFault = 'unavailable' | 'read-only';

/** Node's socket errors on the way to the database server. */
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENETDOWN',
  'EAI_AGAIN',
]);

/** PostgreSQL's SQLSTATEs for a server that is going away, starting, full of connections, or too slow. */
const UNAVAILABLE_SQLSTATES = new Set([
  '57P01', // admin_shutdown (pg_ctl stop / restart -m fast)
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, in recovery)
  '53300', // too_many_connections
  '57014', // query_canceled (statement_timeout)
  '25P03', // idle_in_transaction_session_timeout
]);

/** node-postgres's and pg-pool's own words for a lost or unobtainable connection. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /timeout exceeded when trying to connect/,
  /is not queryable/,
  /^Cannot use a pool after calling end on the pool/,
];

type ErrorLike = { name?: unknown; code?: unknown; message?: unknown; cause?: unknown; originalError?: unknown };

function faultOf(error: unknown, depth: number): DatabaseFault | null {
  if (!error || typeof error !== 'object' || depth > 6) return null;
  if (error instanceof DatabaseReadOnlyError) return 'read-only';
  if (error instanceof DatabaseUnavailableError) return 'unavailable';
  const e = error as ErrorLike;
  // Compared by name too: the server bundle and the sources may each hold a copy of this module.
  if (e.name === 'DatabaseReadOnlyError') return 'read-only';
  if (e.name === 'DatabaseUnavailableError') return 'unavailable';
  const code = typeof e.code === 'string' ? e.code : '';
  if (NETWORK_CODES.has(code)) return 'unavailable';
  if (/^08[0-9A-Z]{3}$/.test(code) || UNAVAILABLE_SQLSTATES.has(code)) return 'unavailable';
  const message = typeof e.message === 'string' ? e.message : '';
  if (UNAVAILABLE_MESSAGES.some((pattern) => pattern.test(message))) return 'unavailable';
  if (Array.isArray((e as { errors?: unknown }).errors))
    for (const inner of (e as { errors: unknown[] }).errors) {
      const found = faultOf(inner, depth + 1);
      if (found) return found;
    }
  return faultOf(e.originalError, depth + 1) ?? faultOf(e.cause, depth + 1);
}

/** What kind of database fault `error` (or an error it wraps) is, or null for any other error. */
export function databaseFault(error: unknown): DatabaseFault | null {
  return faultOf(error, 0);
}
