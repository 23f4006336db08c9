/**
 * Boots a real engine (migrations, seed from tests/fixtures/catalog-small) on a fresh database and talks
 * to it through yoga.fetch with real GraphQL documents and headers — the same path HTTP requests take.
 */
import { loadConfig, type ServerConfig } from '../../src/server/config.ts';
import { createEngine, type Engine } from '../../src/server/engine/index.ts';
import { createMeshfrontYoga, type MeshfrontYoga } from '../../src/server/http/yoga.ts';
import { createTestDatabase, type TestDatabase } from '../fixtures/db.ts';
import { FIXTURE_CATALOG, TEST_ENGINE_SECRETS } from '../fixtures/test-engine-settings.ts';

/** Creating a PGlite database runs initdb: slow on a busy 2-core machine, so engine start gets more than vitest's default hook time. */
export const ENGINE_START_TIMEOUT_MS = 180_000;

export { FIXTURE_CATALOG };

export type GqlResponse<T = any> = {
  status: number;
  headers: Headers;
  body: { data?: T; errors?: { message: string; path?: string[]; extensions?: Record<string, unknown> }[] };
};

export type TestEngine = {
  engine: Engine;
  config: ServerConfig;
  yoga: MeshfrontYoga;
  database: TestDatabase;
  /** POST a GraphQL document. */
  gql<T = any>(
    query: string,
    variables?: Record<string, unknown>,
    headers?: Record<string, string>,
  ): Promise<GqlResponse<T>>;
  /** Raw request to /graphql (any method, headers, body). */
  fetch(init: RequestInit & { path?: string }): Promise<Response>;
  /** data of a query that must succeed without errors. */
  data<T = any>(query: string, variables?: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
};

export async function startTestEngine(
  options: { env?: Record<string, string>; catalogDir?: string } = {},
): Promise<TestEngine> {
  // An engine that would seed the fixture catalog into its own new database starts from the run's seeded copy.
  const env = options.env ?? {};
  const seedsFixture =
    (options.catalogDir ?? FIXTURE_CATALOG) === FIXTURE_CATALOG &&
    env.MESHFRONT_SEED_ON_START !== 'false' &&
    !env.MESHFRONT_DATA_DIR;
  const database = await createTestDatabase({ from: seedsFixture ? 'seeded' : 'migrated' });
  const config = loadConfig({
    NODE_ENV: 'test',
    MESHFRONT_CATALOG_DIR: options.catalogDir ?? FIXTURE_CATALOG,
    ...TEST_ENGINE_SECRETS,
    CORS_ORIGINS: 'http://shop.test',
    ...database.env,
    ...options.env,
  });
  const engine = await createEngine(config, { log: () => {} });
  const yoga = createMeshfrontYoga(async () => engine, config);
  const fetchRaw = ({ path: p = '/graphql', ...init }: RequestInit & { path?: string }) =>
    Promise.resolve(yoga.fetch(`http://meshfront.test${p}`, init));
  const gql = async <T>(
    query: string,
    variables: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ): Promise<GqlResponse<T>> => {
    const r = await fetchRaw({
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
      body: JSON.stringify({ query, variables }),
    });
    const text = await r.text();
    let body: GqlResponse<T>['body'];
    try {
      body = JSON.parse(text);
    } catch {
      throw new Error(`Non-JSON response ${r.status}: ${text.slice(0, 500)}`);
    }
    return { status: r.status, headers: r.headers, body };
  };
  return {
    engine,
    config,
    yoga,
    database,
    gql,
    fetch: fetchRaw,
    async data<T>(query: string, variables?: Record<string, unknown>) {
      const r = await gql<T>(query, variables);
      if (r.body.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(r.body.errors)}`);
      return r.body.data as T;
    },
    async close() {
      await engine.close();
      await database.drop();
    },
  };
}
