/**
 * The GraphQL endpoint: one Yoga instance per engine with the WooGraphQL session header, query limits
 * (graphql-armor), CORS, introspection policy, trusted documents and masked errors. `getYoga()` is the
 * process-wide instance mounted at /graphql by the Astro route and by `npm run api`.
 */
import { EnvelopArmor } from '@escape.tech/graphql-armor';
import { GraphQLError, type FieldNode, type ValidationContext } from 'graphql';
import { createYoga, maskError as yogaMaskError, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { getConfig, type ServerConfig } from '../config.ts';
import type { GraphQLContext } from '../context.ts';
import { getEngine, type Engine } from '../engine/index.ts';
import { SESSION_HEADER, type SessionState } from '../session/service.ts';
import { issuedSessionHeaders, presentedSession, type SessionCookieSettings } from '../session/cookie.ts';
import { useCatalogResponseCache } from './response-cache.ts';
import { useCachePolicy } from './cache-policy.ts';
import { useAccounts } from '../auth/plugin.ts';
import { loadTrustedDocuments, type TrustedDocuments } from './trusted-documents.ts';
import { useInputGuard } from './input-guard.ts';
import { useRequestErrorsWithoutInput } from './request-errors.ts';
import { errorLogger, logUnexpectedError, useErrorLogContext } from './error-log.ts';
import { databaseFaultError } from './database-errors.ts';
import { requestLocale } from './request-locale.ts';
import { useQueryCostLimit } from './query-cost.ts';
import { useCompiledExecution, type CompiledDocuments } from './compiled-execution.ts';

/** Larger request bodies are refused before parsing (the token limit catches the rest). */
const MAX_BODY_BYTES = 256 * 1024;

export type MeshfrontYoga = YogaServerInstance<Record<string, unknown>, GraphQLContext>;

const badRequest = (message: string, status: number) =>
  new Response(JSON.stringify({ errors: [{ message, extensions: { code: 'BAD_REQUEST' } }] }), {
    status,
    headers: { 'content-type': 'application/json' },
  });

/** The 413 answer for a request body over `limit` bytes (refused before parsing). */
export const bodyTooLarge = (limit: number) => badRequest(`Request body too large (limit ${limit} bytes).`, 413);

/**
 * Yoga's `maskedErrors` setting shared by the storefront and admin endpoints: only GraphQLErrors (bad
 * input, not found …) reach the client; anything else is "Unexpected error." with the detail logged — in
 * every environment, so no stack trace ever leaves the server. `endpoint` names the endpoint in the log,
 * which never holds the request's variables or data the error carries (error-log.ts).
 */
export function maskUnexpectedErrors(endpoint: string) {
  return {
    isDev: false,
    maskError(error: unknown, message: string): Error {
      // GraphQLErrors we throw on purpose (bad input) pass. Compared by name: graphql ships CJS and ESM
      // builds, and Yoga's instanceof check fails when our error comes from the other one.
      const e = error as { name?: string; originalError?: { name?: string } | null };
      if (e?.name === 'GraphQLError' && (!e.originalError || e.originalError.name === 'GraphQLError'))
        return error as Error;
      // A lost or refusing database: a retryable 503 that says so, not "Unexpected error." (database-errors.ts).
      const fault = databaseFaultError(endpoint, error);
      if (fault) return fault;
      const masked = yogaMaskError(error, message, false);
      if (masked !== error) logUnexpectedError(endpoint, error);
      return masked;
    },
  };
}

/**
 * Resolves each request's `woocommerce-session` (the header, or the session cookie: session/cookie.ts) and
 * sends a token back when the session is new or changed — in the header, and in the cookie when the shop
 * hands one out.
 */
function useWooSession(engine: () => Promise<Engine>, sessions: WeakMap<Request, SessionState>): Plugin {
  let cookie: SessionCookieSettings | null = null;
  return {
    async onRequest({ request, endResponse }) {
      if (request.method === 'OPTIONS') return;
      const length = Number(request.headers.get('content-length') ?? 0);
      if (length > MAX_BODY_BYTES) return endResponse(bodyTooLarge(MAX_BODY_BYTES));
      const e = await engine();
      cookie = e.sessions.cookie;
      const presented = presentedSession(request.method, (name) => request.headers.get(name), cookie !== null);
      sessions.set(request, await e.sessions.fromHeader(presented));
    },
    onResponse({ request, response }) {
      const session = sessions.get(request);
      if (!session?.issue) return;
      for (const [name, value] of Object.entries(issuedSessionHeaders(session.token, cookie)))
        if (name === 'set-cookie') response.headers.append(name, value);
        else response.headers.set(name, value);
    },
  };
}

/**
 * Refuses __schema / __type. Written without graphql's instanceof-based helpers: graphql ships CJS and ESM
 * builds and the schema may come from the other one (graphql's own NoSchemaIntrospectionCustomRule breaks then).
 */
export function useNoIntrospection(): Plugin {
  const rule = (context: ValidationContext) => ({
    Field(node: FieldNode) {
      if (node.name.value === '__schema' || node.name.value === '__type') {
        context.reportError(
          new GraphQLError(
            `GraphQL introspection is not allowed on this server, but the query contained ${node.name.value}.`,
            { nodes: [node] },
          ),
        );
      }
    },
  });
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(rule as never);
    },
  };
}

/** With TRUSTED_DOCUMENTS_ONLY, only the storefront's own operation documents run. */
function useTrustedDocuments(docs: TrustedDocuments): Plugin {
  return {
    onParams({ params }) {
      if (!params.query || !docs.allows(params.query)) {
        throw new GraphQLError(
          'Invalid GraphQL Operation: only the storefront’s own operations are accepted by this server.',
          {
            extensions: { code: 'PERSISTED_QUERY_NOT_ALLOWED', http: { status: 400 } },
          },
        );
      }
    },
  };
}

/**
 * The query limits: graphql-armor's depth, alias, directive and token limits, and the engine's own cost
 * limit (query-cost.ts), which counts list fields by the page they can return.
 */
export function armorPlugins(
  limits: ServerConfig['limits'],
  paging: Pick<ServerConfig, 'defaultPageSize' | 'maxPageSize'>,
): Plugin[] {
  const armor = new EnvelopArmor({
    // exposeLimits: the error says which limit and by how much ("Query depth limit of 12 exceeded, found 14.").
    maxDepth: { n: limits.maxDepth, ignoreIntrospection: true, flattenFragments: true, exposeLimits: true },
    maxAliases: { n: limits.maxAliases, exposeLimits: true },
    maxDirectives: { n: limits.maxDirectives, exposeLimits: true },
    maxTokens: { n: limits.maxTokens, exposeLimits: true },
    costLimit: { enabled: false },
    blockFieldSuggestion: { enabled: true },
  });
  return [
    ...(armor.protect().plugins as Plugin[]),
    useQueryCostLimit({
      maxCost: limits.maxCost,
      defaultPageSize: paging.defaultPageSize,
      maxPageSize: paging.maxPageSize,
    }),
  ];
}

export function createMeshfrontYoga(
  engine: () => Promise<Engine>,
  config: ServerConfig,
  options: { compiledDocuments?: CompiledDocuments } = {},
): MeshfrontYoga {
  const sessions = new WeakMap<Request, SessionState>();
  const plugins: Plugin[] = [
    useWooSession(engine, sessions),
    useCachePolicy(),
    useAccounts(engine),
    useInputGuard(),
    ...armorPlugins(config.limits, config),
    useCatalogResponseCache(),
  ];
  plugins.push(useErrorLogContext());
  if (!config.introspection) plugins.push(useNoIntrospection());
  plugins.push(useRequestErrorsWithoutInput());
  // The storefront's documents and the registered clients': the only ones that may run in production, and
  // the ones compiled for fast execution in every mode (compiled-execution.ts).
  const trusted = loadTrustedDocuments(config.operationsDir, config.clientDocumentsDir);
  if (config.trustedDocumentsOnly) {
    if (!trusted.size)
      console.warn(
        `[meshfront] TRUSTED_DOCUMENTS_ONLY is on but ${config.operationsDir} has no operations: every request will be refused.`,
      );
    plugins.push(useTrustedDocuments(trusted));
  }
  plugins.push(...useCompiledExecution((query) => trusted.allows(query), options.compiledDocuments));
  const exposed = [SESSION_HEADER, 'X-JWT-Auth', 'X-JWT-Refresh'];
  return createYoga<Record<string, unknown>, GraphQLContext>({
    graphqlEndpoint: '/graphql',
    schema: async () => (await engine()).schema,
    context: async ({ request }) => {
      const e = await engine();
      const session = sessions.get(request) ?? (await e.sessions.fromHeader(request.headers.get(SESSION_HEADER)));
      return {
        config: e.config,
        catalog: e.catalog,
        sessions: e.sessions,
        cart: e.cart,
        coupons: e.coupons,
        orders: e.orders,
        checkout: e.checkout,
        payments: e.payments,
        invoices: e.invoices,
        storefront: e.storefront,
        session,
        request,
        locale: requestLocale(request),
      } satisfies GraphQLContext;
    },
    plugins,
    maskedErrors: maskUnexpectedErrors('a GraphQL'),
    graphiql: !config.isProduction,
    landingPage: false,
    batching: false,
    cors: (request) => {
      const origin = request.headers.get('origin');
      return {
        origin:
          origin && config.corsOrigins.includes(origin)
            ? origin
            : config.corsOrigins.length
              ? config.corsOrigins[0]
              : 'null',
        credentials: true,
        methods: ['GET', 'POST', 'OPTIONS'],
        allowedHeaders: ['content-type', 'authorization', SESSION_HEADER, 'x-jwt-auth', 'x-jwt-refresh'],
        exposedHeaders: exposed,
        maxAge: 600,
      };
    },
    logging: config.env === 'test' ? false : errorLogger(),
  });
}

let yoga: MeshfrontYoga | null = null;

/** The process-wide Yoga instance (engine from the environment). */
export function getYoga(): MeshfrontYoga {
  yoga ??= createMeshfrontYoga(getEngine, getConfig());
  return yoga;
}

/**
 * Run one GraphQL request through the same pipeline as HTTP (session, limits, errors), without a socket.
 * The storefront's build imports this (src/graphql/build.ts). Resolves with the GraphQL response body.
 */
export async function executeInProcess(
  query: string,
  variables: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): Promise<{
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}> {
  const response = await getYoga().fetch('http://localhost/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return response.json();
}
