/**
 * The storefront's one GraphQL client (graphql-request 7). Islands call `request(name, variables)` with the
 * name of one of the spec's operations; the document is looked up in the registry (loaded lazily, so an
 * island downloads only what it uses). The build uses the same client for HTTP through build.ts.
 *
 *   configureClient({ getSessionToken, setSessionToken, getAuthToken })   // once, from the session store
 *   const { product } = await request('getStockStatus', { slug });
 *
 * Wire rules between storefront and engine:
 * - first awaits `beforeRequest` (the session store refreshes a due auth token there), then sends
 *   `woocommerce-session: Session <token>` when a session token is known and
 *   `Authorization: Bearer <token>` when an auth token is known;
 * - sends `Accept-Language` with the page's language (the BCP 47 tag of `<html lang>`, which the page
 *   layout sets from its locale; `language` overrides it), so the engine writes prices, payment and
 *   shipping names and its messages in the shopper's language;
 * - stores the bare token of a `woocommerce-session` response header through `setSessionToken`
 *   (neither sent nor stored for a call made with `withSession: false`);
 * - HTTP 400–599 and GraphQL errors reject with a `GraphQLRequestError` whose message is the API's first
 *   error message, or a generic one naming the status code;
 * - retries only the configured statuses (queries only, unless `retryMutations`), a bounded number of
 *   times with exponential backoff; a request that takes longer than `timeoutMs` (headers and body)
 *   rejects with an error named 'TimeoutError';
 * - logs operation, variables (secrets redacted), status and timing with console.debug only when the page
 *   URL has a `debug` query parameter.
 */
import { ClientError, GraphQLClient } from 'graphql-request';
import { isOperationName, loadDocument, type OperationName } from './registry';
import type { OperationResult, OperationVariables } from './shapes';
import {
  apiFailure,
  attemptDeadline,
  DEFAULT_ENDPOINT,
  INVALID_OPERATION,
  LANGUAGE_TAG,
  pageHasDebugParam,
  pageLanguage,
  redactVariables,
  resolveEndpoint,
  SESSION_HEADER,
  TimeoutError,
  unreachable,
  unreadableResponse,
  type ApiError,
} from './wire';

export {
  GraphQLRequestError,
  INVALID_OPERATION,
  TimeoutError,
} from './wire';

export interface ClientConfig {
  /** GraphQL endpoint; relative URLs resolve against the page. Default PUBLIC_API_BASE or '/graphql'. */
  endpoint: string;
  /** Per attempt, covering response headers and body. */
  timeoutMs: number;
  /** HTTP statuses worth another attempt (gateway/proxy hiccups). */
  retryStatuses: readonly number[];
  /** Extra attempts after the first one. */
  retries: number;
  /** Backoff before retry n (0-based) is retryDelayMs × 2^n. */
  retryDelayMs: number;
  /**
   * Retry mutations too. Off by default: a 502/504 may come after the engine already applied the mutation
   * (e.g. placed the order), and repeating it is not safe.
   */
  retryMutations: boolean;
  getSessionToken: () => string | null | undefined;
  setSessionToken: (token: string) => void;
  getAuthToken: () => string | null | undefined;
  /**
   * Awaited before the tokens are read for a request; an error it throws is ignored (the request goes
   * out with the tokens as they are). The session store refreshes a due auth token here: the engine
   * serves a customer's session only with a valid login, so a request with an expired one would be
   * answered as a guest's.
   */
  beforeRequest?: (operationName: OperationName) => Promise<unknown> | undefined;
  /**
   * The language the answers are wanted in, as a BCP 47 tag ("de-DE"), sent as Accept-Language; default:
   * the page's `<html lang>` in the browser, none elsewhere (the engine then answers in English).
   */
  language?: () => string | null | undefined;
  /** The fetch to use (default: the global one). */
  fetch?: typeof fetch;
  /** Whether to log debug detail; default: the page URL has a `debug` query parameter. */
  debug?: () => boolean;
}

export interface RequestOptions {
  /** Cancels the request (e.g. when an island unmounts); rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /** Overrides the configured timeout for this call. */
  timeoutMs?: number;
  /**
   * false: send no session token and keep none the answer brings (a call that is not about the
   * shopper's session, such as the auth token refresh, must not start or replace one). Default true.
   */
  withSession?: boolean;
}

const DEFAULTS: ClientConfig = {
  endpoint: DEFAULT_ENDPOINT,
  timeoutMs: 15_000,
  retryStatuses: [502, 503, 504],
  retries: 2,
  retryDelayMs: 300,
  retryMutations: false,
  getSessionToken: () => null,
  setSessionToken: () => {},
  getAuthToken: () => null,
};

const isMutationDocument = (document: string) => /^\s*mutation\b/m.test(document);

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Variables are optional exactly when the operation has no required variable. */
export type RequestArgs<N extends OperationName> =
  Record<string, never> extends OperationVariables<N>
    ? [variables?: OperationVariables<N>, options?: RequestOptions]
    : [variables: OperationVariables<N>, options?: RequestOptions];

export interface Client {
  request<N extends OperationName>(operationName: N, ...args: RequestArgs<N>): Promise<OperationResult<N>>;
  /** Changes settings; unspecified settings keep their current value. */
  configure(changes: Partial<ClientConfig>): void;
  /** The settings in force (a copy). */
  readonly config: Readonly<ClientConfig>;
}

export function createClient(initial: Partial<ClientConfig> = {}): Client {
  let config: ClientConfig = { ...DEFAULTS, ...initial };

  async function request<N extends OperationName>(
    operationName: N,
    ...args: RequestArgs<N>
  ): Promise<OperationResult<N>> {
    const [variables, options = {}] = args as [OperationVariables<N> | undefined, RequestOptions | undefined];
    if (!isOperationName(operationName)) throw new Error(INVALID_OPERATION);
    const settings = config;
    const document = await loadDocument(operationName);
    const timeoutMs = options.timeoutMs ?? settings.timeoutMs;
    const retries = !isMutationDocument(document) || settings.retryMutations ? Math.max(0, settings.retries) : 0;
    const fetchImpl = settings.fetch ?? globalThis.fetch.bind(globalThis);

    if (settings.beforeRequest) {
      try {
        await settings.beforeRequest(operationName);
      } catch {
        // Preparation is best effort: the request goes out with the tokens as they are.
      }
    }
    const withSession = options.withSession !== false;
    const headers: Record<string, string> = { ...options.headers };
    const language = (settings.language ?? pageLanguage)();
    const hasLanguage = Object.keys(headers).some((name) => name.toLowerCase() === 'accept-language');
    if (!hasLanguage && language && LANGUAGE_TAG.test(language)) headers['Accept-Language'] = language;
    const sessionToken = withSession ? settings.getSessionToken() : null;
    if (sessionToken) headers[SESSION_HEADER] = `Session ${sessionToken}`;
    const authToken = settings.getAuthToken();
    if (authToken) headers.Authorization = `Bearer ${authToken}`;

    let lastStatus: number | undefined;
    let attempts = 0;

    /** One attempt with its own timeout; the body is read inside the timeout window. */
    async function attempt(url: RequestInfo | URL, init: RequestInit): Promise<Response> {
      const deadline = attemptDeadline(timeoutMs, options.signal);
      try {
        const response = await fetchImpl(url, { ...init, signal: deadline.signal });
        const body = await response.text();
        return new Response(response.status === 204 || response.status === 304 ? null : body, {
          status: response.status,
          statusText: response.statusText,
          headers: response.headers,
        });
      } catch (error) {
        if (deadline.timedOut) throw new TimeoutError(operationName, timeoutMs);
        throw error;
      } finally {
        deadline.dispose();
      }
    }

    const fetchWithPolicy = async (url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      for (let retry = 0; ; retry++) {
        attempts++;
        const response = await attempt(url, init ?? {});
        lastStatus = response.status;
        const issued = withSession ? response.headers.get(SESSION_HEADER) : null;
        if (issued) settings.setSessionToken(issued.replace(/^Session\s+/i, '').trim());
        if (retry < retries && settings.retryStatuses.includes(response.status)) {
          await sleep(settings.retryDelayMs * 2 ** retry);
          continue;
        }
        return response;
      }
    };

    const client = new GraphQLClient(resolveEndpoint(settings.endpoint), {
      fetch: fetchWithPolicy,
      headers,
    });

    const debug = settings.debug ? settings.debug() : pageHasDebugParam();
    const started = Date.now();
    try {
      const data = await client.request<OperationResult<N>>(document, variables as Record<string, unknown>);
      if (debug) {
        console.debug(`[graphql] ${operationName} ${Date.now() - started} ms`, {
          variables: redactVariables(variables),
          status: lastStatus,
          attempts,
        });
      }
      return data;
    } catch (error) {
      const failure = normalizeError(error, operationName, lastStatus, options.signal);
      if (debug) {
        console.debug(`[graphql] ${operationName} failed after ${Date.now() - started} ms`, {
          variables: redactVariables(variables),
          status: lastStatus,
          attempts,
          error: failure.message,
        });
      }
      throw failure;
    }
  }

  return {
    request,
    configure(changes) {
      config = { ...config, ...changes };
    },
    get config() {
      return { ...config };
    },
  };
}

function normalizeError(
  error: unknown,
  operationName: string,
  status: number | undefined,
  signal?: AbortSignal,
): Error {
  if (error instanceof TimeoutError) return error;
  // The caller cancelled: hand back its own reason untouched.
  if (signal?.aborted) return error instanceof Error ? error : new Error(String(signal.reason));
  if (error instanceof ClientError) {
    const errors = Array.isArray(error.response.errors) ? (error.response.errors as unknown as ApiError[]) : [];
    return apiFailure(operationName, error.response.status ?? status, errors);
  }
  // A response arrived but was not a GraphQL result (e.g. an HTML error page with status 200).
  if (status !== undefined) return unreadableResponse(operationName, status, error);
  return unreachable(operationName, error);
}

const defaultClient = createClient();

/** Sends one of the spec's operations with the shared configuration. */
export const request: Client['request'] = (operationName, ...args) => defaultClient.request(operationName, ...args);

/** Plugs the session/auth stores (and settings) into the shared client. */
export function configureClient(changes: Partial<ClientConfig>): void {
  defaultClient.configure(changes);
}

export type { OperationName } from './registry';
