/**
 * The build-time executor used by Astro pages (never by islands): runs the spec's named operations while
 * pages are prerendered.
 *
 *   const { products } = await buildRequestIn('en-US')('getProducts', { first: 24 });
 *
 * - COMMERCE_GRAPHQL_URL set → HTTP POST to that endpoint through the shared client (same error, retry and
 *   timeout rules as the browser; no session or auth headers, no debug logging).
 * - otherwise → in-process execution against Meshfront's own engine, imported on first use so pages that
 *   need no data never load it.
 *
 * Any failure (HTTP error, GraphQL error, engine failure) rejects with a `BuildFetchError` that names the
 * operation, its variables and the source, so the build stops with a message that says what to fix.
 */
import { createClient, INVALID_OPERATION, type Client } from './client';
import { isOperationName, loadDocument, type OperationName } from './registry';
import type { OperationResult, OperationVariables } from './shapes';

/** The engine's in-process entry point (src/server/http/yoga). */
export type ExecuteInProcess = (
  query: string,
  variables?: Record<string, unknown>,
  headers?: Record<string, string>,
) => Promise<{ data?: unknown; errors?: readonly { message: string }[] }>;

export interface BuildExecutorOptions {
  /** HTTP endpoint; default process.env.COMMERCE_GRAPHQL_URL. Empty → in-process. */
  url?: string;
  /** Loads the engine for in-process execution (tests inject one). */
  loadEngine?: () => Promise<{ executeInProcess: ExecuteInProcess }>;
  /**
   * The language of the answers (its BCP 47 tag, sent as Accept-Language): the engine gives catalog texts —
   * names, descriptions, categories, attribute and term names — in it, English where one is not translated.
   */
  language?: string;
  /** HTTP only. */
  timeoutMs?: number;
  retries?: number;
  retryDelayMs?: number;
}

export class BuildFetchError extends Error {
  override name = 'BuildFetchError';
  readonly operationName: string;
  constructor(operationName: string, message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.operationName = operationName;
  }
}

export type BuildRequest = <N extends OperationName>(
  operationName: N,
  ...args: Record<string, never> extends OperationVariables<N>
    ? [variables?: OperationVariables<N>]
    : [variables: OperationVariables<N>]
) => Promise<OperationResult<N>>;

const loadOwnEngine = () => import('../server/http/yoga');

export function createBuildExecutor(options: BuildExecutorOptions = {}): BuildRequest {
  const url = (options.url ?? process.env.COMMERCE_GRAPHQL_URL ?? '').trim();
  const source = url ? `the GraphQL API at ${url} (COMMERCE_GRAPHQL_URL)` : 'the in-process commerce engine';
  const languageHeaders: Record<string, string> = options.language ? { 'accept-language': options.language } : {};
  let http: Client | undefined;
  let engine: Promise<ExecuteInProcess> | undefined;

  const getEngine = () => {
    // Typed assignment: once the engine exists, tsc checks its executeInProcess against ExecuteInProcess.
    const load: () => Promise<{ executeInProcess: ExecuteInProcess }> = options.loadEngine ?? loadOwnEngine;
    engine ??= load()
      .then((module) => {
        if (typeof module.executeInProcess !== 'function') {
          throw new Error('src/server/http/yoga does not export executeInProcess');
        }
        return module.executeInProcess;
      })
      .catch((error: unknown) => {
        engine = undefined;
        throw error;
      });
    return engine;
  };

  return async function buildRequest<N extends OperationName>(
    operationName: N,
    ...[variables]: Record<string, never> extends OperationVariables<N>
      ? [variables?: OperationVariables<N>]
      : [variables: OperationVariables<N>]
  ): Promise<OperationResult<N>> {
    if (!isOperationName(operationName)) throw new Error(INVALID_OPERATION);
    const fail = (reason: string, cause?: unknown) =>
      new BuildFetchError(
        operationName,
        `Build data fetch failed: ${operationName}(${JSON.stringify(variables ?? {})}) from ${source}: ${reason}`,
        cause,
      );

    if (url) {
      http ??= createClient({
        endpoint: url,
        timeoutMs: options.timeoutMs ?? 30_000,
        retries: options.retries ?? 2,
        retryDelayMs: options.retryDelayMs ?? 500,
        debug: () => false,
      });
      try {
        return (await http.request<OperationName>(
          operationName,
          variables as never,
          { headers: languageHeaders } as never,
        )) as OperationResult<N>;
      } catch (error) {
        throw fail(error instanceof Error ? error.message : String(error), error);
      }
    }

    let result: Awaited<ReturnType<ExecuteInProcess>>;
    try {
      const [execute, document] = await Promise.all([getEngine(), loadDocument(operationName)]);
      result = await execute(document, (variables ?? {}) as Record<string, unknown>, languageHeaders);
    } catch (error) {
      throw fail(error instanceof Error ? error.message : String(error), error);
    }
    if (result.errors && result.errors.length > 0) {
      throw fail(result.errors[0]?.message || 'the engine returned an error without a message', result.errors);
    }
    if (result.data === undefined || result.data === null) throw fail('the engine returned no data');
    return result.data as OperationResult<N>;
  };
}

const languageExecutors = new Map<string, BuildRequest>();

/**
 * Runs operations at build time for the pages of one language (a BCP 47 tag such as "de-DE"; the source is
 * chosen from COMMERCE_GRAPHQL_URL on first use): the catalog's texts come back translated, so each
 * locale's prebuilt pages carry its own product names and descriptions.
 */
export function buildRequestIn(language: string): BuildRequest {
  let executor = languageExecutors.get(language);
  if (!executor) {
    executor = createBuildExecutor({ language });
    languageExecutors.set(language, executor);
  }
  return executor;
}
