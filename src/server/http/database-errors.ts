/**
 * The answer to a request caught by a database fault (db/unavailable.ts): instead of "Unexpected error."
 * (HTTP 500, logged with its stack), a GraphQL error that says what happened and that trying again is the
 * right thing to do — HTTP 503 with Retry-After, as load balancers and the storefront's client expect:
 *
 *   DATABASE_UNAVAILABLE  the database cannot be reached (restarting, down, overloaded); the request
 *                         changed nothing and may be sent again in a few seconds.
 *   DATABASE_READ_ONLY    the shop's storage is full or read-only: browsing works, changes (orders,
 *                         carts, accounts) are refused until the operator makes room.
 *
 * The storefront shows these in the shopper's language by their code (locales: checkout.error.*).
 * A fault is logged as one line per LOG_EVERY_MS with a count, not per request: an outage would flood
 * the log, and the connection loss itself is logged where it happens (db/postgres.ts).
 */
import { createGraphQLError } from 'graphql-yoga';
import { type DatabaseFault, databaseFault } from '../db/unavailable.ts';
import { errorSummary } from '../error-summary.ts';
import { markLogged } from './error-log.ts';

const DATABASE_UNAVAILABLE_MESSAGE =
  'The shop cannot reach its database at the moment. Nothing was changed; please try again in a few seconds.';
const DATABASE_READ_ONLY_MESSAGE =
  'The shop cannot save changes at the moment (its storage is full or read-only). You can keep browsing; please try again later.';

/** Seconds a client should wait before sending the request again. */
const RETRY_AFTER: Record<DatabaseFault, string> = { unavailable: '5', 'read-only': '60' };
const LOG_EVERY_MS = 10_000;

const counts = new Map<DatabaseFault, { last: number; quiet: number }>();

function logFault(endpoint: string, fault: DatabaseFault, error: unknown): void {
  if (process.env.MESHFRONT_LOG_ERRORS === '0') return;
  const now = Date.now();
  const seen = counts.get(fault) ?? { last: 0, quiet: 0 };
  counts.set(fault, seen);
  if (now - seen.last < LOG_EVERY_MS) {
    seen.quiet++;
    return;
  }
  console.error(
    `[meshfront] ${endpoint} request answered "database ${fault}": ${errorSummary(error)}${seen.quiet ? ` (${seen.quiet} more since the last message)` : ''}`,
  );
  seen.last = now;
  seen.quiet = 0;
}

/** The retryable GraphQL error for a database fault, or null when `error` is no database fault. */
export function databaseFaultError(endpoint: string, error: unknown): Error | null {
  const fault = databaseFault(error);
  if (!fault) return null;
  logFault(endpoint, fault, error);
  markLogged(error);
  const source = error as { nodes?: never; path?: readonly (string | number)[] };
  return createGraphQLError(fault === 'read-only' ? DATABASE_READ_ONLY_MESSAGE : DATABASE_UNAVAILABLE_MESSAGE, {
    nodes: source.nodes,
    path: source.path,
    extensions: {
      code: fault === 'read-only' ? 'DATABASE_READ_ONLY' : 'DATABASE_UNAVAILABLE',
      http: { status: 503, headers: { 'Retry-After': RETRY_AFTER[fault] } },
    },
  });
}
