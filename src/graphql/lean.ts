/**
 * The lean read path: one public query (no session, no login) as a plain `fetch` POST, for what a page
 * must know before anyone interacts with it — the live price and stock of a prebuilt product page. It
 * costs ~1 KB instead of graphql-request and its parser (~16 KB gzip), which islands load with the
 * full client (client.ts) on the first interaction.
 *
 *   const { product } = await queryPublic('getStockStatus', { slug }, { signal });
 *
 * Same documents (the registry), the same error types and messages as client.ts. Mutations are
 * refused: they need the session header and the client's retry rules.
 */
import { isOperationName, loadDocument, type OperationName } from './registry';
import type { OperationResult, OperationVariables } from './shapes';
import {
  apiFailure,
  attemptDeadline,
  DEFAULT_ENDPOINT,
  GraphQLRequestError,
  INVALID_OPERATION,
  LANGUAGE_TAG,
  pageLanguage,
  resolveEndpoint,
  TimeoutError,
  unreachable,
  unreadableResponse,
  type ApiError,
} from './wire';

export interface PublicQueryOptions {
  signal?: AbortSignal;
  /** Default 10 s, covering headers and body. */
  timeoutMs?: number;
  /** Default PUBLIC_API_BASE or '/graphql'. */
  endpoint?: string;
  fetch?: typeof fetch;
}

export async function queryPublic<N extends OperationName>(
  operationName: N,
  variables: OperationVariables<N>,
  options: PublicQueryOptions = {},
): Promise<OperationResult<N>> {
  if (!isOperationName(operationName)) throw new Error(INVALID_OPERATION);
  const document = await loadDocument(operationName);
  if (!/^\s*query\b/m.test(document) || /^\s*mutation\b/m.test(document)) {
    throw new Error(`${operationName} is not a query: send it with request() from src/graphql/client.ts.`);
  }
  const timeoutMs = options.timeoutMs ?? 10_000;
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const deadline = attemptDeadline(timeoutMs, options.signal);

  let status: number | undefined;
  try {
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      accept: 'application/graphql-response+json, application/json',
    };
    // The engine writes prices in the language asked for: without it a German page's live price would
    // come back English ("€25.00") and replace the prebuilt "25,00 €".
    const language = pageLanguage();
    if (language && LANGUAGE_TAG.test(language)) headers['accept-language'] = language;
    const response = await fetchImpl(resolveEndpoint(options.endpoint ?? DEFAULT_ENDPOINT), {
      method: 'POST',
      headers,
      body: JSON.stringify({ query: document, operationName, variables }),
      signal: deadline.signal,
    });
    status = response.status;
    const text = await response.text();
    let body: { data?: unknown; errors?: unknown };
    try {
      body = JSON.parse(text) as typeof body;
    } catch (cause) {
      throw unreadableResponse(operationName, status, cause);
    }
    const errors = Array.isArray(body.errors) ? (body.errors as ApiError[]) : [];
    if (errors.length > 0 || status >= 400 || !body.data) throw apiFailure(operationName, status, errors);
    return body.data as OperationResult<N>;
  } catch (error) {
    if (error instanceof GraphQLRequestError) throw error;
    if (deadline.timedOut) throw new TimeoutError(operationName, timeoutMs);
    // The caller cancelled: hand back its own reason untouched.
    if (options.signal?.aborted) throw error;
    throw unreachable(operationName, error, status);
  } finally {
    deadline.dispose();
  }
}
