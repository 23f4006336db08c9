/**
 * Requests that cannot be read are answered without repeating what was sent. Yoga's request parsers put
 * the JSON parser's own message into the error they return (`extensions.originalError`), and Node's
 * message quotes the body ("Unexpected token 'x', "{"query": …" is not valid JSON"): whatever a client,
 * a proxy or a page sent — a password, a token — came back in the answer and into logs that store
 * answers. A GET whose `variables` or `extensions` parameter is not JSON failed the same way as an
 * unexpected error. Both now get a fixed 400 message that says what is wrong, not what was sent.
 */
import { createGraphQLError, type Plugin } from 'graphql-yoga';

/** GraphQLError-shaped values are compared by shape: graphql ships CJS and ESM builds (see yoga.ts). */
function isGraphQLErrorLike(
  error: unknown,
): error is { name: string; message: string; extensions?: Record<string, unknown> } {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'GraphQLError';
}

const badRequest = (message: string, extensions: Record<string, unknown> = {}) =>
  createGraphQLError(message, { extensions: { ...extensions, code: 'BAD_REQUEST', http: { status: 400 } } });

export function useRequestErrorsWithoutInput(): Plugin {
  return {
    onRequestParse({ requestParser, setRequestParser }) {
      // The built-in parser chosen for this request's method and content type (Yoga runs its parsers'
      // hooks before the plugins it is given).
      if (!requestParser) return;
      setRequestParser(async (request) => {
        try {
          return await requestParser(request);
        } catch (error) {
          // Yoga's own error, kept without the parser's message. Still a 400, whatever the client accepts
          // (a body that is not JSON is the client's mistake, not a GraphQL result).
          if (isGraphQLErrorLike(error)) {
            if (error.extensions && 'originalError' in error.extensions) {
              delete error.extensions.originalError;
              error.extensions.http = { status: 400 };
            }
            throw error;
          }
          if (error instanceof SyntaxError)
            throw badRequest('The variables or extensions parameter is not valid JSON.');
          throw error;
        }
      });
    },
  };
}
