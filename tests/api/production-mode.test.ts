// What a shop owner gets from `npm start` with nothing configured (no NODE_ENV, no keys): production
// mode. GraphiQL is not served, neither endpoint can be introspected by a guest, only the storefront's own
// documents run, a request that is not JSON is refused without repeating what it carried, the bot check
// is the self-hosted one, and the secrets are generated into the data directory (owner-only) and kept
// across restarts. `npm run dev` (astro dev sets NODE_ENV=development) keeps GraphiQL and introspection,
// and even there only a shop manager may introspect the admin schema.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_INTROSPECTION_FORBIDDEN } from '../../src/server/admin/introspection.ts';
import { createAdminYoga, type AdminYoga } from '../../src/server/admin/yoga.ts';
import { readBotCheckSettings } from '../../src/server/bot-check/index.ts';
import { loadConfig, type ServerConfig } from '../../src/server/config.ts';
import { composeOperations } from '../../src/server/http/trusted-documents.ts';
import { createMeshfrontYoga, type MeshfrontYoga } from '../../src/server/http/yoga.ts';
import { ADMIN_OPERATIONS_DIR, startAdminEngine, type AdminTestEngine } from './admin-helpers.ts';
import { ENGINE_START_TIMEOUT_MS } from './harness.ts';

const OPERATIONS_DIR = path.resolve(import.meta.dirname, '../../src/graphql/operations');
const INTROSPECTION = '{ __schema { queryType { name } types { name } } }';
const SECRET_BODY = '{"query": "{ __typename }", "password": "hunter2-do-not-echo"';

const dataDirs: string[] = [];
function dataDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-prod-'));
  dataDirs.push(dir);
  return dir;
}

let t: AdminTestEngine;
/** The settings `npm start` runs with when nothing is configured: only a data directory. */
let production: ServerConfig;
/** `npm run dev`. */
let development: ServerConfig;
let prod: { storefront: MeshfrontYoga; admin: AdminYoga };
let dev: { storefront: MeshfrontYoga; admin: AdminYoga };

beforeAll(async () => {
  t = await startAdminEngine();
  production = loadConfig({ MESHFRONT_DATA_DIR: dataDir() });
  development = loadConfig({ NODE_ENV: 'development', MESHFRONT_DATA_DIR: dataDir() });
  const engine = async () => t.engine;
  prod = {
    storefront: createMeshfrontYoga(engine, production),
    admin: createAdminYoga(engine, production, { operationsDir: ADMIN_OPERATIONS_DIR }),
  };
  dev = {
    storefront: createMeshfrontYoga(engine, development),
    admin: createAdminYoga(engine, development, { operationsDir: ADMIN_OPERATIONS_DIR }),
  };
}, ENGINE_START_TIMEOUT_MS);

afterAll(async () => {
  await t?.close();
  for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
});

type Endpoint = 'storefront' | 'admin';
const url = (endpoint: Endpoint) =>
  endpoint === 'storefront' ? 'http://shop.test/graphql' : 'http://shop.test/api/admin/graphql';

async function post(yogas: typeof prod, endpoint: Endpoint, query: string, token?: string) {
  const r = await yogas[endpoint].fetch(url(endpoint), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({ query }),
  });
  return {
    status: r.status,
    body: (await r.json()) as {
      data?: Record<string, any> | null;
      errors?: { message: string; extensions?: Record<string, unknown> }[];
    },
  };
}

async function openInBrowser(yogas: typeof prod, endpoint: Endpoint) {
  const r = await yogas[endpoint].fetch(url(endpoint), { headers: { accept: 'text/html' } });
  return { status: r.status, type: r.headers.get('content-type') ?? '', text: await r.text() };
}

describe('settings of `npm start` with nothing configured', () => {
  it('are production settings: trusted documents, no introspection, the self-hosted bot check', () => {
    expect(production).toMatchObject({
      env: 'production',
      isProduction: true,
      introspection: false,
      trustedDocumentsOnly: true,
      corsOrigins: [],
    });
    expect(readBotCheckSettings({})).toMatchObject({ env: 'production', mode: 'altcha' });
    // `npm run dev` keeps the conveniences.
    expect(development).toMatchObject({
      env: 'development',
      isProduction: false,
      introspection: true,
      trustedDocumentsOnly: false,
    });
    expect(readBotCheckSettings({ NODE_ENV: 'development' }).mode).toBe('off');
  });

  it('generate the session secret into the data directory, readable by the owner only, and keep it across restarts', () => {
    const dir = dataDir();
    const first = loadConfig({ MESHFRONT_DATA_DIR: dir });
    const file = path.join(dir, 'session-secret');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8').trim()).toBe(first.sessionSecret);
    expect(first.sessionSecret.length).toBeGreaterThanOrEqual(32);
    const restarted = loadConfig({ MESHFRONT_DATA_DIR: dir });
    expect(restarted.sessionSecret).toBe(first.sessionSecret);
    // A copy with looser permissions is made private again.
    fs.chmodSync(file, 0o644);
    expect(loadConfig({ MESHFRONT_DATA_DIR: dir }).sessionSecret).toBe(first.sessionSecret);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('require the secret to be configured with PostgreSQL, where several processes must share it', () => {
    expect(() => loadConfig({ MESHFRONT_DATA_DIR: dataDir(), DATABASE_URL: 'postgres://u@h/db' })).toThrow(
      /SESSION_SECRET: required in production with DATABASE_URL/,
    );
  });
});

describe('production: the storefront endpoint /graphql', () => {
  it('serves no GraphiQL page to a browser', async () => {
    const r = await openInBrowser(prod, 'storefront');
    expect(r.type).not.toMatch(/text\/html/);
    expect(r.text).not.toMatch(/graphiql/i);
  });

  it('refuses introspection and any document that is not one of the storefront’s own', async () => {
    const introspect = await post(prod, 'storefront', INTROSPECTION);
    expect(introspect.body.data?.__schema).toBeUndefined();
    expect(introspect.body.errors?.[0]?.message).toMatch(/^Invalid GraphQL Operation/);
    const arbitrary = await post(prod, 'storefront', '{ products(first: 1) { nodes { id name } } }');
    expect(arbitrary.status).toBe(400);
    expect(arbitrary.body.errors?.[0]?.message).toMatch(
      /^Invalid GraphQL Operation: only the storefront’s own operations/,
    );
    // Even where an operator allows other documents, introspection stays off unless asked for.
    const open = createMeshfrontYoga(
      async () => t.engine,
      loadConfig({ MESHFRONT_DATA_DIR: dataDir(), TRUSTED_DOCUMENTS_ONLY: 'false' }),
    );
    const r = await open.fetch(url('storefront'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: INTROSPECTION }),
    });
    const body = (await r.json()) as { data?: unknown; errors?: { message: string }[] };
    expect(body.data).toBeUndefined();
    expect(body.errors?.[0]?.message).toMatch(/introspection is not allowed/);
  });

  it('runs the storefront’s own documents', async () => {
    const getProducts = composeOperations(OPERATIONS_DIR).find((o) => o.name === 'getProducts')!;
    const r = await post(prod, 'storefront', print(getProducts.document));
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data?.products?.nodes?.length).toBeGreaterThan(0);
  });
});

describe('production: the admin endpoint /api/admin/graphql', () => {
  it('serves no GraphiQL page and refuses introspection, even to a shop manager', async () => {
    const page = await openInBrowser(prod, 'admin');
    expect(page.type).not.toMatch(/text\/html/);
    expect(page.text).not.toMatch(/graphiql/i);
    for (const token of [undefined, t.customerToken, t.managerToken]) {
      const r = await post(prod, 'admin', INTROSPECTION, token);
      expect(r.body.data?.__schema).toBeUndefined();
      expect(r.body.errors?.length).toBeGreaterThan(0);
    }
  });
});

describe('requests that are not JSON', () => {
  for (const [name, yogas] of [
    ['production', () => prod],
    ['development', () => dev],
  ] as const) {
    for (const endpoint of ['storefront', 'admin'] as const) {
      it(`are refused without repeating the body (${name}, ${endpoint})`, async () => {
        const r = await yogas()[endpoint].fetch(url(endpoint), {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: SECRET_BODY,
        });
        const text = await r.text();
        expect(r.status).toBe(400);
        expect(text).not.toContain('hunter2');
        expect(text).not.toContain('password');
        expect(JSON.parse(text).errors[0].message).toBe('POST body sent invalid JSON.');

        const get = await yogas()[endpoint].fetch(
          `${url(endpoint)}?query=${encodeURIComponent('{ __typename }')}&variables=${encodeURIComponent('{"card": "4242-4242')}`,
          { headers: { accept: 'application/json' } },
        );
        const getText = await get.text();
        expect(get.status).toBe(400);
        expect(getText).not.toContain('4242');
        expect(JSON.parse(getText).errors[0].message).toBe('The variables or extensions parameter is not valid JSON.');
      });
    }
  }
});

describe('development (`npm run dev`)', () => {
  it('keeps GraphiQL on both endpoints', async () => {
    for (const endpoint of ['storefront', 'admin'] as const) {
      const page = await openInBrowser(dev, endpoint);
      expect(page.status).toBe(200);
      expect(page.type).toMatch(/text\/html/);
      expect(page.text).toMatch(/graphiql/i);
    }
  });

  it('lets anyone introspect the storefront schema, but only a shop manager the admin schema', async () => {
    expect((await post(dev, 'storefront', INTROSPECTION)).body.data?.__schema.queryType.name).toBe('RootQuery');
    for (const token of [undefined, t.customerToken]) {
      const r = await post(dev, 'admin', INTROSPECTION, token);
      expect(r.status).toBe(403);
      expect(r.body.data ?? undefined).toBeUndefined();
      expect(r.body.errors?.[0]).toMatchObject({
        message: ADMIN_INTROSPECTION_FORBIDDEN,
        extensions: { code: 'FORBIDDEN' },
      });
      // Also when the introspection hides in a fragment or next to a harmless field.
      const hidden = await post(
        dev,
        'admin',
        'query { __typename ...F } fragment F on Query { __type(name: "Query") { fields { name } } }',
        token,
      );
      expect(hidden.body.errors?.[0]?.message).toBe(ADMIN_INTROSPECTION_FORBIDDEN);
    }
    const manager = await post(dev, 'admin', INTROSPECTION, t.managerToken);
    expect(manager.body.errors).toBeUndefined();
    expect(manager.body.data?.__schema.types.length).toBeGreaterThan(10);
  });
});
