// The catalog response cache (src/server/http/response-cache.ts) behind a real Yoga: a repeated catalog
// read is answered with the same bytes without running the resolvers again, a stock or catalog version
// change drops every entry of the old versions at once (every order bumps the stock version, so stale
// entries must not pile up to the cap), and the cache never holds more entries or text than its caps.
import { createSchema, createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import {
  useCatalogResponseCache,
  type CatalogResponseCacheLimits,
  type CatalogResponseCacheStats,
} from '../../src/server/http/response-cache.ts';

function shop(limits?: CatalogResponseCacheLimits) {
  const versions = { catalogVersion: 1, stockVersion: 1 };
  const stats: CatalogResponseCacheStats = { entries: 0, bytes: 0, versions: '' };
  let resolved = 0;
  const yoga = createYoga({
    schema: createSchema({
      typeDefs: 'type Query { products(first: Int!, pad: Int): [String!]! }',
      resolvers: {
        Query: {
          products: (_: unknown, { first, pad }: { first: number; pad?: number }) => {
            resolved++;
            return Array.from(
              { length: first },
              (_, i) => `stock ${versions.stockVersion} product ${i}${'x'.repeat(pad ?? 0)}`,
            );
          },
        },
      },
    }),
    context: { catalog: { snapshot: async () => ({ ...versions }) } },
    plugins: [useCatalogResponseCache(limits, stats)],
    logging: false,
  });
  const read = async (first: number, pad = 0) => {
    const res = await yoga.fetch('http://localhost/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'query getProducts($first: Int!, $pad: Int) { products(first: $first, pad: $pad) }',
        variables: { first, pad },
      }),
    });
    return { status: res.status, text: await res.text() };
  };
  return { versions, stats, read, resolvedCount: () => resolved };
}

describe('catalog response cache', () => {
  it('answers a repeated read with the same bytes without resolving again', async () => {
    const s = shop();
    const first = await s.read(3);
    const again = await s.read(3);
    expect(first.status).toBe(200);
    expect(again).toEqual(first);
    expect(JSON.parse(again.text)).toEqual({
      data: { products: ['stock 1 product 0', 'stock 1 product 1', 'stock 1 product 2'] },
    });
    expect(s.resolvedCount()).toBe(1);
    expect(s.stats).toMatchObject({ entries: 1, versions: '1:1' });
  });

  it('drops the entries of old versions as soon as the stock version moves', async () => {
    const s = shop();
    for (let n = 1; n <= 5; n++) await s.read(n);
    expect(s.stats.entries).toBe(5);
    s.versions.stockVersion = 2;
    const after = await s.read(2);
    expect(JSON.parse(after.text).data.products[0]).toBe('stock 2 product 0');
    // Only the answer computed for the new versions is left; the five old ones could never be hit again.
    expect(s.stats).toMatchObject({ entries: 1, versions: '1:2' });
    expect(s.resolvedCount()).toBe(6);
  });

  it('stays within its entry cap, dropping the oldest answers first', async () => {
    const s = shop({ maxEntries: 4, maxBytes: 1024 * 1024 });
    for (let n = 1; n <= 10; n++) await s.read(n);
    expect(s.stats.entries).toBe(4);
    const resolvedBefore = s.resolvedCount();
    await s.read(10); // among the newest: cached
    expect(s.resolvedCount()).toBe(resolvedBefore);
    await s.read(1); // the oldest: dropped, resolved again, still correct
    expect(s.resolvedCount()).toBe(resolvedBefore + 1);
    expect(JSON.parse((await s.read(1)).text).data.products).toHaveLength(1);
  });

  it('stays within its byte cap and does not keep an answer larger than the cap', async () => {
    const maxBytes = 4000;
    const s = shop({ maxEntries: 100, maxBytes });
    for (let n = 1; n <= 20; n++) {
      await s.read(2, 300 + n);
      expect(s.stats.bytes).toBeLessThanOrEqual(maxBytes);
    }
    expect(s.stats.entries).toBeGreaterThan(0);
    expect(s.stats.entries).toBeLessThan(20);
    const huge = await s.read(20, 500);
    expect(huge.status).toBe(200);
    expect(JSON.parse(huge.text).data.products).toHaveLength(20);
    expect(s.stats.bytes).toBeLessThanOrEqual(maxBytes);
    const resolvedBefore = s.resolvedCount();
    await s.read(20, 500);
    expect(s.resolvedCount()).toBe(resolvedBefore + 1);
  });
});
