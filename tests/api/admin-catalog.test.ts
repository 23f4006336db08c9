// Catalog operations through the admin API: products (create, edit, archive), prices with sale prices
// and dates, stock with low-stock amounts and backorders, variations, image uploads, downloadable files
// with limit and expiry, and categories. Each write moves the catalog (or stock) version, so the
// storefront's /graphql answers with the change at once — even for a product page it had cached.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startAdminEngine, type AdminTestEngine } from './admin-helpers.ts';
import { productId } from './shop-helpers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

const uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-admin-uploads-'));
let t: AdminTestEngine;
beforeAll(async () => {
  // Store-operations settings come from the environment (each test file runs in its own process).
  Object.assign(process.env, { ADMIN_UPLOADS_DIR: uploads, ADMIN_MAX_UPLOAD_BYTES: '4096' });
  t = await startAdminEngine();
});
afterAll(async () => {
  await t?.close();
  fs.rmSync(uploads, { recursive: true, force: true });
});

const STOREFRONT_PRODUCT = /* GraphQL */ `query ($id: ID!) {
  product(id: $id, idType: DATABASE_ID) {
    name slug onSale image { sourceUrl altText }
    productCategories { nodes { slug } }
    ... on ProductWithPricing { price(format: RAW) regularPrice(format: RAW) salePrice(format: RAW) }
    ... on InventoriedProduct { stockQuantity stockStatus backorders lowStockAmount }
  }
}`;
const shopView = async (id: number) => (await t.data(STOREFRONT_PRODUCT, { id: String(id) })).product;
const version = async () => (await t.data('query { catalogVersion }')).catalogVersion as number;

/** A 1×1 PNG. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

describe('products', () => {
  let id: number;

  it('creates a product as a draft: the shop does not show it until it is published', async () => {
    const gateways = (await t.ok('adminCategories')).adminCategories.find((c: any) => c.slug === 'gateways');
    const before = await version();
    const p = (
      await t.ok('adminCreateProduct', {
        input: {
          name: 'Charlie Indoor Gateway',
          sku: 'CIG-1',
          regularPriceCents: 19900,
          categoryIds: [gateways.id],
          manageStock: true,
          stockQuantity: 7,
          lowStockAmount: 3,
          shortDescription: 'Small.',
        },
      })
    ).adminCreateProduct;
    id = p.id;
    expect(p).toMatchObject({
      name: 'Charlie Indoor Gateway',
      slug: 'charlie-indoor-gateway',
      sku: 'CIG-1',
      status: 'DRAFT',
      type: 'SIMPLE',
      regularPriceCents: 19900,
      priceCents: 19900,
      stockQuantity: 7,
      lowStockAmount: 3,
      stockStatus: 'INSTOCK',
      permalink: '/product/charlie-indoor-gateway',
    });
    expect(p.categories.map((c: any) => c.slug)).toEqual(['gateways']);
    expect(await version()).toBeGreaterThan(before);
    expect(await shopView(id)).toBeNull();
    const published = (await t.ok('adminUpdateProduct', { id, input: { status: 'PUBLISH' } })).adminUpdateProduct;
    expect(published.status).toBe('PUBLISH');
    expect(await shopView(id)).toMatchObject({
      name: 'Charlie Indoor Gateway',
      price: '199',
      stockQuantity: 7,
      productCategories: { nodes: [{ slug: 'gateways' }] },
    });
  });

  it('a price change is on the storefront at once, although the product page was cached', async () => {
    expect((await shopView(id)).price).toBe('199');
    const p = (await t.ok('adminSetPrice', { id, input: { regularPriceCents: 17950 } })).adminSetPrice.product;
    expect(p.regularPriceCents).toBe(17950);
    expect(await shopView(id)).toMatchObject({ price: '179.5', regularPrice: '179.5', onSale: false });
  });

  it('a sale price runs now without dates, and only inside its dates when it has them', async () => {
    await t.ok('adminSetPrice', { id, input: { salePriceCents: 14900 } });
    expect(await shopView(id)).toMatchObject({ price: '149', salePrice: '149', onSale: true });
    const future = (
      await t.ok('adminSetPrice', { id, input: { dateOnSaleFrom: '2999-01-01', dateOnSaleTo: '2999-01-31' } })
    ).adminSetPrice.product;
    expect(future).toMatchObject({
      salePriceCents: 14900,
      onSale: false,
      priceCents: 17950,
      dateOnSaleFrom: '2999-01-01T00:00:00.000Z',
    });
    expect(await shopView(id)).toMatchObject({ price: '179.5', onSale: false });
    const ended = (
      await t.ok('adminSetPrice', { id, input: { salePriceCents: null, dateOnSaleFrom: null, dateOnSaleTo: null } })
    ).adminSetPrice.product;
    expect(ended).toMatchObject({ salePriceCents: null, onSale: false });
  });

  it('refuses prices and fields that make no sense, saying why', async () => {
    expect(await t.fails('adminSetPrice', { id, input: { salePriceCents: 20000 } })).toEqual({
      message: 'The sale price must be lower than the regular price.',
      code: 'BAD_USER_INPUT',
    });
    expect((await t.fails('adminSetPrice', { id, input: { regularPriceCents: -5 } })).message).toBe(
      'Regular price cannot be negative',
    );
    expect(
      (
        await t.fails('adminUpdateProduct', {
          id,
          input: { dateOnSaleFrom: '2030-02-01', dateOnSaleTo: '2030-01-01', salePriceCents: 100 },
        })
      ).message,
    ).toBe('The sale must start before it ends.');
    expect(
      (await t.fails('adminCreateProduct', { input: { name: 'Copy', sku: 'CIG-1', regularPriceCents: 100 } })).message,
    ).toBe('Another product or variation already has this SKU.');
    expect(
      (await t.fails('adminCreateProduct', { input: { name: 'Bad slug', slug: 'Not A Slug', regularPriceCents: 100 } }))
        .message,
    ).toMatch(/slug may contain lower-case letters/);
    expect(await t.fails('adminUpdateProduct', { id, input: { categoryIds: [999999] } })).toEqual({
      message: 'There is no category with id 999999.',
      code: 'NOT_FOUND',
    });
    expect((await t.fails('adminUpdateProduct', { id: 999999, input: { name: 'x' } })).code).toBe('NOT_FOUND');
    // Nothing of the refused edits stuck.
    expect((await t.ok('adminProduct', { id })).adminProduct).toMatchObject({
      regularPriceCents: 17950,
      salePriceCents: null,
      categories: [{ slug: 'gateways' }],
    });
  });

  it('stock: quantity, low-stock amount and backorders; the dashboard lists it when low', async () => {
    const r = (await t.ok('adminSetStock', { id, input: { stockQuantity: 2 } })).adminSetStock;
    expect(r).toMatchObject({ kind: 'product', product: { stockQuantity: 2, stockStatus: 'INSTOCK' } });
    expect(await shopView(id)).toMatchObject({ stockQuantity: 2, stockStatus: 'IN_STOCK' });
    const low = (await t.ok('adminDashboard')).adminDashboard.lowStock;
    expect(low).toContainEqual({
      productId: id,
      variationId: null,
      name: 'Charlie Indoor Gateway',
      sku: 'CIG-1',
      stockQuantity: 2,
      lowStockAmount: 3,
      stockStatus: 'INSTOCK',
    });
    expect((await t.ok('adminProducts', { lowStock: true })).adminProducts.nodes.map((p: any) => p.id)).toContain(id);
    await t.ok('adminSetStock', { id, input: { stockQuantity: 0, backorders: 'NOTIFY', lowStockAmount: 1 } });
    // A managed stock of 0 is 0 (null only where stock is not managed).
    expect(await shopView(id)).toMatchObject({
      stockQuantity: 0,
      stockStatus: 'ON_BACKORDER',
      backorders: 'NOTIFY',
      lowStockAmount: 1,
    });
    await t.ok('adminSetStock', { id, input: { stockQuantity: 25, backorders: 'NO' } });
    expect((await t.ok('adminDashboard')).adminDashboard.lowStock.map((i: any) => i.productId)).not.toContain(id);
    expect((await t.fails('adminSetStock', { id, input: {} })).message).toMatch(/^Nothing to change/);
    expect(
      (await t.fails('adminSetStock', { id: await productId(t, 'partner-solar-kit'), input: { stockQuantity: 3 } }))
        .message,
    ).toMatch(/External products have no stock|Turn on stock management/);
  });

  it('archives a product: gone from the shop and its lists, kept for the operator', async () => {
    const p = (await t.ok('adminArchiveProduct', { id })).adminArchiveProduct;
    expect(p.status).toBe('PRIVATE');
    expect(await shopView(id)).toBeNull();
    const shopList = (await t.data('query { products(first: 100) { nodes { databaseId } } }')).products.nodes.map(
      (n: any) => n.databaseId,
    );
    expect(shopList).not.toContain(id);
    expect((await t.ok('adminProducts', { status: 'PRIVATE' })).adminProducts.nodes.map((n: any) => n.id)).toContain(
      id,
    );
    await t.ok('adminUpdateProduct', { id, input: { status: 'PUBLISH' } });
    expect(await shopView(id)).not.toBeNull();
  });

  it('searches products by name and SKU, pages with a total', async () => {
    const r = (await t.ok('adminProducts', { search: 'cig-1' })).adminProducts;
    expect(r.total).toBe(1);
    expect(r.nodes[0].id).toBe(id);
    const page1 = (await t.ok('adminProducts', { first: 2, offset: 0 })).adminProducts;
    const page2 = (await t.ok('adminProducts', { first: 2, offset: 2 })).adminProducts;
    expect(page1.total).toBeGreaterThan(4);
    expect(page1.nodes.map((n: any) => n.id)).not.toEqual(page2.nodes.map((n: any) => n.id));
    expect((await t.fails('adminProducts', { first: 1000 })).message).toBe('first must be between 1 and 100.');
  });
});

describe('variations', () => {
  it('creates a variable product with an attribute, adds, prices, stocks and deletes variations', async () => {
    const p = (
      await t.ok('adminCreateProduct', {
        input: {
          name: 'Mesh Cap',
          type: 'VARIABLE',
          status: 'PUBLISH',
          attributes: [{ name: 'Colour', options: ['black', 'teal'], variation: true }],
        },
      })
    ).adminCreateProduct;
    expect(p).toMatchObject({
      type: 'VARIABLE',
      regularPriceCents: null,
      attributes: [{ name: 'Colour', options: ['black', 'teal'], variation: true, visible: true }],
    });
    const black = (
      await t.ok('adminCreateVariation', {
        productId: p.id,
        input: {
          sku: 'CAP-BLK',
          attributes: [{ name: 'Colour', value: 'black' }],
          regularPriceCents: 2500,
          stockQuantity: 4,
        },
      })
    ).adminCreateVariation;
    expect(black).toMatchObject({
      productId: p.id,
      sku: 'CAP-BLK',
      regularPriceCents: 2500,
      manageStock: true,
      stockQuantity: 4,
      stockStatus: 'INSTOCK',
      attributes: [{ name: 'Colour', value: 'black' }],
    });
    expect(
      (
        await t.fails('adminCreateVariation', {
          productId: p.id,
          input: { sku: 'CAP-RED', attributes: [{ name: 'Colour', value: 'red' }], regularPriceCents: 2500 },
        })
      ).message,
    ).toBe('"red" is not a value of Colour (black, teal).');
    const teal = (
      await t.ok('adminCreateVariation', {
        productId: p.id,
        input: { sku: 'CAP-TEAL', attributes: [{ name: 'Colour', value: 'teal' }], regularPriceCents: 2700 },
      })
    ).adminCreateVariation;
    const priced = (
      await t.ok('adminSetPrice', { id: teal.id, input: { regularPriceCents: 2600, salePriceCents: 1900 } })
    ).adminSetPrice;
    expect(priced).toMatchObject({
      kind: 'variation',
      variation: { regularPriceCents: 2600, salePriceCents: 1900 },
      product: { priceCents: 1900, onSale: true },
    });
    const stocked = (await t.ok('adminSetStock', { id: teal.id, input: { stockQuantity: 0 } })).adminSetStock;
    expect(stocked.variation).toMatchObject({ stockQuantity: 0, stockStatus: 'OUTOFSTOCK' });
    const shop = (
      await t.data(
        'query ($id: ID!) { product(id: $id, idType: DATABASE_ID) { ... on VariableProduct { price(format: RAW) variations(first: 10) { nodes { sku stockStatus price(format: RAW) } } } } }',
        { id: String(p.id) },
      )
    ).product;
    expect(shop.variations.nodes).toEqual([
      { sku: 'CAP-BLK', stockStatus: 'IN_STOCK', price: '25' },
      { sku: 'CAP-TEAL', stockStatus: 'OUT_OF_STOCK', price: '19' },
    ]);
    expect((await t.ok('adminDeleteVariation', { id: black.id })).adminDeleteVariation).toBe(true);
    expect((await t.ok('adminProduct', { id: p.id })).adminProduct.variations.map((v: any) => v.sku)).toEqual([
      'CAP-TEAL',
    ]);
    expect(
      (
        await t.fails('adminCreateVariation', {
          productId: await productId(t, 'bravo-outdoor-gateway'),
          input: { sku: 'NOPE', attributes: [{ name: 'x', value: 'y' }], regularPriceCents: 1 },
        })
      ).message,
    ).toBe('Only variable products have variations.');
  });
});

describe('images and downloadable files', () => {
  it('uploads an image under ADMIN_UPLOADS_DIR and shows it on the storefront product', async () => {
    const img = (
      await t.ok('adminUploadImage', {
        input: { fileName: 'Charlie Front.PNG', contentBase64: PNG, altText: 'Front view' },
      })
    ).adminUploadImage;
    expect(img).toMatchObject({ altText: 'Front view', width: 1, height: 1 });
    expect(img.url).toMatch(/^\/media\/uploads\/catalog\/charlie-front-[0-9a-f]{8}\.png$/);
    const stored = path.join(uploads, 'catalog', path.basename(img.url));
    expect(fs.readFileSync(stored).equals(Buffer.from(PNG, 'base64'))).toBe(true);
    const id = await productId(t, 'bravo-outdoor-gateway');
    const p = (await t.ok('adminUpdateProduct', { id, input: { imageId: img.id, galleryImageIds: [img.id] } }))
      .adminUpdateProduct;
    expect(p.image.url).toBe(img.url);
    // The shop's API gives the image's absolute URL (MEDIA_BASE_URL); the admin API its site path.
    expect((await shopView(id)).image).toEqual({
      sourceUrl: `${t.engine.storefront.mediaBaseUrl}${img.url}`,
      altText: 'Front view',
    });
  });

  it('refuses SVG, non-images, bad base64 and files over the limit', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>').toString(
      'base64',
    );
    expect((await t.fails('adminUploadImage', { input: { fileName: 'x.svg', contentBase64: svg } })).message).toBe(
      'Only PNG, JPEG, GIF, WebP and AVIF images can be uploaded.',
    );
    expect(
      (await t.fails('adminUploadImage', { input: { fileName: 'x.png', contentBase64: 'data:image/png;base64,AAAA' } }))
        .message,
    ).toBe('The file content must be base64 (without a data: prefix).');
    const big = Buffer.concat([Buffer.from(PNG, 'base64'), Buffer.alloc(5000)]).toString('base64');
    expect((await t.fails('adminUploadImage', { input: { fileName: 'big.png', contentBase64: big } })).message).toBe(
      'The file is too large (at most 4 KB).',
    );
  });

  it('adds downloadable files (uploaded, or already in the download directory) with limit and expiry', async () => {
    const p = (
      await t.ok('adminCreateProduct', {
        input: {
          name: 'Mesh OS Pro',
          regularPriceCents: 900,
          virtual: true,
          downloadLimit: 3,
          downloadExpiry: 30,
          status: 'PUBLISH',
        },
      })
    ).adminCreateProduct;
    const uploaded = (
      await t.ok('adminAddProductDownload', {
        input: {
          productId: p.id,
          name: 'Mesh OS Pro image',
          fileName: 'mesh-os-pro.img',
          contentBase64: Buffer.from('firmware bytes').toString('base64'),
        },
      })
    ).adminAddProductDownload;
    expect(uploaded).toMatchObject({
      downloadable: true,
      downloadLimit: 3,
      downloadExpiry: 30,
      downloads: [{ name: 'Mesh OS Pro image' }],
    });
    const file = uploaded.downloads[0].file;
    expect(file).toMatch(/^mesh-os-pro-[0-9a-f]{8}\.img$/);
    expect(fs.readFileSync(path.join(t.config.dataDir, 'downloads', file), 'utf8')).toBe('firmware bytes');
    const both = (
      await t.ok('adminAddProductDownload', {
        input: { productId: p.id, name: 'Release notes', fileName: 'mesh-os-1.0.zip' },
      })
    ).adminAddProductDownload;
    expect(both.downloads.map((d: any) => d.file)).toEqual([file, 'mesh-os-1.0.zip']);
    expect(
      (
        await t.fails('adminAddProductDownload', {
          input: { productId: p.id, name: 'Missing', fileName: 'nowhere.zip' },
        })
      ).code,
    ).toBe('NOT_FOUND');
    expect(
      (
        await t.fails('adminAddProductDownload', {
          input: { productId: p.id, name: 'Escape', fileName: '../../etc/passwd' },
        })
      ).code,
    ).toBe('NOT_FOUND');
    const removed = (await t.ok('adminRemoveProductDownload', { downloadId: both.downloads[1].id }))
      .adminRemoveProductDownload;
    expect(removed.downloads.map((d: any) => d.file)).toEqual([file]);
    expect((await t.fails('adminUpdateProduct', { id: p.id, input: { downloadLimit: 0 } })).message).toBe(
      'Download limit must be at least 1 (leave it empty for unlimited)',
    );
  });
});

describe('categories', () => {
  it('creates, nests, renames and deletes categories; a cycle is refused; products keep existing', async () => {
    const root = (await t.ok('adminCreateCategory', { input: { name: 'Power & Solar' } })).adminCreateCategory;
    expect(root).toMatchObject({ name: 'Power & Solar', slug: 'power-solar', parentId: null, count: 0 });
    const child = (await t.ok('adminCreateCategory', { input: { name: 'Batteries', parentId: root.id } }))
      .adminCreateCategory;
    expect(child.parentId).toBe(root.id);
    expect((await t.fails('adminUpdateCategory', { id: root.id, input: { parentId: child.id } })).message).toBe(
      'A category cannot be moved under one of its own sub-categories.',
    );
    expect((await t.fails('adminCreateCategory', { input: { name: 'Again', slug: 'power-solar' } })).message).toBe(
      'A category with the slug "power-solar" exists already.',
    );
    const renamed = (await t.ok('adminUpdateCategory', { id: child.id, input: { name: 'Batteries & Cells' } }))
      .adminUpdateCategory;
    expect(renamed).toMatchObject({ name: 'Batteries & Cells', slug: 'batteries' });
    const id = await productId(t, 'n-type-cable');
    await t.ok('adminUpdateProduct', { id, input: { categoryIds: [child.id] } });
    expect((await t.ok('adminCategories')).adminCategories.find((c: any) => c.id === root.id).count).toBe(1);
    expect((await t.ok('adminDeleteCategory', { id: child.id })).adminDeleteCategory).toBe(true);
    expect((await t.ok('adminProduct', { id })).adminProduct.categories).toEqual([]);
    expect(await shopView(id)).toMatchObject({ productCategories: { nodes: [] } });
  });
});
