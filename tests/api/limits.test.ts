// Query limits (graphql-armor), page-size clamp, bad arguments, introspection and trusted documents.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMeshfrontYoga } from '../../src/server/http/yoga.ts';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';

let t: TestEngine;
beforeAll(async () => {
  t = await startTestEngine({ env: { COMMERCE_MAX_PAGE_SIZE: '5' } });
}, ENGINE_START_TIMEOUT_MS);
afterAll(async () => {
  await t?.close();
}, ENGINE_START_TIMEOUT_MS);

const noStack = (body: unknown) => {
  const text = JSON.stringify(body);
  expect(text).not.toMatch(/\bat .*\.(ts|js|mjs|cjs):\d+/);
  expect(text).not.toMatch(/"stack"/);
};

describe('page size', () => {
  it('clamps a huge first to COMMERCE_MAX_PAGE_SIZE', async () => {
    const r = await t.data(`query($n: Int) { products(first: $n) { found nodes { slug } pageInfo { hasNextPage } } }`, {
      n: 1_000_000,
    });
    expect(r.products.nodes).toHaveLength(5);
    expect(r.products.found).toBe(11);
    expect(r.products.pageInfo.hasNextPage).toBe(true);
    const last = await t.data(`{ products(last: 99) { nodes { slug } } }`);
    const literal = await t.data(`{ products(first: 100000) { nodes { slug } } }`);
    expect(literal.products.nodes).toHaveLength(5);
    expect(last.products.nodes).toHaveLength(5);
  });

  it('refuses a negative first or last with a clear error', async () => {
    for (const q of [
      `{ products(first: -1) { nodes { slug } } }`,
      `{ products(last: -5) { nodes { slug } } }`,
      `{ productCategories(first: -2) { nodes { slug } } }`,
    ]) {
      const r = await t.gql(q);
      expect(r.status).toBe(200);
      expect(r.body.errors?.[0]?.message).toMatch(/must be a non-negative integer/);
      expect(r.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      noStack(r.body);
    }
  });

  it('refuses a first that is not an Int', async () => {
    const r = await t.gql(`{ products(first: "ten") { nodes { slug } } }`);
    expect(r.body.errors?.[0]?.message).toMatch(/Int/);
  });
});

describe('bad input', () => {
  it('a bad enum value is a GraphQL validation error', async () => {
    for (const q of [
      `{ products(where: { orderby: [{ field: CHEAPEST, order: DESC }] }) { nodes { slug } } }`,
      `{ products(where: { stockStatus: [SOLD_OUT] }) { nodes { slug } } }`,
      `{ product(id: "omni-antenna", idType: SLUG) { ... on SimpleProduct { price(format: FANCY) } } }`,
    ]) {
      const r = await t.gql(q);
      expect(r.status).toBeLessThan(500);
      expect(r.body.errors?.[0]?.message).toMatch(/does not exist in "\w+" enum/);
      expect(r.body.data).toBeUndefined();
      noStack(r.body);
    }
  });

  it('a bad enum in variables is refused as well', async () => {
    const r = await t.gql(
      `query($o: ProductsOrderByEnum!) { products(where: { orderby: [{ field: $o }] }) { nodes { slug } } }`,
      { o: 'LOUDEST' },
    );
    expect(r.body.errors?.[0]?.message).toMatch(/LOUDEST/);
    noStack(r.body);
  });

  it('an unknown field is an error without field suggestions', async () => {
    const r = await t.gql(`{ products { nodes { nam } } }`);
    expect(r.body.errors?.[0]?.message).toMatch(/Cannot query field "nam"/);
    expect(r.body.errors?.[0]?.message).not.toMatch(/Did you mean/);
  });
});

describe('graphql-armor', () => {
  it('refuses queries deeper than the limit', async () => {
    let selection = 'slug';
    for (let i = 0; i < 8; i++) selection = `productCategories { nodes { products { nodes { ${selection} } } } }`;
    const r = await t.gql(`{ products(first: 1) { nodes { ${selection} } } }`);
    expect(r.body.errors?.[0]?.message).toMatch(/Query depth limit of 16 exceeded/);
    noStack(r.body);
  });

  it('refuses too many aliases', async () => {
    const aliases = Array.from({ length: 70 }, (_, i) => `a${i}: allowedCountries`).join('\n');
    const r = await t.gql(`{ ${aliases} }`);
    expect(r.body.errors?.[0]?.message).toMatch(/Aliases limit of 60 exceeded, found 70/);
  });

  it('refuses too many directives', async () => {
    const dirs = Array.from({ length: 40 }, () => '@include(if: true)').join(' ');
    const r = await t.gql(`{ allowedCountries ${dirs} }`);
    expect(r.body.errors?.[0]?.message).toMatch(/Directives limit of 20 exceeded, found 40/);
  });

  it('refuses oversized documents (token limit)', async () => {
    const fields = Array.from({ length: 3500 }, () => 'slug').join(' ');
    const r = await t.gql(`{ products(first: 1) { nodes { ${fields} } } }`);
    expect(r.status).toBeLessThan(500);
    expect(r.body.errors?.[0]?.message).toMatch(/Token limit of 3000 exceeded/);
    noStack(r.body);
  });

  it('refuses request bodies beyond the byte limit', async () => {
    const body = JSON.stringify({ query: `{ allowedCountries }`, variables: { pad: 'x'.repeat(300 * 1024) } });
    const r = await t.fetch({
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(body.length) },
      body,
    });
    expect(r.status).toBe(413);
  });

  it('refuses very expensive queries (cost limit)', async () => {
    const query = `{ products(first: 1000) { nodes { related(first: 5) { nodes { ... on SimpleProduct { productCategories(first: 100) { nodes { products(first: 1000) { nodes { slug } } } } } } } } } }`;
    // The cost counts pages as the engine clamps them: with this file's COMMERCE_MAX_PAGE_SIZE of 5 the
    // document is cheap (and allowed); with the default clamp of 1,000 it is not.
    expect((await t.gql(query)).body.errors).toBeUndefined();
    const yoga = createMeshfrontYoga(async () => t.engine, { ...t.config, maxPageSize: 1000 });
    const r = await (
      await yoga.fetch('http://x/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query }),
      })
    ).json();
    expect(r.errors?.[0]?.message).toMatch(/Query Cost limit of 20000000 exceeded/);
    expect(r.data).toBeUndefined();
  });

  it('lets a realistic product-page query through', async () => {
    const r = await t.gql(
      `query getProduct($slug: ID!) { product(id: $slug, idType: SLUG) {
      id databaseId name slug sku type description shortDescription averageRating reviewCount
      image { sourceUrl altText } galleryImages(first: 20) { nodes { sourceUrl altText } }
      productCategories { nodes { slug name } } terms(first: 100) { nodes { taxonomyName slug } }
      ... on VariableProduct { price rawPrice: price(format: RAW) regularPrice salePrice stockStatus
        attributes { nodes { name label options variation scope ... on GlobalProductAttribute { terms { nodes { name slug } } } } }
        defaultAttributes { nodes { name value } }
        variations(first: 100) { nodes { name databaseId price stockStatus stockQuantity image { sourceUrl } attributes { nodes { name value } } } } }
      related(first: 5) { nodes { name slug image { sourceUrl } ... on SimpleProduct { price } ... on VariableProduct { price } } }
      reviews(first: 20) { averageRating edges { rating node { content date author { node { name } } } } }
    } }`,
      { slug: 'alpha-gateway' },
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.product.variations.nodes).toHaveLength(3);
  });
});

describe('introspection and trusted documents', () => {
  it('introspection works in development and is refused when disabled', async () => {
    const open = await t.gql(`{ __schema { queryType { name } } }`);
    expect(open.body.data.__schema.queryType.name).toBe('RootQuery');
    const closed = createMeshfrontYoga(async () => t.engine, { ...t.config, introspection: false });
    const r = await closed.fetch('http://x/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `{ __schema { queryType { name } } }` }),
    });
    const body = await r.json();
    expect(body.errors?.[0]?.message).toMatch(/introspection/i);
    expect(body.data).toBeUndefined();
  });

  it('with trusted documents only, runs the listed operations (with their fragments) and refuses others', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-ops-'));
    fs.mkdirSync(path.join(dir, 'operations'));
    fs.mkdirSync(path.join(dir, 'fragments'));
    fs.writeFileSync(
      path.join(dir, 'operations', 'getStates.graphql'),
      '# states\nquery getStates($country: CountriesEnum!) { countryStates(country: $country) { ...State } }\n',
    );
    fs.writeFileSync(path.join(dir, 'fragments', 'State.graphql'), 'fragment State on CountryState { code name }\n');
    const yoga = createMeshfrontYoga(async () => t.engine, {
      ...t.config,
      trustedDocumentsOnly: true,
      operationsDir: path.join(dir, 'operations'),
    });
    const post = async (query: string) =>
      (
        await yoga.fetch('http://x/graphql', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query, variables: { country: 'CA' } }),
        })
      ).json();
    // Same definitions, different whitespace and order: accepted.
    const ok = await post(
      'fragment State on CountryState { code name }\nquery getStates($country: CountriesEnum!) {\n  countryStates(country: $country) { ...State }\n}',
    );
    expect(ok.errors).toBeUndefined();
    expect(ok.data.countryStates).toHaveLength(13);
    const refused = await post('{ allowedCountries }');
    expect(refused.errors?.[0]?.message).toMatch(/Invalid GraphQL Operation/);
    expect(refused.data ?? null).toBeNull();
    fs.rmSync(dir, { recursive: true, force: true });
  });
});
