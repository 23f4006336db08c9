// products(first, after, last, before, where): pagination, cursors, found, every filter and every sort.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';

let t: TestEngine;
beforeAll(async () => {
  t = await startTestEngine();
}, ENGINE_START_TIMEOUT_MS);
afterAll(async () => {
  await t?.close();
}, ENGINE_START_TIMEOUT_MS);

const LIST = /* GraphQL */ `
  query list($first: Int, $after: String, $last: Int, $before: String, $where: RootQueryToProductConnectionWhereArgs) {
    products(first: $first, after: $after, last: $last, before: $before, where: $where) {
      found
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
      edges { cursor node { databaseId slug } }
      nodes { slug }
    }
  }
`;

type ListResult = {
  products: {
    found: number;
    pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
    edges: { cursor: string; node: { databaseId: number; slug: string } }[];
    nodes: { slug: string }[];
  };
};

async function list(variables: Record<string, unknown>) {
  return (await t.data<ListResult>(LIST, { first: 100, ...variables })).products;
}
async function slugs(where: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  return (await list({ where, ...extra })).nodes.map((n) => n.slug);
}
const sorted = (a: string[]) => [...a].sort();

const PUBLISHED = [
  'alpha-gateway',
  'bravo-outdoor-gateway',
  'catalog-only-sticker',
  'hidden-spare-part',
  'mesh-hoodie',
  'mesh-os',
  'n-type-cable',
  'omni-antenna',
  'partner-solar-kit',
  'search-only-adapter',
  'yagi-antenna',
];
const BY_DATE_DESC = [
  'mesh-os',
  'mesh-hoodie',
  'bravo-outdoor-gateway',
  'omni-antenna',
  'alpha-gateway',
  'partner-solar-kit',
  'yagi-antenna',
  'n-type-cable',
  'search-only-adapter',
  'catalog-only-sticker',
  'hidden-spare-part',
];

describe('pagination', () => {
  it('returns published products only, with found = total matches', async () => {
    const r = await list({});
    expect(sorted(r.nodes.map((n) => n.slug))).toEqual(PUBLISHED);
    expect(r.found).toBe(11);
    expect(r.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: false });
  });

  it('defaults to 10 items when neither first nor last is given', async () => {
    const r = (await t.data<ListResult>(LIST, {})).products;
    expect(r.nodes).toHaveLength(10);
    expect(r.found).toBe(11);
    expect(r.pageInfo.hasNextPage).toBe(true);
  });

  it('uses WPGraphQL cursors: base64 arrayconnection:<databaseId>', async () => {
    const r = await list({ first: 2 });
    for (const e of r.edges)
      expect(Buffer.from(e.cursor, 'base64').toString()).toBe(`arrayconnection:${e.node.databaseId}`);
    expect(r.pageInfo.startCursor).toBe(r.edges[0]!.cursor);
    expect(r.pageInfo.endCursor).toBe(r.edges[1]!.cursor);
  });

  it('pages forward with first/after through the whole list in order', async () => {
    const where = { orderby: [{ field: 'DATE', order: 'DESC' }] };
    const seen: string[] = [];
    let after: string | null = null;
    let pages = 0;
    for (;;) {
      const r = await list({ first: 4, after, where });
      expect(r.found).toBe(11);
      seen.push(...r.nodes.map((n) => n.slug));
      pages++;
      expect(r.pageInfo.hasPreviousPage).toBe(pages > 1);
      if (!r.pageInfo.hasNextPage) break;
      after = r.pageInfo.endCursor;
    }
    expect(pages).toBe(3);
    expect(seen).toEqual(BY_DATE_DESC);
  });

  it('pages backward with last/before', async () => {
    const where = { orderby: [{ field: 'DATE', order: 'DESC' }] };
    const tail = await list({ first: null, last: 3, where });
    expect(tail.nodes.map((n) => n.slug)).toEqual(BY_DATE_DESC.slice(-3));
    expect(tail.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    const before = await list({ first: null, last: 2, before: tail.pageInfo.startCursor, where });
    expect(before.nodes.map((n) => n.slug)).toEqual(BY_DATE_DESC.slice(6, 8));
  });

  it('keeps a cursor stable when the filter changes (keyset): paging continues after the named product', async () => {
    const all = await list({ first: 3, where: { orderby: [{ field: 'NAME', order: 'ASC' }] } });
    // The cursor names "Catalog-only Sticker"; in the gateways-only list it sits between Bravo and Partner.
    const next = await list({
      first: 10,
      after: all.pageInfo.endCursor,
      where: { category: 'gateways', orderby: [{ field: 'NAME', order: 'ASC' }] },
    });
    expect(next.nodes.map((n) => n.slug)).toEqual(['partner-solar-kit']);
  });

  it('rejects a cursor that was not issued by the API, with a clear error', async () => {
    const r = await t.gql(LIST, { first: 2, after: 'not-a-cursor' });
    expect(r.body.errors?.[0]?.message).toMatch(/Invalid cursor/);
    const gone = await t.gql(LIST, { first: 2, after: Buffer.from('arrayconnection:99999').toString('base64') });
    expect(gone.body.errors?.[0]?.message).toMatch(/no longer exists/);
  });

  it('first: 0 returns an empty page with the total', async () => {
    const r = await list({ first: 0 });
    expect(r.nodes).toEqual([]);
    expect(r.found).toBe(11);
    expect(r.pageInfo.hasNextPage).toBe(true);
  });
});

describe('where filters', () => {
  it('category / categoryIn / categoryNotIn take slugs and include sub-categories', async () => {
    expect(sorted(await slugs({ category: 'gateways' }))).toEqual([
      'alpha-gateway',
      'bravo-outdoor-gateway',
      'partner-solar-kit',
    ]);
    expect(await slugs({ categoryIn: ['indoor-gateways'] })).toEqual(['alpha-gateway']);
    expect(sorted(await slugs({ categoryIn: ['antennas', 'software'] }))).toEqual([
      'mesh-os',
      'omni-antenna',
      'yagi-antenna',
    ]);
    expect(sorted(await slugs({ categoryNotIn: ['gateways', 'accessories'] }))).toEqual([
      'catalog-only-sticker',
      'mesh-hoodie',
      'mesh-os',
      'omni-antenna',
      'yagi-antenna',
    ]);
    expect(await slugs({ category: 'no-such-category' })).toEqual([]);
  });

  it('categoryId / categoryIdIn / categoryIdNotIn take term ids', async () => {
    const cats = await t.data<{ productCategories: { nodes: { databaseId: number; slug: string }[] } }>(
      `{ productCategories(first: 50) { nodes { databaseId slug } } }`,
    );
    const id = (slug: string) => cats.productCategories.nodes.find((c) => c.slug === slug)!.databaseId;
    expect(sorted(await slugs({ categoryId: id('antennas') }))).toEqual(['omni-antenna', 'yagi-antenna']);
    expect(sorted(await slugs({ categoryIdIn: [id('software'), id('indoor-gateways')] }))).toEqual([
      'alpha-gateway',
      'mesh-os',
    ]);
    expect(await slugs({ categoryIdNotIn: [id('gateways'), id('antennas'), id('accessories'), id('swag')] })).toEqual([
      'mesh-os',
    ]);
  });

  it('search is a case-insensitive substring of name, slug, SKU and descriptions', async () => {
    expect(sorted(await slugs({ search: 'ANTENNA' }))).toEqual(['omni-antenna', 'yagi-antenna']);
    expect(await slugs({ search: 'concentrator' })).toEqual(['alpha-gateway']);
    expect(await slugs({ search: 'lmr-400' })).toEqual(['n-type-cable']);
    expect(await slugs({ search: 'fx-bravo' })).toEqual(['bravo-outdoor-gateway']);
    expect(await slugs({ search: 'nothing matches this' })).toEqual([]);
  });

  it('minPrice / maxPrice match products whose price range overlaps; 0 is ignored', async () => {
    expect(sorted(await slugs({ minPrice: 40, maxPrice: 100 }))).toEqual([
      'mesh-hoodie',
      'omni-antenna',
      'yagi-antenna',
    ]);
    expect(sorted(await slugs({ minPrice: 300 }))).toEqual(['bravo-outdoor-gateway']);
    expect(sorted(await slugs({ maxPrice: 5 }))).toEqual(['catalog-only-sticker', 'hidden-spare-part']);
    expect(sorted(await slugs({ minPrice: 0 }))).toEqual(PUBLISHED);
    // Bounds are inclusive and compared in cents: 49.90 is in [49.9, 49.9].
    expect(await slugs({ minPrice: 49.9, maxPrice: 49.9 })).toEqual(['omni-antenna']);
  });

  it('onSale', async () => {
    expect(sorted(await slugs({ onSale: true }))).toEqual(['alpha-gateway', 'mesh-hoodie', 'omni-antenna']);
    expect(await slugs({ onSale: false })).toHaveLength(8);
  });

  it('stockStatus (a variable product is in stock when any variation is)', async () => {
    expect(await slugs({ stockStatus: ['OUT_OF_STOCK'] })).toEqual(['n-type-cable']);
    expect(await slugs({ stockStatus: ['ON_BACKORDER'] })).toEqual(['yagi-antenna']);
    expect(sorted(await slugs({ stockStatus: ['OUT_OF_STOCK', 'ON_BACKORDER'] }))).toEqual([
      'n-type-cable',
      'yagi-antenna',
    ]);
    expect(await slugs({ stockStatus: ['IN_STOCK'] })).toHaveLength(9);
  });

  it('visibility follows WooGraphQL (VISIBLE excludes catalog-only and search-only products)', async () => {
    const visible = [
      'alpha-gateway',
      'bravo-outdoor-gateway',
      'mesh-hoodie',
      'mesh-os',
      'n-type-cable',
      'omni-antenna',
      'partner-solar-kit',
      'yagi-antenna',
    ];
    expect(sorted(await slugs({ visibility: 'VISIBLE' }))).toEqual(visible);
    expect(sorted(await slugs({ visibility: 'CATALOG' }))).toEqual(sorted([...visible, 'catalog-only-sticker']));
    expect(sorted(await slugs({ visibility: 'SEARCH' }))).toEqual(sorted([...visible, 'search-only-adapter']));
    expect(await slugs({ visibility: 'HIDDEN' })).toEqual(['hidden-spare-part']);
  });

  it('status: anonymous callers only ever see published products', async () => {
    expect(await slugs({ status: 'publish' })).toHaveLength(11);
    expect(await slugs({ status: 'draft' })).toEqual([]);
  });

  it('featured', async () => {
    expect(await slugs({ featured: true })).toEqual(['alpha-gateway']);
    expect(await slugs({ featured: false })).toHaveLength(10);
  });

  it('type / typeIn / typeNotIn', async () => {
    expect(sorted(await slugs({ type: 'VARIABLE' }))).toEqual(['alpha-gateway', 'mesh-hoodie']);
    expect(sorted(await slugs({ typeIn: ['EXTERNAL', 'VARIABLE'] }))).toEqual([
      'alpha-gateway',
      'mesh-hoodie',
      'partner-solar-kit',
    ]);
    expect(await slugs({ typeNotIn: ['SIMPLE', 'VARIABLE'] })).toEqual(['partner-solar-kit']);
  });

  it('include / exclude take database ids', async () => {
    const all = await list({});
    const id = (slug: string) => all.edges.find((e) => e.node.slug === slug)!.node.databaseId;
    expect(sorted(await slugs({ include: [id('mesh-os'), id('yagi-antenna')] }))).toEqual(['mesh-os', 'yagi-antenna']);
    expect(await slugs({ exclude: [id('mesh-os')] })).toHaveLength(10);
    expect(
      await slugs({ include: [id('yagi-antenna'), id('mesh-os')], orderby: [{ field: 'IN', order: 'ASC' }] }),
    ).toEqual(['yagi-antenna', 'mesh-os']);
  });

  it('slugIn, with NAME_IN keeping the given order', async () => {
    expect(sorted(await slugs({ slugIn: ['omni-antenna', 'yagi-antenna', 'draft-prototype'] }))).toEqual([
      'omni-antenna',
      'yagi-antenna',
    ]);
    expect(
      await slugs({ slugIn: ['yagi-antenna', 'omni-antenna'], orderby: [{ field: 'NAME_IN', order: 'ASC' }] }),
    ).toEqual(['yagi-antenna', 'omni-antenna']);
  });

  it('sku matches a product or one of its variations, case-insensitively', async () => {
    expect(await slugs({ sku: 'FX-BRAVO' })).toEqual(['bravo-outdoor-gateway']);
    expect(await slugs({ sku: 'fx-alpha-us' })).toEqual(['alpha-gateway']);
    expect(await slugs({ sku: 'FX-NONE' })).toEqual([]);
  });

  it('rating matches the average rounded to whole stars', async () => {
    expect(sorted(await slugs({ rating: [5] }))).toEqual(['alpha-gateway', 'omni-antenna']);
    expect(await slugs({ rating: [4] })).toEqual(['bravo-outdoor-gateway']);
    expect(sorted(await slugs({ rating: [2, 3] }))).toEqual(['mesh-hoodie', 'n-type-cable']);
  });

  it('tag / tagIn / tagNotIn', async () => {
    expect(sorted(await slugs({ tag: 'lora' }))).toEqual(['alpha-gateway', 'omni-antenna']);
    expect(sorted(await slugs({ tagIn: ['apparel', 'sticker'] }))).toEqual(['catalog-only-sticker', 'mesh-hoodie']);
    expect(await slugs({ tagNotIn: ['lora', 'apparel', 'sticker', 'outdoor'] })).toHaveLength(7);
  });

  it('attributes: global attribute terms, with or without the pa_ prefix', async () => {
    expect(await slugs({ attributes: { queries: [{ taxonomy: 'pa_color', terms: ['teal'] }] } })).toEqual([
      'mesh-hoodie',
    ]);
    expect(await slugs({ attributes: { queries: [{ taxonomy: 'frequency-band', terms: ['us915'] }] } })).toEqual([
      'alpha-gateway',
    ]);
    expect(await slugs({ attributes: { queries: [{ taxonomy: 'pa_color', terms: ['white'] }] } })).toEqual([]);
    expect(
      sorted(
        await slugs({
          attributes: {
            relation: 'OR',
            queries: [
              { taxonomy: 'pa_color', terms: ['teal'] },
              { taxonomy: 'pa_frequency-band', terms: ['eu868'] },
            ],
          },
        }),
      ),
    ).toEqual(['alpha-gateway', 'mesh-hoodie']);
  });

  it('combines filters (AND)', async () => {
    expect(await slugs({ category: 'antennas', onSale: true })).toEqual(['omni-antenna']);
    expect(
      await slugs({
        visibility: 'VISIBLE',
        search: 'gateway',
        maxPrice: 250,
        orderby: [{ field: 'PRICE', order: 'ASC' }],
      }),
    ).toEqual(['alpha-gateway']);
  });
});

describe('orderby', () => {
  const order = (field: string, dir: 'ASC' | 'DESC') => slugs({ orderby: [{ field, order: dir }] });

  it('DATE (default direction DESC)', async () => {
    expect(await order('DATE', 'DESC')).toEqual(BY_DATE_DESC);
    expect(await slugs({ orderby: [{ field: 'DATE' }] })).toEqual(BY_DATE_DESC);
    expect(await order('DATE', 'ASC')).toEqual([...BY_DATE_DESC].reverse());
  });

  it('PRICE sorts ascending by the lowest and descending by the highest variation price', async () => {
    expect(await order('PRICE', 'ASC')).toEqual([
      'catalog-only-sticker',
      'hidden-spare-part',
      'search-only-adapter',
      'n-type-cable',
      'mesh-os',
      'mesh-hoodie',
      'omni-antenna',
      'yagi-antenna',
      'alpha-gateway',
      'partner-solar-kit',
      'bravo-outdoor-gateway',
    ]);
    expect(await order('PRICE', 'DESC')).toEqual([
      'bravo-outdoor-gateway',
      'partner-solar-kit',
      'alpha-gateway',
      'yagi-antenna',
      'omni-antenna',
      'mesh-hoodie',
      'mesh-os',
      'n-type-cable',
      'search-only-adapter',
      'hidden-spare-part',
      'catalog-only-sticker',
    ]);
  });

  it('NAME', async () => {
    const names = [
      'alpha-gateway',
      'bravo-outdoor-gateway',
      'catalog-only-sticker',
      'hidden-spare-part',
      'mesh-hoodie',
      'mesh-os',
      'n-type-cable',
      'omni-antenna',
      'partner-solar-kit',
      'search-only-adapter',
      'yagi-antenna',
    ];
    expect(await order('NAME', 'ASC')).toEqual(names);
    expect(await order('NAME', 'DESC')).toEqual([...names].reverse());
  });

  it('POPULARITY / TOTAL_SALES (ties broken by id, so the order is total)', async () => {
    const desc = await order('POPULARITY', 'DESC');
    expect(desc.slice(0, 7)).toEqual([
      'n-type-cable',
      'omni-antenna',
      'alpha-gateway',
      'mesh-os',
      'mesh-hoodie',
      'bravo-outdoor-gateway',
      'yagi-antenna',
    ]);
    expect(await order('TOTAL_SALES', 'DESC')).toEqual(desc);
    expect(await order('POPULARITY', 'ASC')).toEqual([...desc].reverse());
  });

  it('RATING and REVIEW_COUNT', async () => {
    const rating = await order('RATING', 'DESC');
    expect(rating.slice(0, 5)).toEqual([
      'omni-antenna',
      'alpha-gateway',
      'bravo-outdoor-gateway',
      'n-type-cable',
      'mesh-hoodie',
    ]);
    expect(await order('RATING', 'ASC')).toEqual([...rating].reverse());
    const reviews = await order('REVIEW_COUNT', 'DESC');
    expect(reviews.slice(0, 2)).toEqual(['omni-antenna', 'alpha-gateway']);
    expect(await order('REVIEW_COUNT', 'ASC')).toEqual([...reviews].reverse());
  });

  it('every other field sorts both ways, ASC being the exact reverse of DESC', async () => {
    for (const field of [
      'MODIFIED',
      'SLUG',
      'MENU_ORDER',
      'PARENT',
      'REGULAR_PRICE',
      'SALE_PRICE',
      'ON_SALE_FROM',
      'ON_SALE_TO',
    ]) {
      const desc = await order(field, 'DESC');
      expect(sorted(desc), field).toEqual(PUBLISHED);
      expect(await order(field, 'ASC'), field).toEqual([...desc].reverse());
    }
    expect(await order('SLUG', 'ASC')).toEqual(PUBLISHED);
    const regular = await order('REGULAR_PRICE', 'ASC');
    expect(regular.indexOf('omni-antenna')).toBeGreaterThan(regular.indexOf('mesh-hoodie')); // 59.90 > 49.00
  });

  it('only the first orderby entry counts', async () => {
    expect(
      await slugs({
        orderby: [
          { field: 'DATE', order: 'DESC' },
          { field: 'NAME', order: 'ASC' },
        ],
      }),
    ).toEqual(BY_DATE_DESC);
  });

  it('without orderby: editor (menu) order, ties by name', async () => {
    expect(await slugs({})).toEqual(await order('MENU_ORDER', 'ASC'));
  });
});
