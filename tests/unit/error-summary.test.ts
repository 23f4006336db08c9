// What the server log keeps of an error: its class, PostgreSQL's code and the names of the constraint,
// table and column, and a message without quoted values or e-mail addresses — never a failed statement's
// parameters (the customer's billing details when an order insert fails).
import { describe, expect, it } from 'vitest';
import { errorSummary, redactMessage, stackFrames } from '../../src/server/error-summary.ts';

/** A failed drizzle statement, as drizzle-orm builds it: the statement and its parameters in the message. */
function failedStatement(cause: Error) {
  const e = new Error(
    `Failed query: insert into "orders" ("billing") values ($1)\nparams: {"email":"jane.doe@example.com","address1":"Secret Lane 5"}`,
  ) as Error & { query: string; params: unknown[]; cause: unknown };
  e.query = 'insert into "orders" ("billing") values ($1)';
  e.params = [{ email: 'jane.doe@example.com', address1: 'Secret Lane 5' }];
  e.cause = cause;
  return e;
}

describe('errorSummary', () => {
  it('names a failed statement and its PostgreSQL error, without the parameters or the quoted value', () => {
    const pg = Object.assign(new Error('invalid input syntax for type integer: "jane.doe@example.com"'), {
      name: 'error',
      code: '22P02',
      table: 'orders',
      column: 'total_cents',
    });
    const text = errorSummary(failedStatement(pg));
    expect(text).toBe(
      'a database statement failed; caused by database error 22P02 (table orders, column total_cents): invalid input syntax for type integer: "…"',
    );
    expect(text).not.toMatch(/jane|Secret|params|insert/);
  });

  it('describes the error a GraphQL error wraps, and blanks e-mail addresses and quoted parts of other messages', () => {
    const inner = new TypeError("cannot mail ada@example.com about 'order 12'\nsecond line with more");
    expect(errorSummary({ name: 'GraphQLError', message: 'wrapped', originalError: inner })).toBe(
      'TypeError: cannot mail <email> about "…"',
    );
    expect(redactMessage('x'.repeat(400))).toHaveLength(301);
  });

  it('keeps only stack lines that point at code', () => {
    const e = new Error('boom');
    e.stack =
      'Error: Failed query: …\nparams: ada@example.com\n    at fake (line with "ada@example.com":1:2)\n    at run (/srv/app/src/server/checkout/service.ts:10:5)';
    expect(stackFrames(e)).toEqual(['at run (/srv/app/src/server/checkout/service.ts:10:5)']);
  });
});
