/**
 * The product page's live price and stock (src/islands/product/live-stock.ts) and the lean read path it
 * uses (src/graphql/lean.ts), against a real HTTP server on 127.0.0.1.
 */
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { queryPublic } from '../../src/graphql/lean.ts';
import { GraphQLRequestError, TimeoutError } from '../../src/graphql/client.ts';
import {
  $liveProduct,
  LIVE_STOCK_CHANGED,
  liveDiffers,
  mergeLive,
  resetLiveStock,
  startLiveStockCheck,
} from '../../src/islands/product/live-stock.ts';

let server: Server;
let origin: string;
let answer: (
  body: { query?: string; operationName?: string; variables?: Record<string, unknown> },
  res: ServerResponse,
) => void;
const seen: {
  headers: Record<string, unknown>;
  body: { query?: string; operationName?: string; variables?: Record<string, unknown> };
}[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
      seen.push({ headers: req.headers, body });
      answer(body, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

afterEach(() => {
  seen.length = 0;
  resetLiveStock();
  vi.restoreAllMocks();
  delete (globalThis as { window?: unknown }).window;
});

const reply = (status: number, body: unknown) => (_: unknown, res: ServerResponse) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

const simple = {
  databaseId: 7,
  price: '€24.00',
  regularPrice: '€29.00',
  onSale: true,
  stockStatus: 'IN_STOCK' as const,
  stockQuantity: 12,
};

describe('queryPublic (lean read path)', () => {
  it('posts the registered document with the operation name and variables, and no session header', async () => {
    answer = reply(200, { data: { product: simple } });
    const result = await queryPublic('getStockStatus', { slug: 'window-antenna' }, { endpoint: `${origin}/graphql` });
    expect(result.product).toEqual(simple);
    expect(seen[0]?.body.operationName).toBe('getStockStatus');
    expect(seen[0]?.body.variables).toEqual({ slug: 'window-antenna' });
    expect(seen[0]?.body.query).toMatch(/query getStockStatus/);
    expect(seen[0]?.headers['woocommerce-session']).toBeUndefined();
  });

  it('asks in the page’s language, so the engine writes the prices as the page does', async () => {
    answer = reply(200, { data: { product: simple } });
    const page = globalThis as { document?: unknown };
    page.document = { documentElement: { lang: 'de-DE' } };
    try {
      await queryPublic('getStockStatus', { slug: 'window-antenna' }, { endpoint: `${origin}/graphql` });
      // A tag a header cannot carry is left out rather than sent.
      page.document = { documentElement: { lang: 'de DE\r\nx: y' } };
      await queryPublic('getStockStatus', { slug: 'window-antenna' }, { endpoint: `${origin}/graphql` });
    } finally {
      delete page.document;
    }
    expect(seen[0]?.headers['accept-language']).toBe('de-DE');
    // (Node's fetch then sends its own default, "*".)
    expect(seen[1]?.headers['accept-language']).not.toMatch(/de/);
  });

  it("rejects with the API's first error message", async () => {
    answer = reply(200, { data: null, errors: [{ message: 'Product not found' }] });
    const failure = queryPublic('getStockStatus', { slug: 'x' }, { endpoint: `${origin}/graphql` });
    await expect(failure).rejects.toBeInstanceOf(GraphQLRequestError);
    await expect(failure).rejects.toThrow('Product not found');
  });

  it('names the status of a non-GraphQL answer and times out slow answers', async () => {
    answer = (_, res) => {
      res.writeHead(502, { 'content-type': 'text/html' });
      res.end('<h1>Bad gateway</h1>');
    };
    await expect(queryPublic('getStockStatus', { slug: 'x' }, { endpoint: `${origin}/graphql` })).rejects.toThrow(
      /unreadable response \(HTTP status 502\)/,
    );
    answer = () => {};
    await expect(
      queryPublic('getStockStatus', { slug: 'x' }, { endpoint: `${origin}/graphql`, timeoutMs: 50 }),
    ).rejects.toBeInstanceOf(TimeoutError);
  });

  it('refuses mutations and unknown operations', async () => {
    // Typed as any operation; refused at run time because the document is a mutation.
    await expect(queryPublic('addToCart', { productId: 1 }, { endpoint: `${origin}/graphql` })).rejects.toThrow(
      /not a query/,
    );
    // @ts-expect-error: not an operation of the spec
    await expect(queryPublic('dropTables', {}, { endpoint: `${origin}/graphql` })).rejects.toThrow(
      'Invalid GraphQL Operation',
    );
    expect(seen).toHaveLength(0);
  });
});

describe('liveDiffers and mergeLive', () => {
  const variable = {
    databaseId: 30,
    price: '€20.00 - €25.00',
    stockStatus: 'IN_STOCK' as const,
    variations: {
      nodes: [
        { databaseId: 31, price: '€20.00', stockStatus: 'IN_STOCK' as const, stockQuantity: 4 },
        { databaseId: 32, price: '€25.00', stockStatus: 'IN_STOCK' as const, stockQuantity: null },
      ],
    },
  };

  it('sees no change when the engine says what the page shows', () => {
    expect(liveDiffers(simple, { ...simple })).toBe(false);
    // Fields the engine does not send for a product type are not a change.
    expect(liveDiffers(simple, { databaseId: 7, price: '€24.00' })).toBe(false);
    expect(
      liveDiffers(variable, {
        ...variable,
        variations: { nodes: [{ databaseId: 32, price: '€25.00', stockStatus: 'IN_STOCK', stockQuantity: null }] },
      }),
    ).toBe(false);
  });

  it('ignores stock counts the page does not show, but not a new low-stock count', () => {
    expect(liveDiffers(simple, { ...simple, stockQuantity: 11 })).toBe(false);
    expect(liveDiffers(simple, { ...simple, stockQuantity: 5 })).toBe(true);
    expect(liveDiffers({ ...simple, stockQuantity: 4 }, { ...simple, stockQuantity: 3 })).toBe(true);
  });

  it('sees a new price, a sale ending or a sold-out variation', () => {
    expect(liveDiffers(simple, { ...simple, price: '€26.00' })).toBe(true);
    expect(liveDiffers(simple, { ...simple, onSale: false })).toBe(true);
    expect(
      liveDiffers(variable, {
        variations: { nodes: [{ databaseId: 31, stockStatus: 'OUT_OF_STOCK', stockQuantity: 0 }] },
      }),
    ).toBe(true);
  });

  it('lays live values over the static product and its variations', () => {
    const merged = mergeLive(variable, {
      price: '€21.00 - €25.00',
      variations: { nodes: [{ databaseId: 31, price: '€21.00', stockQuantity: 2 }] },
    });
    expect(merged.price).toBe('€21.00 - €25.00');
    expect(merged.variations?.nodes?.[0]).toMatchObject({
      databaseId: 31,
      price: '€21.00',
      stockQuantity: 2,
      stockStatus: 'IN_STOCK',
    });
    expect(merged.variations?.nodes?.[1]).toEqual(variable.variations.nodes[1]);
    expect(mergeLive(variable, null)).toBe(variable);
  });
});

describe('startLiveStockCheck', () => {
  function fakeWindow() {
    const events: string[] = [];
    const win = {
      location: { href: `${origin}/product/window-antenna` },
      dispatchEvent: (event: Event) => {
        events.push(event.type);
        return true;
      },
    };
    (globalThis as { window?: unknown }).window = win;
    return { win: win as unknown as Window, events };
  }

  it('keeps the answer and hydrates the islands at once when the page is stale', async () => {
    const { win, events } = fakeWindow();
    answer = reply(200, { data: { product: { ...simple, stockStatus: 'OUT_OF_STOCK', stockQuantity: 0 } } });
    await expect(startLiveStockCheck('window-antenna', simple, win)).resolves.toBe(true);
    expect($liveProduct.get()?.stockStatus).toBe('OUT_OF_STOCK');
    expect(events).toEqual([LIVE_STOCK_CHANGED]);
    // Once per page: a second call (the picker mounting) sends nothing.
    await expect(startLiveStockCheck('window-antenna', simple, win)).resolves.toBe(false);
    expect(seen).toHaveLength(1);
  });

  it('leaves the islands waiting for the visitor when the page is current, and survives a failure', async () => {
    const { win, events } = fakeWindow();
    answer = reply(200, { data: { product: simple } });
    await expect(startLiveStockCheck('window-antenna', simple, win)).resolves.toBe(false);
    expect(events).toEqual([]);
    resetLiveStock();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    answer = reply(500, { errors: [{ message: 'Internal server error' }] });
    await expect(startLiveStockCheck('window-antenna', simple, win)).resolves.toBe(false);
    expect($liveProduct.get()).toBeNull();
  });
});
