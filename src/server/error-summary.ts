/**
 * One line about an error for the server log, without the data the error may carry. A failed database
 * statement's error holds the whole statement and its parameters (drizzle's "Failed query: … params: …"),
 * i.e. the customer's name, e-mail and address when an order insert fails; PostgreSQL's own messages quote
 * the offending value ('invalid input syntax for type integer: "…"'). Logs must never hold such data, so
 * this keeps what helps to find the fault — the error's class, PostgreSQL's SQLSTATE code and the names of
 * the constraint, table and column involved — and the message with every quoted part and anything that
 * looks like an e-mail address blanked out.
 */

/** The most of a message a log line keeps. */
const MAX_MESSAGE_CHARS = 300;

type ErrorLike = {
  name?: unknown;
  message?: unknown;
  cause?: unknown;
  originalError?: unknown;
  query?: unknown;
  params?: unknown;
  code?: unknown;
  constraint?: unknown;
  table?: unknown;
  column?: unknown;
};

/** A message with quoted values and e-mail addresses blanked out, on one line, cut to a bounded length. */
export function redactMessage(message: string): string {
  const firstLine = message.split('\n', 1)[0] ?? '';
  const redacted = firstLine
    .replace(/"[^"]*"|'[^']*'|“[^”]*”|‘[^’]*’|`[^`]*`/g, '"…"')
    .replace(/[^\s@"'<>()[\]\\,;:]+@[^\s@"'<>()[\]\\,;:]+/g, '<email>');
  return redacted.length > MAX_MESSAGE_CHARS ? `${redacted.slice(0, MAX_MESSAGE_CHARS)}…` : redacted;
}

/** A database driver's error: PostgreSQL's five-character SQLSTATE code. */
const isDatabaseError = (e: ErrorLike) => typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code);

/** A failed drizzle statement: it carries the statement text and its parameters. */
const isFailedQuery = (e: ErrorLike) => typeof e.query === 'string' && 'params' in e;

const nameOf = (e: ErrorLike) => (typeof e.name === 'string' && e.name ? e.name : 'Error');

function describe(error: unknown, depth: number): string {
  if (!error || typeof error !== 'object') return typeof error === 'string' ? redactMessage(error) : typeof error;
  const e = error as ErrorLike;
  // GraphQL wraps what a resolver threw: the thrown error is the one worth describing.
  if (depth < 5 && e.originalError && typeof e.originalError === 'object') return describe(e.originalError, depth + 1);
  const cause =
    depth < 5 && e.cause && typeof e.cause === 'object' ? `; caused by ${describe(e.cause, depth + 1)}` : '';
  // PostgreSQL's own error first: PGlite's carries the statement and parameters as well.
  if (isDatabaseError(e)) {
    const names = (['constraint', 'table', 'column'] as const)
      .filter((k) => typeof e[k] === 'string' && e[k])
      .map((k) => `${k} ${String(e[k])}`);
    return `database error ${String(e.code)}${names.length ? ` (${names.join(', ')})` : ''}: ${redactMessage(String(e.message ?? ''))}${cause}`;
  }
  if (isFailedQuery(e)) return `a database statement failed${cause}`;
  return `${nameOf(e)}: ${redactMessage(String(e.message ?? ''))}${cause}`;
}

/** The error in one line for the log: class, database codes and a redacted message, causes included. */
export function errorSummary(error: unknown): string {
  return describe(error, 0);
}

/** The error's stack frames ("at …" lines: code locations, never data), without its message. */
export function stackFrames(error: unknown, max = 12): string[] {
  let e = error as ErrorLike & { stack?: unknown };
  for (let i = 0; i < 5 && e?.originalError && typeof e.originalError === 'object'; i++)
    e = e.originalError as typeof e;
  const stack = typeof e?.stack === 'string' ? e.stack : '';
  return (
    stack
      .split('\n')
      // Only lines that point at code (": line:column" at the end); a message line that merely starts like a
      // frame (a value with a line break in it) is not one.
      .filter((line) => /^\s+at [^"'@]*:\d+:\d+\)?$/.test(line))
      .slice(0, max)
      .map((line) => line.trim())
  );
}
