/**
 * The admin GraphQL endpoint, /api/admin/graphql: its own Yoga instance and schema, so no admin type or
 * field is ever part of the storefront's /graphql (nor of its trusted documents). Who asks comes from
 * `Authorization: Bearer <authToken>` (the same login as the storefront's); every field then requires
 * the shop-manager role (resolvers.ts). In production (TRUSTED_DOCUMENTS_ONLY) only the admin documents
 * in src/server/admin/operations/*.graphql run here — the admin UI's own operations — and nobody may
 * introspect the schema; elsewhere only shop managers may (introspection.ts). GraphiQL only outside
 * production.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { GraphQLError } from 'graphql';
import { createSchema, createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import type { ServerConfig } from '../config.ts';
import type { Engine } from '../engine/index.ts';
import { socketAddressOf } from '../auth/plugin.ts';
import { armorPlugins, bodyTooLarge, maskUnexpectedErrors, useNoIntrospection } from '../http/yoga.ts';
import { useRequestErrorsWithoutInput } from '../http/request-errors.ts';
import { markPersonal } from '../http/cache-policy.ts';
import { loadTrustedDocuments } from '../http/trusted-documents.ts';
import { errorLogger, useErrorLogContext } from '../http/error-log.ts';
import { clientAddress, rateLimitKeyForIp } from '../rate-limit/index.ts';
import { useAdminIntrospectionForManagers } from './introspection.ts';
import { adminResolvers, type AdminContext } from './resolvers.ts';
import { adminTypeDefs } from './schema.ts';
import { adminServiceFor } from './service.ts';

export const ADMIN_GRAPHQL_PATH = '/api/admin/graphql';

/** Where the admin operation documents are (next to this module from source; ./src/server/admin/operations in a bundle). */
export function adminOperationsDir(): string {
  const here = path.join(path.dirname(fileURLToPath(import.meta.url)), 'operations');
  return (
    process.env.MESHFRONT_ADMIN_OPERATIONS_DIR ??
    (here.includes(`${path.sep}src${path.sep}server${path.sep}admin`)
      ? here
      : path.resolve('src/server/admin/operations'))
  );
}

export type AdminYoga = YogaServerInstance<Record<string, unknown>, AdminContext>;

/** Base64 image uploads make admin bodies larger than the storefront's; still bounded. */
const MAX_ADMIN_BODY_BYTES = 12 * 1024 * 1024;

function useAdminTrustedDocuments(dir: string): Plugin {
  const docs = loadTrustedDocuments(dir);
  return {
    onParams({ params }) {
      if (!params.query || !docs.allows(params.query)) {
        throw new GraphQLError(
          'Invalid GraphQL Operation: only the admin’s own operations are accepted by this endpoint.',
          {
            extensions: { code: 'PERSISTED_QUERY_NOT_ALLOWED', http: { status: 400 } },
          },
        );
      }
    },
  };
}

const adminSchema = createSchema<AdminContext>({ typeDefs: adminTypeDefs, resolvers: adminResolvers as never });

export function createAdminYoga(
  engine: () => Promise<Engine>,
  config: ServerConfig,
  options: { operationsDir?: string } = {},
): AdminYoga {
  const plugins: Plugin[] = [
    {
      onRequest({ request, endResponse }) {
        const length = Number(request.headers.get('content-length') ?? 0);
        if (length > MAX_ADMIN_BODY_BYTES) {
          endResponse(bodyTooLarge(MAX_ADMIN_BODY_BYTES));
        }
      },
    },
    // Every answer of this endpoint is a shop manager's own view of orders and customers: no cache keeps one.
    {
      onResponse({ response }) {
        markPersonal(response.headers);
      },
    },
    ...armorPlugins({ ...config.limits, maxDepth: Math.max(config.limits.maxDepth, 8) }, config),
    useErrorLogContext(),
  ];
  if (config.trustedDocumentsOnly)
    plugins.push(useAdminTrustedDocuments(options.operationsDir ?? adminOperationsDir()));
  // Production: nobody introspects the admin schema; elsewhere only shop managers do (introspection.ts).
  plugins.push(config.introspection ? (useAdminIntrospectionForManagers() as Plugin) : useNoIntrospection());
  plugins.push(useRequestErrorsWithoutInput());
  return createYoga<Record<string, unknown>, AdminContext>({
    graphqlEndpoint: ADMIN_GRAPHQL_PATH,
    schema: adminSchema as never,
    context: async ({ request, ...rest }) => {
      const e = await engine();
      const ip = rateLimitKeyForIp(clientAddress(request, socketAddressOf(rest), e.accounts.clientAddress));
      const auth = await e.accounts.auth.authenticate(request.headers.get('authorization'), ip);
      return { engine: e, admin: adminServiceFor(e), auth, request };
    },
    plugins,
    maskedErrors: maskUnexpectedErrors('an admin GraphQL'),
    graphiql: !config.isProduction,
    landingPage: false,
    batching: false,
    // Same-origin only: the admin UI is served by this server; no CORS headers for other origins.
    cors: false,
    logging: config.env === 'test' ? false : errorLogger(),
  });
}

let shared: AdminYoga | null = null;

/** The process-wide admin endpoint (engine and settings from the environment). */
export async function getAdminYoga(): Promise<AdminYoga> {
  if (!shared) {
    const [{ getEngine }, { getConfig }] = await Promise.all([import('../engine/index.ts'), import('../config.ts')]);
    shared = createAdminYoga(getEngine, getConfig());
  }
  return shared;
}
