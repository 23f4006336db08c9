/**
 * The build-time executor: HTTP to COMMERCE_GRAPHQL_URL (a real local server) or the in-process engine
 * (injected here; the real one is src/server/http/yoga), and build-stopping errors.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { BuildFetchError, createBuildExecutor, type ExecuteInProcess } from '../../src/graphql/build';
import { loadDocument } from '../../src/graphql/registry';

let server: Server;
let url: string;
let respond: (body: { query: string; variables: unknown }) => { status: number; body: unknown };
const headersSeen: Record<string, string | string[] | undefined>[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk) => (raw += chunk));
    req.on('end', () => {
      headersSeen.push(req.headers);
      const { status, body } = respond(JSON.parse(raw));
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const engine = (execute: ExecuteInProcess) => () => Promise.resolve({ executeInProcess: execute });

describe('build executor over HTTP (COMMERCE_GRAPHQL_URL)', () => {
  it('posts the composed document and returns data, without session or auth headers', async () => {
    let query = '';
    respond = (body) => {
      query = body.query;
      return { status: 200, body: { data: { productCategories: { nodes: [] } } } };
    };
    const run = createBuildExecutor({ url });
    await expect(run('getProductCategories', { first: 10 })).resolves.toEqual({ productCategories: { nodes: [] } });
    expect(query).toBe(await loadDocument('getProductCategories'));
    const last = headersSeen.at(-1) ?? {};
    expect(last['woocommerce-session']).toBeUndefined();
    expect(last.authorization).toBeUndefined();
  });

  it('reads COMMERCE_GRAPHQL_URL from the environment', async () => {
    respond = () => ({ status: 200, body: { data: { allowedCountries: ['DE', 'FR'] } } });
    vi.stubEnv('COMMERCE_GRAPHQL_URL', url);
    try {
      const loadEngine = vi.fn();
      await expect(createBuildExecutor({ loadEngine })('getAllowedCountries')).resolves.toEqual({
        allowedCountries: ['DE', 'FR'],
      });
      expect(loadEngine).not.toHaveBeenCalled();
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it('fails the build with the operation, the source and the API message', async () => {
    respond = () => ({ status: 200, body: { data: null, errors: [{ message: 'Cannot query field "nope"' }] } });
    const failure = (await createBuildExecutor({ url })('getProduct', { slug: 'x' }).catch((e: unknown) => e)) as Error;
    expect(failure).toBeInstanceOf(BuildFetchError);
    expect(failure.message).toContain('getProduct');
    expect(failure.message).toContain('"slug":"x"');
    expect(failure.message).toContain(url);
    expect(failure.message).toContain('Cannot query field "nope"');
  });

  it('fails the build on an HTTP error with the status code', async () => {
    respond = () => ({ status: 500, body: { nothing: true } });
    await expect(createBuildExecutor({ url, retries: 0 })('getProducts')).rejects.toThrow(/500/);
  });
});

describe('build executor in process', () => {
  it('runs the composed document through the engine with the variables', async () => {
    const execute = vi.fn<ExecuteInProcess>(async () => ({ data: { product: { name: 'Gateway' } } }));
    const run = createBuildExecutor({ url: '', loadEngine: engine(execute) });
    await expect(run('getProduct', { slug: 'gateway' })).resolves.toEqual({ product: { name: 'Gateway' } });
    expect(execute).toHaveBeenCalledWith(await loadDocument('getProduct'), { slug: 'gateway' }, {});
  });

  it("asks in the pages' language, so catalog texts come back translated", async () => {
    const execute = vi.fn<ExecuteInProcess>(async () => ({ data: { product: { name: 'Gateway' } } }));
    await createBuildExecutor({ url: '', loadEngine: engine(execute), language: 'de-DE' })('getProduct', {
      slug: 'gateway',
    });
    expect(execute).toHaveBeenCalledWith(
      await loadDocument('getProduct'),
      { slug: 'gateway' },
      {
        'accept-language': 'de-DE',
      },
    );
  });

  it('loads the engine once', async () => {
    const loadEngine = vi.fn(engine(async () => ({ data: { allowedCountries: [] } })));
    const run = createBuildExecutor({ url: '', loadEngine });
    await run('getAllowedCountries');
    await run('getAllowedCountries');
    expect(loadEngine).toHaveBeenCalledTimes(1);
  });

  it('fails the build with the first GraphQL error of the engine', async () => {
    const run = createBuildExecutor({
      url: '',
      loadEngine: engine(async () => ({ errors: [{ message: 'Unknown argument "foo"' }, { message: 'second' }] })),
    });
    const failure = (await run('getProducts', { first: 24 }).catch((e: unknown) => e)) as Error;
    expect(failure).toBeInstanceOf(BuildFetchError);
    expect(failure.message).toMatch(
      /^Build data fetch failed: getProducts\(\{"first":24\}\) from the in-process commerce engine: Unknown argument "foo"$/,
    );
  });

  it('fails the build when the engine cannot be loaded or throws', async () => {
    const broken = createBuildExecutor({ url: '', loadEngine: () => Promise.reject(new Error('database locked')) });
    await expect(broken('getProducts')).rejects.toThrow(/in-process commerce engine: database locked/);
    const throwing = createBuildExecutor({
      url: '',
      loadEngine: engine(() => Promise.reject(new Error('relation "products" does not exist'))),
    });
    await expect(throwing('getProducts')).rejects.toThrow(/relation "products" does not exist/);
  });

  it('fails the build when the engine returns no data', async () => {
    const run = createBuildExecutor({ url: '', loadEngine: engine(async () => ({})) });
    await expect(run('getProducts')).rejects.toThrow(/no data/);
  });

  it('refuses an unknown operation', async () => {
    const run = createBuildExecutor({ url: '', loadEngine: engine(async () => ({ data: {} })) });
    // @ts-expect-error: not an operation of the spec
    await expect(run('dropTables')).rejects.toThrow('Invalid GraphQL Operation');
  });
});
