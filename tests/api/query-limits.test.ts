// The query limits with their defaults against documents the size of a WooGraphQL storefront's (WooNuxt's
// product page: 37 aliases counted in every fragment spread; its cart mutations: 11 deep; its listing: the
// whole catalog with every product's variations), and against abusive ones: deep nesting, a thousand aliases,
// huge `first` values, literal or in variables. The cost model (src/server/http/query-cost.ts) is checked on
// the real schema.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Kind, parse, type OperationDefinitionNode, type SelectionSetNode } from 'graphql';
import { operationCost } from '../../src/server/http/query-cost.ts';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';
import { productId, Shopper } from './shop-helpers.ts';

let t: TestEngine;
beforeAll(async () => {
  t = await startTestEngine();
}, ENGINE_START_TIMEOUT_MS);
afterAll(() => t?.close());

// What a WooGraphQL storefront asks about a product: prices as text and RAW (aliases), image sizes (aliases),
// the gallery and, for a variable product, every variation.
const FRAGMENTS = /* GraphQL */ `
  fragment Picture on MediaItem {
    sourceUrl altText title databaseId
    thumb: sourceUrl(size: THUMBNAIL)
    card: sourceUrl(size: WOOCOMMERCE_THUMBNAIL)
  }
  fragment Money on ProductWithPricing {
    price rawPrice: price(format: RAW)
    regularPrice rawRegularPrice: regularPrice(format: RAW)
    salePrice rawSalePrice: salePrice(format: RAW)
  }
  fragment Variation on ProductVariation {
    name databaseId slug stockStatus stockQuantity hasAttributes
    ...Money
    image { ...Picture }
    attributes { nodes { name label value } }
  }
  fragment Item on Product {
    name slug type databaseId averageRating reviewCount
    image { ...Picture }
    galleryImages(first: 20) { nodes { ...Picture } }
    ... on SimpleProduct { ...Money stockStatus stockQuantity onSale }
    ... on VariableProduct {
      ...Money stockStatus onSale
      defaultAttributes { nodes { name value } }
      variations(first: 100) { nodes { ...Variation } }
    }
    ... on ExternalProduct { ...Money externalUrl buttonText }
  }
`;

const PRODUCT_PAGE = /* GraphQL */ `
  query productPage($slug: ID!) {
    product(id: $slug, idType: SLUG) {
      ...Item
      rawDescription: description(format: RAW)
      related(first: 5) { nodes { ...Item } }
      reviews(first: 100) { averageRating edges { rating node { content date author { node { name } } } } }
    }
  }
  ${FRAGMENTS}
`;

const LISTING = /* GraphQL */ `
  query listing($first: Int = 9999) {
    products(first: $first, where: { visibility: VISIBLE, status: "publish" }) { nodes { ...Item } }
  }
  ${FRAGMENTS}
`;

const ADD_TO_CART = /* GraphQL */ `
  mutation add($id: Int!) {
    addToCart(input: { productId: $id, quantity: 1 }) {
      cart {
        total rawTotal: total(format: RAW) rawDiscountTotal: discountTotal(format: RAW)
        availableShippingMethods { rates { id label cost } }
        contents(first: 100) {
          itemCount
          nodes {
            key quantity
            product { node { ...Item } }
            variation { node { ...Variation } }
          }
        }
      }
    }
  }
  ${FRAGMENTS}
`;

/** Aliases as the aliases limit counts them: each spread of a fragment counts its aliases again. */
function aliasCount(query: string): number {
  const doc = parse(query);
  const fragments = new Map(
    doc.definitions.flatMap((d) => (d.kind === Kind.FRAGMENT_DEFINITION ? [[d.name.value, d] as const] : [])),
  );
  const count = (set: SelectionSetNode | undefined): number =>
    (set?.selections ?? []).reduce((n, s) => {
      if (s.kind === Kind.FIELD) return n + (s.alias ? 1 : 0) + count(s.selectionSet);
      if (s.kind === Kind.INLINE_FRAGMENT) return n + count(s.selectionSet);
      return n + count(fragments.get(s.name.value)?.selectionSet);
    }, 0);
  const operation = doc.definitions.find((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  return count(operation?.selectionSet);
}

const costOf = (query: string, variables: Record<string, unknown> = {}) =>
  operationCost(t.engine.schema, parse(query), null, variables, {
    maxCost: t.config.limits.maxCost,
    defaultPageSize: t.config.defaultPageSize,
    maxPageSize: t.config.maxPageSize,
  });

describe('a WooGraphQL storefront’s documents pass with the default limits', () => {
  it('a product page with 37 aliases', async () => {
    const r = await t.gql(PRODUCT_PAGE, { slug: 'alpha-gateway' });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.product.variations.nodes.length).toBeGreaterThan(0);
    // Above the old limit of 30: the aliases limit counts each spread of a fragment.
    expect(aliasCount(PRODUCT_PAGE)).toBe(37);
  });

  it('a cart mutation 11 levels deep, answering one page of cart items with their products', async () => {
    const shopper = new Shopper(t);
    const d = await shopper.ok(ADD_TO_CART, { id: await productId(t, 'omni-antenna') });
    expect(d.addToCart.cart.contents.itemCount).toBe(1);
    // Costs a page of 100 items, each with its product's page of variations: far below the limit.
    expect(costOf(ADD_TO_CART)).toBeLessThan(t.config.limits.maxCost / 10);
  });

  it('the whole catalog in one listing (`$first: Int = 9999`) with every variation', async () => {
    const r = await t.gql(LISTING);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.products.nodes.length).toBeGreaterThan(5);
    // 1,000 products (the page size clamp) × their pages of variations: the largest real document.
    const cost = costOf(LISTING);
    expect(cost).toBeGreaterThan(1_000_000);
    expect(cost).toBeLessThan(t.config.limits.maxCost);
  });
});

describe('abusive documents are still refused', () => {
  it('deep nesting', async () => {
    let selection = 'slug';
    for (let i = 0; i < 5; i++) selection = `productCategories { nodes { products { nodes { ${selection} } } } }`;
    const r = await t.gql(`{ products(first: 1) { nodes { ${selection} } } }`);
    expect(r.body.errors?.[0]?.message).toMatch(/Query depth limit of 16 exceeded/);
    expect(r.body.data).toBeUndefined();
  });

  it('too many aliases: a hundred, and a thousand', async () => {
    const aliases = (n: number) => Array.from({ length: n }, (_, i) => `a${i}: allowedCountries`).join('\n');
    const hundred = await t.gql(`{ ${aliases(100)} }`);
    expect(hundred.body.errors?.[0]?.message).toMatch(/Aliases limit of 60 exceeded, found 100/);
    const thousand = await t.gql(`{ ${aliases(1000)} }`);
    expect(thousand.body.errors?.[0]?.message).toMatch(/Aliases limit of 60 exceeded|Token limit of 3000 exceeded/);
    expect(thousand.body.data).toBeUndefined();
  });

  it('huge `first` values on nested connections, literal or in variables', async () => {
    const nested = (first: string) =>
      `{ products(first: ${first}) { nodes { productCategories(first: ${first}) { nodes { products(first: ${first}) { nodes { name } } } } } } }`;
    const literal = await t.gql(nested('1000000'));
    expect(literal.body.errors?.[0]?.message).toMatch(/Query Cost limit of 20000000 exceeded/);
    expect(literal.body.data).toBeUndefined();

    const withVariables = `query($n: Int) ${nested('$n')}`;
    const huge = await t.gql(withVariables, { n: 1_000_000 });
    expect(huge.body.errors?.[0]?.message).toMatch(/Query Cost limit of 20000000 exceeded/);
    expect(huge.body.errors?.[0]?.extensions?.code).toBe('QUERY_TOO_EXPENSIVE');
    // The same document with a small page runs.
    const small = await t.gql(withVariables, { n: 2 });
    expect(small.body.errors).toBeUndefined();
    expect(small.body.data.products.nodes).toHaveLength(2);
  });
});

describe('the cost limit itself stays cheap', () => {
  it('a fragment spread twice in a fragment spread twice … forty levels down is judged at once and refused', async () => {
    const n = 40;
    const fragments = Array.from(
      { length: n },
      (_, i) => `fragment F${i} on RootQuery { ${i === n - 1 ? 'allowedCountries' : `...F${i + 1} ...F${i + 1}`} }`,
    ).join('\n');
    const started = performance.now();
    const r = await t.gql(`{ ...F0 }\n${fragments}`);
    expect(performance.now() - started).toBeLessThan(2000);
    expect(r.body.errors?.[0]?.message).toMatch(/Query Cost limit of 20000000 exceeded/);
  });
});

describe('the cost model', () => {
  it('counts every field once and a connection by the page it can return', () => {
    // products: 1 + 3 items × (nodes 1 + name 1 + slug 1)
    expect(costOf('{ products(first: 3) { nodes { name slug } } }')).toBe(10);
    // Without `first`: the default page.
    expect(costOf('{ products { nodes { name slug } } }')).toBe(1 + t.config.defaultPageSize * 3);
    // Beyond the clamp: what the engine returns at most.
    expect(costOf('{ products(first: 100000000) { nodes { name slug } } }')).toBe(1 + t.config.maxPageSize * 3);
    // `__typename` costs nothing.
    expect(costOf('{ products(first: 3) { nodes { __typename name slug } } }')).toBe(10);
  });

  it("takes `first` from the request's variables, or the variable's default", () => {
    const q = 'query($n: Int = 4) { products(first: $n) { nodes { name } } }';
    expect(costOf(q)).toBe(1 + 4 * 2);
    expect(costOf(q, { n: 7 })).toBe(1 + 7 * 2);
    expect(costOf(q, { n: -5 })).toBe(1);
  });

  it('judges a document Yoga parsed once anew for each request whose variables set the page', () => {
    // Yoga hands every request with the same text one parsed document; the cost of a document whose page
    // sizes are literals is kept with it, one whose page comes from the variables is not.
    const settings = {
      maxCost: t.config.limits.maxCost,
      defaultPageSize: t.config.defaultPageSize,
      maxPageSize: t.config.maxPageSize,
    };
    const variable = parse('query($n: Int) { products(first: $n) { nodes { name } } }');
    expect(operationCost(t.engine.schema, variable, null, { n: 2 }, settings)).toBe(1 + 2 * 2);
    expect(operationCost(t.engine.schema, variable, null, { n: 50 }, settings)).toBe(1 + 50 * 2);
    const literal = parse('{ products(first: 3) { nodes { name } } }');
    expect(operationCost(t.engine.schema, literal, null, {}, settings)).toBe(1 + 3 * 2);
    expect(operationCost(t.engine.schema, literal, null, {}, { ...settings, maxPageSize: 2 })).toBe(1 + 2 * 2);
  });

  it('multiplies nested pages, and counts a plain list of objects as ten items', () => {
    // 1 + 2 × (nodes 1 + related: 1 + 5 × (nodes 1 + slug 1))
    expect(costOf('{ products(first: 2) { nodes { related(first: 5) { nodes { slug } } } } }')).toBe(1 + 2 * (1 + 11));
    // cart 1 + shipping packages 1 + 10 × (rates 1 + 10 × (id 1 + cost 1))
    expect(costOf('{ cart { availableShippingMethods { rates { id cost } } } }')).toBe(1 + 1 + 10 * (1 + 10 * 2));
  });

  it('counts fragments where they are spread', () => {
    const inline = costOf('{ products(first: 3) { nodes { name ... on SimpleProduct { sku } } } }');
    const spread = costOf('{ products(first: 3) { nodes { name ...F } } } fragment F on SimpleProduct { sku }');
    expect(inline).toBe(1 + 3 * (1 + 2));
    expect(spread).toBe(inline);
  });
});
