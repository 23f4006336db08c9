/**
 * What every path to the GraphQL endpoint shares: the wire constants, the error types callers check
 * with instanceof, and small helpers. Kept apart from graphql-request so the lean read path (lean.ts)
 * can use them without downloading it. Everything here is re-exported by client.ts.
 */
export const INVALID_OPERATION = 'Invalid GraphQL Operation';
export const SESSION_HEADER = 'woocommerce-session';

/** The endpoint islands talk to: PUBLIC_API_BASE, or '/graphql'. */
export const DEFAULT_ENDPOINT =
  (import.meta as { env?: Record<string, string | undefined> }).env?.PUBLIC_API_BASE || '/graphql';

export interface ApiError {
  message: string;
  path?: readonly (string | number)[];
  extensions?: Record<string, unknown>;
}

/** A failed request: HTTP 400–599, GraphQL errors, an unreadable response or a network failure. */
export class GraphQLRequestError extends Error {
  override name = 'GraphQLRequestError';
  readonly operationName: string;
  /** HTTP status, when a response arrived. */
  readonly status: number | undefined;
  /** The API's GraphQL errors, when it sent any. */
  readonly errors: readonly ApiError[];

  constructor(
    message: string,
    details: { operationName: string; status?: number; errors?: readonly ApiError[]; cause?: unknown },
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.operationName = details.operationName;
    this.status = details.status;
    this.errors = details.errors ?? [];
  }
}

/** The request took longer than the configured timeout. */
export class TimeoutError extends Error {
  override name = 'TimeoutError';
  constructor(operationName: string, timeoutMs: number) {
    super(`The request ${operationName} timed out after ${timeoutMs} ms. Please try again.`);
  }
}

/** True when the current page URL carries a `debug` query parameter. Never true outside a browser. */
export function pageHasDebugParam(): boolean {
  const location = (globalThis as { window?: { location?: { search?: string } } }).window?.location;
  if (!location || typeof location.search !== 'string') return false;
  return new URLSearchParams(location.search).has('debug');
}

/** The page's language: what the layout wrote into `<html lang>` (none outside a browser). */
export function pageLanguage(): string | null {
  if (typeof document === 'undefined') return null;
  return document.documentElement?.lang || null;
}

/** A BCP 47 tag as a header value may carry it; anything else is not sent. */
export const LANGUAGE_TAG = /^[A-Za-z]{1,8}(?:-[A-Za-z0-9]{1,8})*$/;

const SECRET_KEY = /pass(word)?|secret|token|^key$|^code$/i;

/** Variables as logged: values of secret-looking keys are replaced, at any depth. */
export function redactVariables(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactVariables);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [key, SECRET_KEY.test(key) ? '[redacted]' : redactVariables(inner)]),
    );
  }
  return value;
}

export function firstApiMessage(errors: unknown): string | undefined {
  if (!Array.isArray(errors)) return undefined;
  const message = (errors[0] as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' && message.length > 0 ? message : undefined;
}

export function resolveEndpoint(endpoint: string): string {
  const href = (globalThis as { window?: { location?: { href?: string } } }).window?.location?.href;
  try {
    return new URL(endpoint, href).toString();
  } catch {
    throw new Error(`The GraphQL endpoint "${endpoint}" is not an absolute URL (outside a browser it must be).`);
  }
}

/**
 * One attempt's deadline: `signal` aborts after `timeoutMs` (then `timedOut` is true) or when the caller's
 * signal aborts (with the caller's reason). Call `dispose()` when the attempt is over.
 */
export function attemptDeadline(timeoutMs: number, outer?: AbortSignal) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, timeoutMs);
  const forwardAbort = () => controller.abort(outer?.reason);
  if (outer?.aborted) forwardAbort();
  else outer?.addEventListener('abort', forwardAbort, { once: true });
  return {
    signal: controller.signal,
    get timedOut() {
      return timedOut;
    },
    dispose() {
      clearTimeout(timer);
      outer?.removeEventListener('abort', forwardAbort);
    },
  };
}

/** The API answered with GraphQL errors or HTTP 400–599: its first message, or one naming the status. */
export function apiFailure(
  operationName: string,
  status: number | undefined,
  errors: readonly ApiError[],
): GraphQLRequestError {
  const message = firstApiMessage(errors) ?? `The GraphQL request ${operationName} failed with HTTP status ${status}.`;
  return new GraphQLRequestError(message, { operationName, status, errors });
}

/** A response arrived but was not a GraphQL result (e.g. an HTML error page). */
export function unreadableResponse(operationName: string, status: number, cause: unknown): GraphQLRequestError {
  return new GraphQLRequestError(
    `The GraphQL request ${operationName} got an unreadable response (HTTP status ${status}).`,
    { operationName, status, cause },
  );
}

/** No usable response: the network failed before one arrived. */
export function unreachable(operationName: string, error: unknown, status?: number): GraphQLRequestError {
  const reason = error instanceof Error ? error.message : String(error);
  return new GraphQLRequestError(`The GraphQL request ${operationName} could not reach the API: ${reason}`, {
    operationName,
    status,
    cause: error,
  });
}
