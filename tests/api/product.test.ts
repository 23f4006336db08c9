// product(id, idType) and every product field the storefront reads.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';

let t: TestEngine;
beforeAll(async () => {
  t = await startTestEngine();
}, ENGINE_START_TIMEOUT_MS);
afterAll(async () => {
  await t?.close();
}, ENGINE_START_TIMEOUT_MS);
/** An image URL as the API gives it: absolute, under MEDIA_BASE_URL (the site URL by default). */
const media = (p: string) => `${t.engine.storefront.mediaBaseUrl}${p}`;

const BY = /* GraphQL */ `
  query by($id: ID!, $idType: ProductIdTypeEnum) {
    product(id: $id, idType: $idType) { id databaseId slug name }
  }
`;
const PRICES = /* GraphQL */ `
  query prices($slug: ID!) {
    product(id: $slug, idType: SLUG) {
      __typename
      onSale
      ... on ProductWithPricing {
        price
        regularPrice
        salePrice
        rawPrice: price(format: RAW)
        rawRegularPrice: regularPrice(format: RAW)
        rawSalePrice: salePrice(format: RAW)
      }
    }
  }
`;
const prices = async (slug: string) => (await t.data<{ product: Record<string, unknown> }>(PRICES, { slug })).product;

describe('product(id, idType)', () => {
  it('finds a product by SLUG, DATABASE_ID, SKU and global ID (the default idType)', async () => {
    const bySlug = (await t.data(BY, { id: 'bravo-outdoor-gateway', idType: 'SLUG' })).product;
    expect(bySlug).toMatchObject({ slug: 'bravo-outdoor-gateway', name: 'Bravo Outdoor Gateway' });
    expect(Buffer.from(bySlug.id, 'base64').toString()).toBe(`post:${bySlug.databaseId}`);
    expect((await t.data(BY, { id: String(bySlug.databaseId), idType: 'DATABASE_ID' })).product).toEqual(bySlug);
    expect((await t.data(BY, { id: 'FX-BRAVO', idType: 'SKU' })).product).toEqual(bySlug);
    expect((await t.data(BY, { id: bySlug.id, idType: 'ID' })).product).toEqual(bySlug);
    expect((await t.data(BY, { id: bySlug.id })).product).toEqual(bySlug);
  });

  it('answers null (not an error) for an unknown slug, id, SKU or a malformed id', async () => {
    for (const [id, idType] of [
      ['no-such-product', 'SLUG'],
      ['999999', 'DATABASE_ID'],
      ['abc', 'DATABASE_ID'],
      ['FX-NOPE', 'SKU'],
      ['bm90LWFuLWlk', 'ID'],
      ['%%%', 'ID'],
    ]) {
      const r = await t.gql(BY, { id, idType });
      expect(r.body.errors, `${idType} ${id}`).toBeUndefined();
      expect(r.body.data.product, `${idType} ${id}`).toBeNull();
    }
  });

  it('does not show unpublished products', async () => {
    expect((await t.data(BY, { id: 'draft-prototype', idType: 'SLUG' })).product).toBeNull();
    expect((await t.data(BY, { id: 'FX-DRAFT', idType: 'SKU' })).product).toBeNull();
  });

  it('still finds hidden products by slug (hidden only from lists)', async () => {
    expect((await t.data(BY, { id: 'hidden-spare-part', idType: 'SLUG' })).product?.slug).toBe('hidden-spare-part');
  });

  it('rejects an unknown idType as a validation error', async () => {
    const r = await t.gql(`{ product(id: "x", idType: NAME) { name } }`);
    expect(r.body.errors?.[0]?.message).toMatch(/ProductIdTypeEnum/);
    expect(r.body.data).toBeUndefined();
  });
});

describe('prices', () => {
  it('simple product on sale: formatted EUR and WooCommerce raw spelling', async () => {
    expect(await prices('omni-antenna')).toEqual({
      __typename: 'SimpleProduct',
      onSale: true,
      price: '€49.90',
      regularPrice: '€59.90',
      salePrice: '€49.90',
      rawPrice: '49.9',
      rawRegularPrice: '59.9',
      rawSalePrice: '49.9',
    });
  });

  it('simple product not on sale has a null sale price; thousands are separated', async () => {
    expect(await prices('bravo-outdoor-gateway')).toMatchObject({
      onSale: false,
      price: '€449.00',
      regularPrice: '€449.00',
      salePrice: null,
      rawPrice: '449',
      rawSalePrice: null,
    });
  });

  it('variable product: ranges when formatted, the sorted comma list of variation prices when RAW', async () => {
    expect(await prices('alpha-gateway')).toEqual({
      __typename: 'VariableProduct',
      onSale: true,
      price: '€179.00 - €199.00',
      regularPrice: '€199.00 - €209.00',
      salePrice: '€179.00',
      rawPrice: '179, 199, 199',
      rawRegularPrice: '199, 199, 209',
      rawSalePrice: '179',
    });
    expect(await prices('mesh-hoodie')).toMatchObject({
      price: '€39.00 - €49.00',
      rawPrice: '39, 49, 49, 49',
      regularPrice: '€49.00',
      rawRegularPrice: '49, 49, 49, 49',
    });
  });

  it('external product', async () => {
    const r = await t.data(
      `{ product(id: "partner-solar-kit", idType: SLUG) { __typename ... on ExternalProduct { price rawPrice: price(format: RAW) externalUrl buttonText } } }`,
    );
    expect(r.product).toEqual({
      __typename: 'ExternalProduct',
      price: '€299.00',
      rawPrice: '299',
      externalUrl: 'https://partner.example.com/solar-kit',
      buttonText: 'Buy from SolarCo',
    });
  });
});

describe('stock', () => {
  const STOCK = /* GraphQL */ `
    query stock($slug: ID!) {
      product(id: $slug, idType: SLUG) {
        ... on InventoriedProduct { stockStatus stockQuantity lowStockAmount manageStock backorders backordersAllowed }
      }
    }
  `;
  it('managed stock: quantity, low-stock amount, out of stock, backorders', async () => {
    expect((await t.data(STOCK, { slug: 'omni-antenna' })).product).toEqual({
      stockStatus: 'IN_STOCK',
      stockQuantity: 30,
      lowStockAmount: 5,
      manageStock: 'TRUE',
      backorders: 'NO',
      backordersAllowed: false,
    });
    // A managed stock of 0 is 0; null is for products that do not manage stock (mesh-os below).
    expect((await t.data(STOCK, { slug: 'n-type-cable' })).product).toMatchObject({
      stockStatus: 'OUT_OF_STOCK',
      stockQuantity: 0,
    });
    expect((await t.data(STOCK, { slug: 'yagi-antenna' })).product).toMatchObject({
      stockStatus: 'ON_BACKORDER',
      backorders: 'NOTIFY',
      backordersAllowed: true,
    });
    expect((await t.data(STOCK, { slug: 'mesh-os' })).product).toMatchObject({
      stockStatus: 'IN_STOCK',
      manageStock: 'FALSE',
      stockQuantity: null,
    });
  });

  it('the stock-status lookup (getStockStatus) returns the product and each variation', async () => {
    const r = await t.data(
      `
      query getStockStatus($slug: ID!) {
        product(id: $slug, idType: SLUG) {
          ... on SimpleProduct { stockStatus stockQuantity }
          ... on VariableProduct { stockStatus stockQuantity variations { nodes { databaseId sku stockStatus stockQuantity lowStockAmount attributes { nodes { name value } } } } }
        }
      }`,
      { slug: 'alpha-gateway' },
    );
    expect(r.product.stockStatus).toBe('IN_STOCK');
    expect(
      r.product.variations.nodes.map(
        (v: { sku: string; stockStatus: string; stockQuantity: number | null; lowStockAmount: number | null }) => [
          v.sku,
          v.stockStatus,
          v.stockQuantity,
          v.lowStockAmount,
        ],
      ),
    ).toEqual([
      ['FX-ALPHA-EU', 'IN_STOCK', 5, null],
      ['FX-ALPHA-US', 'OUT_OF_STOCK', 0, null],
      ['FX-ALPHA-AS', 'IN_STOCK', 2, 3],
    ]);
    expect(r.product.variations.nodes[0].attributes.nodes).toEqual([{ name: 'pa_frequency-band', value: 'eu868' }]);
  });
});

describe('product fields', () => {
  it('descriptive fields, dates, flags, dimensions, rating', async () => {
    const r = await t.data(`{ product(id: "alpha-gateway", idType: SLUG) {
      name sku type featured status date catalogVisibility description shortDescription totalSales averageRating reviewCount
      purchasable virtual downloadable uri
      ... on ProductWithDimensions { weight length width height }
    } }`);
    expect(r.product).toEqual({
      name: 'Alpha Indoor Gateway',
      sku: 'FX-ALPHA',
      type: 'VARIABLE',
      featured: true,
      status: 'publish',
      date: '2025-01-10T10:00:00',
      catalogVisibility: 'VISIBLE',
      description: '<p>An indoor gateway with a <strong>concentrator</strong>.</p>',
      shortDescription: '<p>Indoor LoRa gateway.</p>',
      totalSales: 120,
      averageRating: 4.5,
      reviewCount: 2,
      purchasable: true,
      virtual: false,
      downloadable: false,
      uri: '/product/alpha-gateway/',
      weight: '0.4',
      length: '12',
      width: '10',
      height: '4',
    });
  });

  it('virtual downloadable product with its downloads', async () => {
    const r = await t.data(
      `{ product(id: "mesh-os", idType: SLUG) { virtual downloadable ... on SimpleProduct { downloadLimit downloadExpiry downloads { name file downloadId } } } }`,
    );
    expect(r.product).toMatchObject({ virtual: true, downloadable: true, downloadLimit: 5, downloadExpiry: 365 });
    expect(r.product.downloads).toHaveLength(1);
    expect(r.product.downloads[0]).toMatchObject({ name: 'Mesh OS 1.0', file: 'mesh-os-1.0.zip' });
  });

  it('image and gallery: absolute URLs under MEDIA_BASE_URL (<base>/media/catalog/<file>) with size and alt text', async () => {
    const r = await t.data(`{ product(id: "alpha-gateway", idType: SLUG) {
      image { sourceUrl thumb: sourceUrl(size: THUMBNAIL) altText title databaseId mediaDetails { width height } }
      galleryImages(first: 20) { nodes { sourceUrl } }
      one: galleryImages(first: 1) { nodes { sourceUrl } pageInfo { hasNextPage } }
    } }`);
    expect(r.product.image).toMatchObject({
      sourceUrl: media('/media/catalog/alpha.svg'),
      thumb: media('/media/catalog/alpha.svg'),
      altText: 'Alpha Indoor Gateway',
      title: 'alpha',
      mediaDetails: { width: 400, height: 300 },
    });
    expect(r.product.image.databaseId).toEqual(expect.any(Number));
    expect(r.product.galleryImages.nodes.map((n: { sourceUrl: string }) => n.sourceUrl)).toEqual([
      media('/media/catalog/alpha-back.svg'),
      media('/media/catalog/alpha-side.svg'),
    ]);
    expect(r.product.one).toEqual({
      nodes: [{ sourceUrl: media('/media/catalog/alpha-back.svg') }],
      pageInfo: { hasNextPage: true },
    });
  });

  it('variations: names, prices, stock, attributes and image (falling back to the product image)', async () => {
    const r = await t.data(`{ product(id: "mesh-hoodie", idType: SLUG) { ... on VariableProduct {
      variations(first: 100) { nodes { name databaseId sku price rawSalePrice: salePrice(format: RAW) onSale stockStatus stockQuantity hasAttributes image { sourceUrl } attributes { nodes { name label value attributeId } } } }
      defaultAttributes { nodes { name label value } }
    } } }`);
    const v = r.product.variations.nodes;
    expect(v.map((x: { name: string }) => x.name)).toEqual([
      'Mesh Hoodie - Black, S',
      'Mesh Hoodie - Black, M',
      'Mesh Hoodie - Teal, S',
      'Mesh Hoodie - Teal, M',
    ]);
    expect(v[2]).toMatchObject({
      sku: 'FX-HOODIE-TS',
      price: '€39.00',
      rawSalePrice: '39',
      onSale: true,
      stockQuantity: 3,
      image: { sourceUrl: media('/media/catalog/hoodie-teal.svg') },
    });
    expect(v[0].image.sourceUrl).toBe(media('/media/catalog/hoodie.svg'));
    expect(v[3]).toMatchObject({ stockStatus: 'ON_BACKORDER', stockQuantity: 0 });
    expect(
      v[0].attributes.nodes.map((a: { name: string; label: string; value: string }) => [a.name, a.label, a.value]),
    ).toEqual([
      ['pa_color', 'Color', 'black'],
      ['pa_size', 'Size', 's'],
    ]);
    expect(r.product.defaultAttributes.nodes).toEqual([
      { name: 'pa_color', label: 'Color', value: 'black' },
      { name: 'pa_size', label: 'Size', value: 'm' },
    ]);
  });

  it('attributes: global ones with their terms in menu order, local ones with free-text options', async () => {
    const r =
      await t.data(`{ product(id: "mesh-hoodie", idType: SLUG) { ... on ProductWithAttributes { attributes { nodes {
      __typename name label options visible variation scope position
      ... on GlobalProductAttribute { slug terms(where: { orderby: MENU_ORDER, order: ASC }) { nodes { name slug taxonomyName } } }
    } } } } }`);
    const [color, size, material] = r.product.attributes.nodes;
    expect(color).toMatchObject({
      __typename: 'GlobalProductAttribute',
      name: 'pa_color',
      label: 'Color',
      options: ['black', 'teal'],
      variation: true,
      visible: true,
      scope: 'GLOBAL',
      slug: 'pa_color',
    });
    expect(color.terms.nodes).toEqual([
      { name: 'Black', slug: 'black', taxonomyName: 'pa_color' },
      { name: 'Teal', slug: 'teal', taxonomyName: 'pa_color' },
    ]);
    expect(size.terms.nodes.map((n: { slug: string }) => n.slug)).toEqual(['s', 'm']);
    expect(material).toMatchObject({
      __typename: 'LocalProductAttribute',
      name: 'Material',
      label: 'Material',
      options: ['Organic cotton'],
      variation: false,
      scope: 'LOCAL',
    });
    const local = await t.data(
      `{ product(id: "mesh-hoodie", idType: SLUG) { ... on ProductWithAttributes { attributes(where: { type: LOCAL }) { nodes { name } } } } }`,
    );
    expect(local.product.attributes.nodes).toEqual([{ name: 'Material' }]);
  });

  it('productCategories, terms (taxonomyName + slug) and metaData', async () => {
    const r = await t.data(`{ product(id: "alpha-gateway", idType: SLUG) {
      productCategories { nodes { slug name count } }
      terms(first: 100) { nodes { taxonomyName slug } }
    }
    bravo: product(id: "bravo-outdoor-gateway", idType: SLUG) { metaData { key value } one: metaData(key: "ip_rating") { value } } }`);
    expect(r.product.productCategories.nodes).toEqual([
      { slug: 'gateways', name: 'Gateways', count: 3 },
      { slug: 'indoor-gateways', name: 'Indoor gateways', count: 1 },
    ]);
    expect(r.product.terms.nodes).toEqual(
      expect.arrayContaining([
        { taxonomyName: 'product_cat', slug: 'gateways' },
        { taxonomyName: 'product_tag', slug: 'lora' },
        { taxonomyName: 'pa_frequency-band', slug: 'us915' },
      ]),
    );
    expect(r.product.terms.nodes).toHaveLength(6);
    expect(r.bravo.metaData).toEqual([
      { key: 'warranty', value: '2 years' },
      { key: 'ip_rating', value: 'IP67' },
    ]);
    expect(r.bravo.one).toEqual([{ value: 'IP67' }]);
  });

  it('related: the editor list first, then category neighbours, at most 5', async () => {
    const r = await t.data(`{ product(id: "omni-antenna", idType: SLUG) { related(first: 5) { nodes { slug } } } }`);
    expect(r.product.related.nodes.map((n: { slug: string }) => n.slug)).toEqual(['alpha-gateway', 'yagi-antenna']);
    const gw = await t.data(
      `{ product(id: "bravo-outdoor-gateway", idType: SLUG) { related(first: 50) { nodes { slug } } one: related(first: 1) { nodes { slug } } } }`,
    );
    expect(gw.product.related.nodes.map((n: { slug: string }) => n.slug)).toEqual([
      'alpha-gateway',
      'partner-solar-kit',
    ]);
    expect(gw.product.one.nodes).toHaveLength(1);
  });

  it('reviews: newest first, rating on the edge, average on the connection, HTML-escaped content', async () => {
    const r = await t.data(`{ product(id: "alpha-gateway", idType: SLUG) { reviews(first: 10) {
      averageRating
      edges { rating node { content raw: content(format: RAW) date author { node { name } } } }
    } } }`);
    expect(r.product.reviews.averageRating).toBe(4.5);
    expect(r.product.reviews.edges).toEqual([
      {
        rating: 4,
        node: {
          content: '<p>Good range.</p>\n<p>Setup &lt;easy&gt;.</p>',
          raw: 'Good range.\n\nSetup <easy>.',
          date: '2025-02-03T00:00:00',
          author: { node: { name: 'Ben Okafor' } },
        },
      },
      {
        rating: 5,
        node: {
          content: '<p>Solid hardware, easy setup.</p>',
          raw: 'Solid hardware, easy setup.',
          date: '2025-02-01T00:00:00',
          author: { node: { name: 'Ana Silva' } },
        },
      },
    ]);
    const first1 = await t.data(
      `{ product(id: "omni-antenna", idType: SLUG) { reviews(first: 1) { averageRating pageInfo { hasNextPage } edges { rating } } } }`,
    );
    expect(first1.product.reviews).toEqual({
      averageRating: 4.67,
      pageInfo: { hasNextPage: true },
      edges: [{ rating: 4 }],
    });
  });

  it('productVariation by database id and SKU', async () => {
    const v = await t.data(
      `{ productVariation(id: "FX-ALPHA-AS", idType: SKU) { databaseId name parent { node { slug } } } }`,
    );
    expect(v.productVariation).toMatchObject({
      name: 'Alpha Indoor Gateway - AS923',
      parent: { node: { slug: 'alpha-gateway' } },
    });
    const again = await t.data(`query($id: ID!) { productVariation(id: $id, idType: DATABASE_ID) { name } }`, {
      id: String(v.productVariation.databaseId),
    });
    expect(again.productVariation.name).toBe('Alpha Indoor Gateway - AS923');
  });
});
