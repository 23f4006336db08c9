/**
 * The storefront GraphQL client against a real HTTP server on 127.0.0.1 (node:http): what goes on the
 * wire, what comes back, and how failures surface.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createClient, GraphQLRequestError, type ClientConfig } from '../../src/graphql/client';
import { loadDocument } from '../../src/graphql/registry';

interface Seen {
  method: string;
  headers: IncomingMessage['headers'];
  body: { query?: string; variables?: Record<string, unknown>; operationName?: string };
}

type Handler = (seen: Seen, res: ServerResponse) => void;

let server: Server;
let endpoint: string;
let handler: Handler;
const seen: Seen[] = [];

function json(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const entry: Seen = { method: req.method ?? '', headers: req.headers, body: raw ? JSON.parse(raw) : {} };
      seen.push(entry);
      handler(entry, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}/graphql`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

afterEach(() => {
  seen.length = 0;
  vi.restoreAllMocks();
  delete (globalThis as { window?: unknown }).window;
});

const client = (config: Partial<ClientConfig> = {}) => createClient({ endpoint, retryDelayMs: 1, ...config });

describe('operation lookup', () => {
  it('refuses an unknown operation name without any request', async () => {
    handler = (_, res) => json(res, 200, { data: {} });
    // @ts-expect-error: not an operation of the spec
    await expect(client().request('getEverything')).rejects.toThrow('Invalid GraphQL Operation');
    // @ts-expect-error: inherited object keys are not operations either
    await expect(client().request('constructor')).rejects.toThrow('Invalid GraphQL Operation');
    expect(seen).toHaveLength(0);
  });

  it('sends the registered document, its name and the variables by POST', async () => {
    handler = (_, res) => json(res, 200, { data: { product: null } });
    const data = await client().request('getProduct', { slug: 'lora-gateway' });
    expect(data).toEqual({ product: null });
    expect(seen).toHaveLength(1);
    expect(seen[0]?.method).toBe('POST');
    expect(seen[0]?.body.query).toBe(await loadDocument('getProduct'));
    expect(seen[0]?.body.operationName).toBe('getProduct');
    expect(seen[0]?.body.variables).toEqual({ slug: 'lora-gateway' });
  });
});

describe('session and auth headers', () => {
  it('sends the session token with the Session prefix and the auth token as Bearer', async () => {
    handler = (_, res) => json(res, 200, { data: { cart: null } });
    await client({ getSessionToken: () => 'sess.jwt', getAuthToken: () => 'auth.jwt' }).request('getCart');
    expect(seen[0]?.headers['woocommerce-session']).toBe('Session sess.jwt');
    expect(seen[0]?.headers.authorization).toBe('Bearer auth.jwt');
  });

  it('sends neither header when no token is known', async () => {
    handler = (_, res) => json(res, 200, { data: { cart: null } });
    await client({ getSessionToken: () => null, getAuthToken: () => undefined }).request('getCart');
    expect(seen[0]?.headers['woocommerce-session']).toBeUndefined();
    expect(seen[0]?.headers.authorization).toBeUndefined();
  });

  it('reads the tokens at request time, so stores plugged in later are used', async () => {
    handler = (_, res) => json(res, 200, { data: { cart: null } });
    let token: string | null = null;
    const shared = client({ getSessionToken: () => token });
    await shared.request('getCart');
    token = 'later.jwt';
    await shared.request('getCart');
    shared.configure({ getAuthToken: () => 'plugged.jwt' });
    await shared.request('getCart');
    expect(seen.map((s) => s.headers['woocommerce-session'])).toEqual([
      undefined,
      'Session later.jwt',
      'Session later.jwt',
    ]);
    expect(seen[2]?.headers.authorization).toBe('Bearer plugged.jwt');
  });

  it('stores the session token from the response header', async () => {
    handler = (_, res) => json(res, 200, { data: { cart: null } }, { 'woocommerce-session': 'fresh.jwt' });
    const setSessionToken = vi.fn();
    await client({ setSessionToken }).request('getCart');
    expect(setSessionToken).toHaveBeenCalledWith('fresh.jwt');
  });

  it('stores a session token issued with an error response too', async () => {
    handler = (_, res) =>
      json(
        res,
        200,
        { data: null, errors: [{ message: 'invalid_token: Expired token' }] },
        { 'woocommerce-session': 'new.jwt' },
      );
    const setSessionToken = vi.fn();
    await expect(client({ setSessionToken }).request('getCart')).rejects.toThrow('invalid_token: Expired token');
    expect(setSessionToken).toHaveBeenCalledWith('new.jwt');
  });

  it('does not call setSessionToken when the response has no session header', async () => {
    handler = (_, res) => json(res, 200, { data: { cart: null } });
    const setSessionToken = vi.fn();
    await client({ setSessionToken }).request('getCart');
    expect(setSessionToken).not.toHaveBeenCalled();
  });

  it('awaits beforeRequest before reading the tokens, so a refreshed auth token goes out', async () => {
    handler = (_, res) => json(res, 200, { data: { cart: null } });
    let authToken = 'expired.jwt';
    const prepared: string[] = [];
    const beforeRequest = async (name: string) => {
      prepared.push(name);
      await new Promise((resolve) => setTimeout(resolve, 5));
      authToken = 'refreshed.jwt';
    };
    await client({ getAuthToken: () => authToken, beforeRequest }).request('getCart');
    expect(prepared).toEqual(['getCart']);
    expect(seen[0]?.headers.authorization).toBe('Bearer refreshed.jwt');
  });

  it('sends the request with the tokens as they are when beforeRequest fails', async () => {
    handler = (_, res) => json(res, 200, { data: { cart: null } });
    const beforeRequest = () => Promise.reject(new Error('offline'));
    await client({ getAuthToken: () => 'auth.jwt', beforeRequest }).request('getCart');
    expect(seen[0]?.headers.authorization).toBe('Bearer auth.jwt');
  });

  it('withSession: false sends no session token and keeps none from the answer', async () => {
    handler = (_, res) => json(res, 200, { data: { refreshToken: null } }, { 'woocommerce-session': 'guest.jwt' });
    const setSessionToken = vi.fn();
    await client({ getSessionToken: () => 'customer.jwt', setSessionToken }).request(
      'refreshToken',
      { refreshToken: 'r' },
      { withSession: false },
    );
    expect(seen[0]?.headers['woocommerce-session']).toBeUndefined();
    expect(setSessionToken).not.toHaveBeenCalled();
  });
});

describe('errors', () => {
  it('uses the first GraphQL error message of a 200 response', async () => {
    handler = (_, res) =>
      json(res, 200, {
        data: { applyCoupon: null },
        errors: [
          { message: 'Coupon &quot;x&quot; cannot be applied because it does not exist.' },
          { message: 'second' },
        ],
      });
    const failure = await client()
      .request('applyCoupon', { code: 'x' })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(GraphQLRequestError);
    expect((failure as GraphQLRequestError).message).toBe(
      'Coupon &quot;x&quot; cannot be applied because it does not exist.',
    );
    expect((failure as GraphQLRequestError).errors).toHaveLength(2);
    expect((failure as GraphQLRequestError).operationName).toBe('applyCoupon');
  });

  it.each([400, 401, 403, 404, 422, 500, 599])(
    'HTTP %i with a GraphQL error body → its first message',
    async (status) => {
      handler = (_, res) => json(res, status, { errors: [{ message: `api says ${status}` }] });
      const failure = (await client()
        .request('getProducts')
        .catch((error: unknown) => error)) as GraphQLRequestError;
      expect(failure).toBeInstanceOf(GraphQLRequestError);
      expect(failure.message).toBe(`api says ${status}`);
      expect(failure.status).toBe(status);
    },
  );

  it.each([400, 404, 500, 503])(
    'HTTP %i without a GraphQL body → a generic message with the status',
    async (status) => {
      handler = (_, res) => {
        res.writeHead(status, { 'content-type': 'text/html' });
        res.end('<h1>Oops</h1>');
      };
      const failure = (await client({ retries: 0 })
        .request('getProducts')
        .catch((error: unknown) => error)) as GraphQLRequestError;
      expect(failure).toBeInstanceOf(GraphQLRequestError);
      expect(failure.message).toContain(String(status));
      expect(failure.message).not.toContain('Oops');
      expect(failure.status).toBe(status);
    },
  );

  it('an unreadable 200 response is an error naming the status', async () => {
    handler = (_, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html>proxy login</html>');
    };
    const failure = (await client()
      .request('getProducts')
      .catch((error: unknown) => error)) as GraphQLRequestError;
    expect(failure).toBeInstanceOf(GraphQLRequestError);
    expect(failure.message).toContain('200');
  });

  it('a refused connection is an error that says the API could not be reached', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const failure = (await createClient({ endpoint: `http://127.0.0.1:${port}/graphql`, retries: 0 })
      .request('getProducts')
      .catch((error: unknown) => error)) as GraphQLRequestError;
    expect(failure).toBeInstanceOf(GraphQLRequestError);
    expect(failure.message).toMatch(/could not reach the API/);
  });
});

describe('retries', () => {
  it('retries a configured status and succeeds when the server recovers', async () => {
    let calls = 0;
    handler = (_, res) => {
      calls++;
      if (calls < 3) json(res, 503, { errors: [{ message: 'busy' }] });
      else json(res, 200, { data: { products: null } });
    };
    await expect(client({ retries: 2, retryStatuses: [503] }).request('getProducts')).resolves.toEqual({
      products: null,
    });
    expect(seen).toHaveLength(3);
  });

  it('stops after the configured number of retries and reports the last failure', async () => {
    handler = (_, res) => json(res, 502, { errors: [{ message: 'bad gateway' }] });
    await expect(client({ retries: 3, retryStatuses: [502] }).request('getProducts')).rejects.toThrow('bad gateway');
    expect(seen).toHaveLength(4);
  });

  it('does not retry a status that is not configured', async () => {
    handler = (_, res) => json(res, 500, { errors: [{ message: 'boom' }] });
    await expect(client({ retries: 3, retryStatuses: [502, 503, 504] }).request('getProducts')).rejects.toThrow('boom');
    expect(seen).toHaveLength(1);
  });

  it('retries the default statuses 502, 503 and 504', async () => {
    for (const status of [502, 503, 504]) {
      seen.length = 0;
      handler = (_, res) => json(res, status, { errors: [{ message: 'gateway' }] });
      await expect(client({ retries: 1 }).request('getProducts')).rejects.toThrow('gateway');
      expect(seen).toHaveLength(2);
    }
  });

  it('waits with growing backoff between attempts', async () => {
    handler = (_, res) => json(res, 503, { errors: [{ message: 'busy' }] });
    const started = Date.now();
    await expect(client({ retries: 2, retryDelayMs: 40 }).request('getProducts')).rejects.toThrow('busy');
    // 40 ms + 80 ms of backoff at least
    expect(Date.now() - started).toBeGreaterThanOrEqual(115);
    expect(seen).toHaveLength(3);
  });

  it('does not repeat a mutation unless retryMutations is set', async () => {
    handler = (_, res) => json(res, 504, { errors: [{ message: 'timeout upstream' }] });
    await expect(client({ retries: 2 }).request('EmptyCart')).rejects.toThrow('timeout upstream');
    expect(seen).toHaveLength(1);
    seen.length = 0;
    await expect(client({ retries: 2, retryMutations: true }).request('EmptyCart')).rejects.toThrow('timeout upstream');
    expect(seen).toHaveLength(3);
  });
});

describe('timeout', () => {
  it("rejects with an error named 'TimeoutError' when the server is too slow", async () => {
    handler = (_, res) => setTimeout(() => json(res, 200, { data: { products: null } }), 400);
    const failure = (await client({ timeoutMs: 60 })
      .request('getProducts')
      .catch((error: unknown) => error)) as Error;
    expect(failure).toBeInstanceOf(Error);
    expect(failure.name).toBe('TimeoutError');
  });

  it('also times out when headers arrive but the body stalls', async () => {
    handler = (_, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"data":');
      setTimeout(() => res.end('{"products":null}}'), 400);
    };
    const failure = (await client({ timeoutMs: 80 })
      .request('getProducts')
      .catch((error: unknown) => error)) as Error;
    expect(failure.name).toBe('TimeoutError');
  });

  it('a per-call timeout overrides the configured one', async () => {
    handler = (_, res) => setTimeout(() => json(res, 200, { data: { products: null } }), 150);
    await expect(client({ timeoutMs: 50 }).request('getProducts', {}, { timeoutMs: 2_000 })).resolves.toEqual({
      products: null,
    });
  });

  it('a caller abort is not reported as a timeout', async () => {
    handler = (_, res) => setTimeout(() => json(res, 200, { data: { products: null } }), 300);
    const controller = new AbortController();
    const pending = client({ timeoutMs: 5_000 }).request('getProducts', {}, { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('island unmounted')), 30);
    const failure = (await pending.catch((error: unknown) => error)) as Error;
    expect(failure.name).not.toBe('TimeoutError');
    expect(failure.message).toBe('island unmounted');
  });
});

describe('debug logging', () => {
  it('logs nothing without a debug query parameter (and nothing outside a browser)', async () => {
    handler = (_, res) => json(res, 200, { data: { products: null } });
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    await client().request('getProducts', { first: 3 });
    (globalThis as { window?: unknown }).window = { location: { search: '?page=2', href: 'http://shop.test/?page=2' } };
    await client().request('getProducts', { first: 3 });
    expect(debug).not.toHaveBeenCalled();
  });

  it('logs operation, variables and timing when the page URL has ?debug, with secrets redacted', async () => {
    handler = (_, res) => json(res, 200, { data: { login: null } });
    (globalThis as { window?: unknown }).window = { location: { search: '?debug', href: 'http://shop.test/?debug' } };
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    await client().request('login', { username: 'ada', password: 'hunter2hunter2' });
    expect(debug).toHaveBeenCalledTimes(1);
    const [label, detail] = debug.mock.calls[0] as [string, Record<string, unknown>];
    expect(label).toMatch(/^\[graphql\] login \d+ ms$/);
    expect(detail.variables).toEqual({ username: 'ada', password: '[redacted]' });
    expect(detail.status).toBe(200);
    expect(JSON.stringify(debug.mock.calls)).not.toContain('hunter2');
  });

  it('logs failures too when debugging', async () => {
    handler = (_, res) => json(res, 500, { errors: [{ message: 'boom' }] });
    (globalThis as { window?: unknown }).window = { location: { search: '?a=1&debug=1', href: 'http://shop.test/' } };
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => {});
    await expect(client().request('getProducts')).rejects.toThrow('boom');
    expect(debug).toHaveBeenCalledTimes(1);
    expect(debug.mock.calls[0]?.[0]).toMatch(/getProducts failed/);
  });
});

describe('endpoint', () => {
  it('resolves a relative endpoint against the page in a browser', async () => {
    handler = (_, res) => json(res, 200, { data: { allowedCountries: ['DE'] } });
    const origin = new URL(endpoint).origin;
    (globalThis as { window?: unknown }).window = { location: { search: '', href: `${origin}/de/shop/` } };
    await expect(createClient({ endpoint: '/graphql' }).request('getAllowedCountries')).resolves.toEqual({
      allowedCountries: ['DE'],
    });
    expect(seen).toHaveLength(1);
  });
});
