// productCategories, terms by taxonomy, allowedCountries, countries, countryStates.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';

let t: TestEngine;
beforeAll(async () => {
  t = await startTestEngine();
}, ENGINE_START_TIMEOUT_MS);
afterAll(async () => {
  await t?.close();
}, ENGINE_START_TIMEOUT_MS);

type Cat = { slug: string; count: number; databaseId: number };
const cats = async (where: Record<string, unknown> = {}, first = 100) =>
  (
    await t.data<{ productCategories: { nodes: Cat[] } }>(
      `query($where: RootQueryToProductCategoryConnectionWhereArgs, $first: Int) { productCategories(first: $first, where: $where) { nodes { slug count databaseId } } }`,
      { where, first },
    )
  ).productCategories.nodes;

describe('productCategories', () => {
  it('lists every category by name, with product counts that include sub-categories', async () => {
    expect((await cats()).map((c) => [c.slug, c.count])).toEqual([
      ['accessories', 3],
      ['antennas', 2],
      ['empty-category', 0],
      ['gateways', 3],
      ['indoor-gateways', 1],
      ['software', 1],
      ['swag', 2],
    ]);
  });

  it('orders by count (DESC) and hides empty categories when asked', async () => {
    expect((await cats({ orderby: 'COUNT', order: 'DESC', hideEmpty: true })).map((c) => c.slug)).toEqual([
      'gateways',
      'accessories',
      'antennas',
      'swag',
      'indoor-gateways',
      'software',
    ]);
    expect((await cats({ orderby: 'COUNT', order: 'ASC' })).map((c) => c.slug)[0]).toBe('empty-category');
  });

  it('orders by name, slug, term order and id both ways', async () => {
    expect((await cats({ orderby: 'NAME', order: 'DESC' })).map((c) => c.slug)[0]).toBe('swag');
    expect((await cats({ orderby: 'TERM_ORDER', order: 'ASC' })).map((c) => c.slug)).toEqual([
      'gateways',
      'indoor-gateways',
      'antennas',
      'accessories',
      'software',
      'swag',
      'empty-category',
    ]);
    const byId = await cats({ orderby: 'TERM_ID', order: 'ASC' });
    expect(await cats({ orderby: 'TERM_ID', order: 'DESC' })).toEqual([...byId].reverse());
  });

  it('filters by parent, slug and include', async () => {
    const all = await cats();
    const gateways = all.find((c) => c.slug === 'gateways')!;
    expect((await cats({ parent: gateways.databaseId })).map((c) => c.slug)).toEqual(['indoor-gateways']);
    expect((await cats({ parent: 0 })).map((c) => c.slug)).not.toContain('indoor-gateways');
    expect((await cats({ slug: ['swag', 'software'] })).map((c) => c.slug)).toEqual(['software', 'swag']);
    expect((await cats({ include: [gateways.databaseId] })).map((c) => c.slug)).toEqual(['gateways']);
  });

  it('pages with first and returns category details', async () => {
    expect(await cats({}, 2)).toHaveLength(2);
    const r = await t.data(`{ productCategories(where: { slug: ["indoor-gateways", "gateways"] }) { nodes {
      slug name description uri parentDatabaseId image { sourceUrl } parent { node { slug } } children { nodes { slug } } ancestors { nodes { slug } }
      products(first: 10) { found nodes { slug } }
    } } }`);
    const [gw, indoor] = r.productCategories.nodes;
    expect(gw).toMatchObject({
      slug: 'gateways',
      name: 'Gateways',
      description: 'LoRa gateways.',
      uri: '/product-category/gateways/',
      parentDatabaseId: 0,
      image: { sourceUrl: `${t.engine.storefront.mediaBaseUrl}/media/catalog/cat-gateways.svg` },
      parent: null,
      children: { nodes: [{ slug: 'indoor-gateways' }] },
    });
    expect(gw.products.found).toBe(3);
    expect(indoor).toMatchObject({
      parent: { node: { slug: 'gateways' } },
      ancestors: { nodes: [{ slug: 'gateways' }] },
      image: null,
      products: { found: 1, nodes: [{ slug: 'alpha-gateway' }] },
    });
  });

  it('productCategory by slug', async () => {
    const r = await t.data(`{ productCategory(id: "software", idType: SLUG) { name count } }`);
    expect(r.productCategory).toEqual({ name: 'Software', count: 1 });
  });
});

describe('terms', () => {
  const terms = async (where: Record<string, unknown>) =>
    (
      await t.data<{ terms: { nodes: { taxonomyName: string; slug: string; name: string; count: number }[] } }>(
        `query($where: RootQueryToTermNodeConnectionWhereArgs) { terms(first: 100, where: $where) { nodes { __typename taxonomyName slug name count } } }`,
        { where },
      )
    ).terms.nodes;

  it('returns the terms of the asked taxonomies, typed per taxonomy', async () => {
    const colors = await terms({ taxonomies: ['PACOLOR'] });
    expect(colors).toEqual([
      { __typename: 'PaColor', taxonomyName: 'pa_color', slug: 'black', name: 'Black', count: 1 },
      { __typename: 'PaColor', taxonomyName: 'pa_color', slug: 'teal', name: 'Teal', count: 1 },
      { __typename: 'PaColor', taxonomyName: 'pa_color', slug: 'white', name: 'White', count: 0 },
    ]);
    expect((await terms({ taxonomies: ['PACOLOR'], hideEmpty: true })).map((x) => x.slug)).toEqual(['black', 'teal']);
    const mixed = await terms({ taxonomies: ['PAFREQUENCYBAND', 'PRODUCTTAG'] });
    expect(new Set(mixed.map((x) => x.taxonomyName))).toEqual(new Set(['pa_frequency-band', 'product_tag']));
    expect(mixed.find((x) => x.slug === 'apparel')).toMatchObject({ __typename: 'ProductTag', count: 1 });
    expect((await terms({ taxonomies: ['PRODUCTCATEGORY'] }))[0]).toMatchObject({ __typename: 'ProductCategory' });
  });

  it('without taxonomies returns every catalog taxonomy', async () => {
    const all = await terms({});
    expect(new Set(all.map((x) => x.taxonomyName))).toEqual(
      new Set(['product_cat', 'product_tag', 'pa_color', 'pa_size', 'pa_frequency-band']),
    );
  });

  it('refuses an unknown taxonomy with a validation error', async () => {
    const r = await t.gql(`{ terms(where: { taxonomies: [NOPE] }) { nodes { slug } } }`);
    expect(r.body.errors?.[0]?.message).toMatch(/TaxonomyEnum/);
  });
});

describe('countries', () => {
  it('allowedCountries lists the configured ISO codes', async () => {
    const r = await t.data<{ allowedCountries: string[] }>(`{ allowedCountries }`);
    expect(r.allowedCountries).toEqual(
      expect.arrayContaining(['DE', 'FR', 'IT', 'ES', 'US', 'CA', 'BR', 'AU', 'IN', 'MX', 'GB']),
    );
    expect(r.allowedCountries).not.toContain('KP');
  });

  it('countries lists every ISO 3166-1 code', async () => {
    const r = await t.data<{ countries: string[] }>(`{ countries }`);
    expect(r.countries.length).toBeGreaterThan(240);
    expect(r.countries).toEqual(expect.arrayContaining(['AD', 'ZW', 'XK']));
  });

  it('countryStates: real subdivisions, [] for a country without states', async () => {
    const states = async (country: string) =>
      (
        await t.data<{ countryStates: { code: string; name: string }[] }>(
          `query($c: CountriesEnum!) { countryStates(country: $c) { code name } }`,
          { c: country },
        )
      ).countryStates;
    const us = await states('US');
    expect(us).toContainEqual({ code: 'CA', name: 'California' });
    expect(us).toContainEqual({ code: 'DC', name: 'District Of Columbia' });
    expect(us.length).toBeGreaterThanOrEqual(51);
    expect(await states('CA')).toHaveLength(13);
    expect(await states('BR')).toHaveLength(27);
    expect(await states('AU')).toHaveLength(8);
    expect(await states('MX')).toHaveLength(32);
    expect(await states('DE')).toContainEqual({ code: 'DE-BY', name: 'Bavaria' });
    expect(await states('IT')).toContainEqual({ code: 'RM', name: 'Roma' });
    expect(await states('ES')).toContainEqual({ code: 'M', name: 'Madrid' });
    expect((await states('IN')).map((s) => s.code)).toContain('KA');
    expect(await states('FR')).toEqual([]);
    expect(await states('NL')).toEqual([]);
  });

  it('refuses a code that is not a country', async () => {
    const r = await t.gql(`{ countryStates(country: XX) { code } }`);
    expect(r.body.errors?.[0]?.message).toMatch(/CountriesEnum/);
  });
});
