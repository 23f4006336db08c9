/**
 * Refuses GraphQL input text that no database column can hold: PostgreSQL text and jsonb cannot store the
 * NUL character (U+0000) or a lone UTF-16 surrogate (not Unicode), so a name, address or search term
 * containing one would fail deep inside a service with a database error ("Unexpected error."). Checked
 * once per request on the variables and on string literals in the document, with a clear message instead.
 * Variables the schema itself refuses (an Int past 32 bits, a string for a number, an unknown enum value)
 * are the client's input too: their errors say so with the code BAD_USER_INPUT.
 */
import { GraphQLError } from 'graphql';
import type { Plugin } from 'graphql-yoga';

export const BAD_TEXT_MESSAGE = 'Text input must be valid Unicode without the NUL character (\\u0000).';

/** A string PostgreSQL cannot store: contains NUL, or is not well-formed UTF-16 (lone surrogates). */
export function isUnstorableText(value: string): boolean {
  return value.includes('\u0000') || !value.isWellFormed();
}

function containsUnstorableText(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return isUnstorableText(value);
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => containsUnstorableText(v, depth + 1));
  for (const [key, v] of Object.entries(value))
    if (isUnstorableText(key) || containsUnstorableText(v, depth + 1)) return true;
  return false;
}

/** The errors of a result without data: the request's variables did not fit the schema (graphql-js refuses them before running anything). */
function markVariableErrors(result: { data?: unknown; errors?: readonly GraphQLError[] }): GraphQLError[] | null {
  if ('data' in result || !result.errors?.length) return null;
  return result.errors.map((e) =>
    e.extensions?.code
      ? e
      : new GraphQLError(e.message, {
          nodes: e.nodes,
          source: e.source,
          positions: e.positions,
          path: e.path,
          originalError: e.originalError,
          extensions: { ...e.extensions, code: 'BAD_USER_INPUT' },
        }),
  );
}

export function useInputGuard(): Plugin {
  return {
    onExecute() {
      return {
        onExecuteDone({ result, setResult }) {
          if (!('errors' in result)) return;
          const errors = markVariableErrors(result);
          if (errors) setResult({ ...result, errors });
        },
      };
    },
    onParams({ params }) {
      // In the document a NUL can only be the escape \u0000 (a raw one is a syntax error).
      if (
        containsUnstorableText(params.variables) ||
        (typeof params.query === 'string' && /\\u0000/.test(params.query))
      ) {
        throw new GraphQLError(BAD_TEXT_MESSAGE, { extensions: { code: 'BAD_USER_INPUT', http: { status: 400 } } });
      }
    },
  };
}
