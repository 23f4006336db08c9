// Compiled execution (src/server/http/compiled-execution.ts): the storefront's documents run through
// functions graphql-jit compiled for them once; other documents through graphql's executor; and the
// answers are the same either way, including the refusals a client reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSchema, createYoga } from 'graphql-yoga';
import { useCompiledExecution } from '../../src/server/http/compiled-execution.ts';
import { createMeshfrontYoga, type MeshfrontYoga } from '../../src/server/http/yoga.ts';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';
import { operation } from './shop-helpers.ts';

let t: TestEngine;
/** The document texts compiled so far, as the plugin asked its cache to keep them. */
let compiledTexts: string[];
let yoga: MeshfrontYoga;

beforeAll(async () => {
  t = await startTestEngine();
  const entries = new Map<string, never>();
  compiledTexts = [];
  yoga = createMeshfrontYoga(async () => t.engine, t.config, {
    compiledDocuments: {
      get: (key) => entries.get(key),
      set: (key, value) => {
        compiledTexts.push(key);
        entries.set(key, value as never);
      },
    },
  });
}, ENGINE_START_TIMEOUT_MS);
afterAll(() => t?.close());

async function post(query: string, variables: Record<string, unknown> = {}, operationName?: string) {
  const r = await yoga.fetch('http://x/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables, operationName }),
  });
  return { status: r.status, body: (await r.json()) as { data?: any; errors?: any[] } };
}

describe('compiled execution', () => {
  it("compiles a storefront document once and answers as graphql's executor does", async () => {
    const query = operation('getStockStatus');
    const compiledBefore = compiledTexts.length;
    const first = await post(query, { slug: 'alpha-gateway' });
    const second = await post(query, { slug: 'alpha-gateway' });
    expect(first.status).toBe(200);
    expect(first.body.errors).toBeUndefined();
    expect(first.body.data.product.variations.nodes.length).toBeGreaterThan(0);
    expect(second.body).toEqual(first.body);
    expect(compiledTexts.length - compiledBefore).toBe(1);
    // The same answer from graphql's executor: the same selection under another operation name is not a
    // trusted document, so it is not compiled.
    const compiledNow = compiledTexts.length;
    const general = await post(query.replace('query getStockStatus(', 'query stockStatusElsewhere('), {
      slug: 'alpha-gateway',
    });
    expect(compiledTexts.length).toBe(compiledNow);
    expect(general.body).toEqual(first.body);
  });

  it('leaves a document that is not one of the trusted ones to the general executor', async () => {
    const compiledBefore = compiledTexts.length;
    const r = await post('{ products(first: 2) { nodes { databaseId name } } }');
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.products.nodes).toHaveLength(2);
    expect(compiledTexts.length).toBe(compiledBefore);
  });

  it('refuses variables that cannot be coerced with 400 and BAD_USER_INPUT, as without compilation', async () => {
    const r = await post(operation('addToCart'), { productId: null, quantity: 1 });
    expect(r.status).toBe(400);
    expect(r.body.data).toBeUndefined();
    expect(r.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(r.body.errors?.[0]?.message).toMatch(/\$productId/);
  });

  it("answers a shopper's refusal inside a compiled mutation with its message and path (200, data kept)", async () => {
    const r = await post(operation('addToCart'), { productId: 987654, quantity: 1 });
    expect(r.status).toBe(200);
    expect(r.body.data).toEqual({ addToCart: null });
    expect(r.body.errors?.[0]?.path).toEqual(['addToCart']);
    expect(r.body.errors?.[0]?.message).not.toMatch(/unexpected/i);
  });

  it('runs each operation of a document with several by its name (never the first one compiled)', async () => {
    // Compiled documents are known by their text alone, so a document with two operations must never be
    // compiled, even where every document counts as trusted.
    const small = createYoga({
      schema: createSchema({
        typeDefs: 'type Query { a: String b: String }',
        resolvers: { Query: { a: () => 'A', b: () => 'B' } },
      }),
      plugins: useCompiledExecution(() => true),
    });
    const ask = async (query: string, operationName?: string) =>
      (
        await small.fetch('http://x/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query, operationName }),
        })
      ).json();
    const document = 'query First { a } query Second { b }';
    expect(await ask(document, 'First')).toEqual({ data: { a: 'A' } });
    expect(await ask(document, 'Second')).toEqual({ data: { b: 'B' } });
    expect(await ask('{ b }')).toEqual({ data: { b: 'B' } });
  });
});
