/**
 * The web admin's catalog screens over HTTP: the real /admin pages (served by Astro's dev server in this
 * process, on the test engine) driven with the form posts a browser sends — new product, product details,
 * variations, categories, image uploads and downloadable files. Each change must be visible afterwards
 * where it matters (the admin list, the storefront GraphQL, the uploads directory); each refused form
 * answers 422 with the message next to its field, keeps what was typed, and changes nothing.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dev } from 'astro';
import { adminServiceFor } from '../../src/server/admin/service.ts';
import { createAdminYoga } from '../../src/server/admin/yoga.ts';
import { adminCaller, type AdminCaller } from '../../src/server/admin/web/client.ts';
import { newCustomer, register } from './accounts-helpers.ts';
import { startTestEngine, type TestEngine } from './harness.ts';

/** One of the ports given to this test area (5100–5109). */
const PORT = Number(process.env.ADMIN_WEB_TEST_PORT ?? 5101);
const BASE = `http://127.0.0.1:${PORT}`;
const MAX_UPLOAD = 64 * 1024;

let t: TestEngine;
let server: Awaited<ReturnType<typeof dev>>;
let call: AdminCaller;
let cookie = '';
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-admin-web-'));
const uploads = path.join(tmp, 'uploads');
const dataDir = path.join(tmp, 'data');

/** A 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

beforeAll(async () => {
  // The admin service reads its upload settings from the environment on first use; the dev server's
  // config (admin endpoint limits, session secret file) goes to a scratch data directory.
  Object.assign(process.env, {
    ADMIN_UPLOADS_DIR: uploads,
    ADMIN_MAX_UPLOAD_BYTES: String(MAX_UPLOAD),
    MESHFRONT_DATA_DIR: dataDir,
    SESSION_SECRET: 'test-secret-that-is-long-enough-for-hs256-0123456789',
  });
  t = await startTestEngine({ env: { MESHFRONT_DATA_DIR: dataDir } });
  // The pages take the process-wide engine (src/server/engine/ keeps it on globalThis): this one.
  (globalThis as Record<symbol, unknown>)[Symbol.for('meshfront.sharedEngine')] = Promise.resolve(t.engine);
  const manager = await register(t, newCustomer('catalogweb'), { 'x-forwarded-for': '198.51.100.31' });
  await adminServiceFor(t.engine).roles.setRole(manager.userId, 'shop_manager');
  call = adminCaller(
    createAdminYoga(async () => t.engine, t.config),
    manager.authToken,
    '203.0.113.40',
  );
  // Astro's dev server leaves routing to the test runner when it sees VITEST (its own component tests);
  // here it must serve the pages itself.
  const vitest = process.env.VITEST;
  delete process.env.VITEST;
  try {
    server = await dev({
      root: path.resolve(import.meta.dirname, '../..'),
      server: { port: PORT, host: '127.0.0.1' },
      logLevel: 'error',
    });
  } finally {
    process.env.VITEST = vitest;
  }
  const login = await post('/admin/login', { username: manager.username, password: manager.password, next: '/admin' });
  expect(
    login.status,
    await login
      .clone()
      .text()
      .then((x) => x.slice(0, 500)),
  ).toBe(303);
  cookie = (login.headers.get('set-cookie') ?? '').split(';')[0]!;
  expect(cookie).toMatch(/^meshfront_admin=/);
}, 300_000);

afterAll(async () => {
  await server?.stop();
  await t?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

type Fields = Record<string, string | string[]>;

async function get(p: string): Promise<{ status: number; html: string }> {
  const r = await fetch(BASE + p, { headers: { cookie }, redirect: 'manual' });
  return { status: r.status, html: await r.text() };
}

/** A form post as a browser sends it: same origin, URL-encoded, or multipart when it carries a file. */
async function post(
  p: string,
  fields: Fields,
  file?: { name: string; type: string; bytes: Buffer },
): Promise<Response> {
  let body: URLSearchParams | FormData;
  if (file) {
    const fd = new FormData();
    for (const [k, v] of Object.entries(fields)) for (const x of [v].flat()) fd.append(k, x);
    fd.append('file', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
    body = fd;
  } else {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(fields)) for (const x of [v].flat()) q.append(k, x);
    body = q;
  }
  return fetch(BASE + p, { method: 'POST', body, headers: { cookie, origin: BASE }, redirect: 'manual' });
}

/** Posts, expects the redirect of a done form, and returns the page it leads to. */
async function submit(
  p: string,
  fields: Fields,
  file?: { name: string; type: string; bytes: Buffer },
): Promise<{ location: string; html: string }> {
  const r = await post(p, fields, file);
  const text = await r.text();
  expect(r.status, text.match(/data-admin-error>([^<]*)/)?.[1] ?? text.slice(0, 300)).toBe(303);
  const location = r.headers.get('location')!;
  return { location, html: (await get(location)).html };
}

/** Posts a form that must be refused: 422 and the page with the messages. */
async function refused(
  p: string,
  fields: Fields,
  file?: { name: string; type: string; bytes: Buffer },
): Promise<string> {
  const r = await post(p, fields, file);
  const html = await r.text();
  expect(r.status).toBe(422);
  return html;
}

const decode = (s: string) =>
  s
    .replace(/&#(\d+);/g, (_, n) => String.fromCharCode(Number(n)))
    .replace(/&quot;/g, '"')
    .replace(/&#x27;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const fieldError = (html: string, name: string) => {
  const m = new RegExp(`data-field-error="${name}"[^>]*>([^<]*)<`).exec(html);
  return m ? decode(m[1]!) : null;
};
const flash = (html: string) => decode(/data-admin-flash[^>]*>([^<]*)</.exec(html)?.[1] ?? '');
const pageError = (html: string) => decode(/data-admin-error[^>]*>([^<]*)</.exec(html)?.[1] ?? '');
/** The value an input shows (id as the Field component makes it). */
const inputValue = (html: string, id: string) => {
  const tag = new RegExp(`<input[^>]*id="${id}"[^>]*>`).exec(html)?.[0] ?? '';
  const m = /value="([^"]*)"/.exec(tag);
  return m ? decode(m[1]!) : null;
};
const productIdFrom = (location: string) => Number(/^\/admin\/products\/(\d+)\?done=/.exec(location)?.[1]);

const STOREFRONT_PRODUCT = /* GraphQL */ `query ($id: ID!) {
  product(id: $id, idType: SLUG) {
    databaseId name slug sku shortDescription description onSale image { sourceUrl altText }
    productCategories { nodes { slug } }
    ... on ProductWithPricing { price(format: RAW) regularPrice(format: RAW) salePrice(format: RAW) }
    ... on InventoriedProduct { stockQuantity stockStatus backorders }
    ... on VariableProduct { variations(first: 20) { nodes { sku price(format: RAW) stockQuantity } } }
  }
}`;
const shop = async (slug: string) => (await t.data(STOREFRONT_PRODUCT, { id: slug })).product;
const categoryId = async (slug: string) =>
  ((await call('adminCategories')).adminCategories as any[]).find((c) => c.slug === slug)!.id as number;
const adminProduct = async (id: number) => (await call('adminProduct', { id })).adminProduct!;

const NEW_SIMPLE: Fields = {
  type: 'SIMPLE',
  status: 'PUBLISH',
  name: 'Web Admin Field Kit',
  slug: '',
  sku: 'WEB-KIT-1',
  shortDescription: 'Everything for a field install.',
  description: '<p>Cables, ties and a torque wrench.</p>',
  otherAttributes: 'Material: Aluminium | Steel',
  regularPrice: '49.90',
  salePrice: '44.00',
  saleFrom: '',
  saleTo: '',
  manageStock: 'on',
  stockQuantity: '12',
  lowStockAmount: '3',
  backorders: 'NOTIFY',
  stockStatus: 'INSTOCK',
};

describe('new product', () => {
  it('creates a published simple product that the admin list and the storefront show with its values', async () => {
    const { location, html } = await submit('/admin/products/new', {
      ...NEW_SIMPLE,
      categoryId: [String(await categoryId('antennas')), String(await categoryId('swag'))],
    });
    const id = productIdFrom(location);
    expect(id).toBeGreaterThan(0);
    expect(flash(html)).toBe('The product was created.');
    expect(html).toMatch(/<h1[^>]*>Web Admin Field Kit<\/h1>/);

    const list = await get('/admin/products?search=web-kit');
    expect(list.html).toContain('data-product-row="web-admin-field-kit"');
    expect(list.html).toContain('>1 product<');

    const p = await shop('web-admin-field-kit');
    expect(p).toMatchObject({
      databaseId: id,
      name: 'Web Admin Field Kit',
      sku: 'WEB-KIT-1',
      onSale: true,
      price: '44',
      regularPrice: '49.9',
      salePrice: '44',
      stockQuantity: 12,
      backorders: 'NOTIFY',
    });
    expect(p.shortDescription).toContain('Everything for a field install.');
    expect(p.description).toContain('torque wrench');
    expect(p.productCategories.nodes.map((c: any) => c.slug).sort()).toEqual(['antennas', 'swag']);
    expect((await adminProduct(id)).attributes).toEqual([
      { name: 'Material', options: ['Aluminium', 'Steel'], visible: true, variation: false },
    ]);
  });

  it('refuses bad input with 422 and a message per field, keeps what was typed, and creates nothing', async () => {
    const before = (await call('adminProducts', { first: 1 })).adminProducts.total;
    const html = await refused('/admin/products/new', {
      ...NEW_SIMPLE,
      name: '',
      sku: 'BAD SKU!',
      slug: 'Not A Slug',
      regularPrice: '12,50',
      salePrice: '',
      stockQuantity: 'many',
      otherAttributes: 'no colon here',
    });
    expect(pageError(html)).toBe('Please correct the marked fields.');
    expect(fieldError(html, 'name')).toBe('Name is required.');
    expect(fieldError(html, 'sku')).toBe('The SKU may contain letters, digits, dots, underscores and hyphens only.');
    expect(fieldError(html, 'slug')).toMatch(/^The slug may contain lower-case letters/);
    expect(fieldError(html, 'regularPrice')).toBe('Regular price must be an amount in euros, like 12 or 12.50.');
    expect(fieldError(html, 'stockQuantity')).toBe('Stock quantity must be a whole number.');
    expect(fieldError(html, 'otherAttributes')).toBe('Other attributes, line 1: write "Name: value | value".');
    // What the operator typed is still there.
    expect(inputValue(html, 'n-sku')).toBe('BAD SKU!');
    expect(inputValue(html, 'n-regularPrice')).toBe('12,50');
    expect(html).toContain('Everything for a field install.');
    expect((await call('adminProducts', { first: 1 })).adminProducts.total).toBe(before);
  });

  it("shows the engine's refusal of a taken SKU on the form, and creates nothing", async () => {
    const before = (await call('adminProducts', { first: 1 })).adminProducts.total;
    const html = await refused('/admin/products/new', { ...NEW_SIMPLE, name: 'Second kit', slug: 'second-kit' });
    expect(pageError(html)).toBe('Another product or variation already has this SKU.');
    expect(inputValue(html, 'n-name')).toBe('Second kit');
    expect((await call('adminProducts', { first: 1 })).adminProducts.total).toBe(before);
  });
});

describe('draft products', () => {
  it('stay out of the shop until the operator publishes them from their page', async () => {
    const { location } = await submit('/admin/products/new', {
      ...NEW_SIMPLE,
      status: 'DRAFT',
      name: 'Web Admin Draft Kit',
      sku: 'WEB-DRAFT-1',
    });
    const id = productIdFrom(location);
    expect(await shop('web-admin-draft-kit')).toBeNull();
    const { html } = await submit(`/admin/products/${id}`, { intent: 'restore' });
    expect(flash(html)).toBe(
      'The product is published: shoppers can find it (its static page appears with the next publish).',
    );
    expect((await shop('web-admin-draft-kit')).databaseId).toBe(id);
  });
});

describe('product details', () => {
  it('changes name, texts and categories; the storefront follows', async () => {
    const id = (await shop('web-admin-field-kit')).databaseId;
    const { html } = await submit(`/admin/products/${id}`, {
      intent: 'details',
      name: 'Web Admin Field Kit Pro',
      slug: 'web-admin-field-kit',
      sku: 'WEB-KIT-1',
      shortDescription: 'Now with a carry case.',
      description: '<p>Cables, ties, a torque wrench and a case.</p>',
      categoryId: String(await categoryId('accessories')),
      otherAttributes: 'Material: Aluminium',
      virtual: 'on',
      downloadLimit: '5',
      downloadExpiry: '30',
    });
    expect(flash(html)).toBe('Saved.');
    const p = await shop('web-admin-field-kit');
    expect(p.name).toBe('Web Admin Field Kit Pro');
    expect(p.shortDescription).toContain('Now with a carry case.');
    expect(p.productCategories.nodes.map((c: any) => c.slug)).toEqual(['accessories']);
    // Price and stock were not part of this form and stay as they were.
    expect(p).toMatchObject({ price: '44', stockQuantity: 12 });
    expect(await adminProduct(id)).toMatchObject({ virtual: true, downloadLimit: 5, downloadExpiry: 30 });
  });

  it('refuses an empty slug and a bad download limit next to their fields, saving nothing', async () => {
    const id = (await shop('web-admin-field-kit')).databaseId;
    const html = await refused(`/admin/products/${id}`, {
      intent: 'details',
      name: 'Renamed for nothing',
      slug: '',
      sku: 'WEB-KIT-1',
      downloadLimit: '0',
    });
    expect(fieldError(html, 'slug')).toBe('Slug is required.');
    expect(fieldError(html, 'downloadLimit')).toBe('Download limit must be 1 or more.');
    expect(inputValue(html, 'd-name')).toBe('Renamed for nothing');
    expect((await adminProduct(id)).name).toBe('Web Admin Field Kit Pro');
  });
});

describe('variations', () => {
  let id = 0;
  const variationFields = (over: Fields = {}): Fields => ({
    attr0: 'EU868',
    sku: 'WEB-GW-EU',
    regularPrice: '199',
    salePrice: '',
    manageStock: 'on',
    stockQuantity: '7',
    lowStockAmount: '',
    backorders: 'NO',
    stockStatus: 'INSTOCK',
    ...over,
  });

  it('a variable product gets variations added, edited and deleted from its page', async () => {
    const created = await submit('/admin/products/new', {
      type: 'VARIABLE',
      status: 'PUBLISH',
      name: 'Web Admin Gateway',
      sku: 'WEB-GW',
      variationAttributes: 'Band: EU868 | US915',
      regularPrice: '',
      stockStatus: 'INSTOCK',
      backorders: 'NO',
    });
    id = productIdFrom(created.location);
    expect(created.html).toContain('Add a variation');

    const added = await submit(`/admin/products/${id}`, { intent: 'add-variation', ...variationFields() });
    expect(flash(added.html)).toBe('The variation was added.');
    await submit(`/admin/products/${id}`, {
      intent: 'add-variation',
      ...variationFields({ attr0: 'US915', sku: 'WEB-GW-US', regularPrice: '209', stockQuantity: '2' }),
    });
    let p = await shop('web-admin-gateway');
    expect(p.variations.nodes).toEqual([
      { sku: 'WEB-GW-EU', price: '199', stockQuantity: 7 },
      { sku: 'WEB-GW-US', price: '209', stockQuantity: 2 },
    ]);

    const eu = (await adminProduct(id)).variations.find((v) => v.sku === 'WEB-GW-EU')!;
    const edited = await submit(`/admin/products/${id}`, {
      intent: 'variation',
      variationId: String(eu.id),
      ...variationFields({ sku: 'WEB-GW-EU868', regularPrice: '189.50', stockQuantity: '9' }),
    });
    expect(flash(edited.html)).toBe('Saved.');
    p = await shop('web-admin-gateway');
    expect(p.variations.nodes[0]).toEqual({ sku: 'WEB-GW-EU868', price: '189.5', stockQuantity: 9 });

    // Deleting needs the confirm box.
    const unconfirmed = await refused(`/admin/products/${id}`, {
      intent: 'delete-variation',
      variationId: String(eu.id),
    });
    expect(fieldError(unconfirmed, 'confirm')).toBe('Tick the box to confirm the deletion.');
    expect((await adminProduct(id)).variations).toHaveLength(2);
    const deleted = await submit(`/admin/products/${id}`, {
      intent: 'delete-variation',
      variationId: String(eu.id),
      confirm: 'on',
    });
    expect(flash(deleted.html)).toBe('The variation was deleted.');
    expect((await adminProduct(id)).variations.map((v: any) => v.sku)).toEqual(['WEB-GW-US']);
  });

  it('refuses a variation with the values of another one, an unknown value, or no SKU', async () => {
    const html = await refused(`/admin/products/${id}`, {
      intent: 'add-variation',
      ...variationFields({ attr0: 'US915', sku: '' }),
    });
    expect(fieldError(html, 'attr0')).toBe('Variation WEB-GW-US already has these values.');
    expect(fieldError(html, 'sku')).toBe('SKU is required.');
    const unknown = await refused(`/admin/products/${id}`, {
      intent: 'add-variation',
      ...variationFields({ attr0: 'AS923' }),
    });
    expect(fieldError(unknown, 'attr0')).toBe('Choose one of: EU868, US915.');
    expect(inputValue(unknown, 'nv-sku')).toBe('WEB-GW-EU');
    expect((await adminProduct(id)).variations).toHaveLength(1);
  });
});

describe('categories', () => {
  it('are listed, created under a parent, renamed and deleted', async () => {
    const list = await get('/admin/categories');
    expect(list.status).toBe(200);
    expect(list.html).toContain('data-category-row="indoor-gateways"');
    expect(list.html).toContain('href="/admin/categories"');

    const gateways = await categoryId('gateways');
    const created = await submit('/admin/categories', {
      name: 'Solar Gateways',
      slug: '',
      parentId: String(gateways),
      description: 'Off-grid sites.',
    });
    expect(flash(created.html)).toBe('The category was created.');
    const id = Number(/\/admin\/categories\/(\d+)/.exec(created.location)?.[1]);
    let c = ((await call('adminCategories')).adminCategories as any[]).find((x) => x.id === id);
    expect(c).toMatchObject({
      name: 'Solar Gateways',
      slug: 'solar-gateways',
      parentId: gateways,
      description: 'Off-grid sites.',
    });

    const saved = await submit(`/admin/categories/${id}`, {
      intent: 'save',
      name: 'Solar Kits',
      slug: 'solar-kits',
      parentId: '',
      description: 'Panels and batteries.',
    });
    expect(flash(saved.html)).toBe('Saved.');
    c = ((await call('adminCategories')).adminCategories as any[]).find((x) => x.id === id);
    expect(c).toMatchObject({
      name: 'Solar Kits',
      slug: 'solar-kits',
      parentId: null,
      description: 'Panels and batteries.',
    });
    const shopTerms = await t.data('query { productCategories(first: 100) { nodes { slug name } } }');
    expect(shopTerms.productCategories.nodes).toContainEqual({ slug: 'solar-kits', name: 'Solar Kits' });

    const html = await refused(`/admin/categories/${id}`, {
      intent: 'save',
      name: 'Solar Kits',
      slug: 'antennas',
      parentId: String(id),
    });
    expect(fieldError(html, 'slug')).toBe('Another category already has the slug "antennas".');
    expect(fieldError(html, 'parentId')).toBe(
      'A category cannot be placed under itself or one of its own sub-categories.',
    );
    expect(((await call('adminCategories')).adminCategories as any[]).find((x) => x.id === id).slug).toBe('solar-kits');

    const unconfirmed = await refused(`/admin/categories/${id}`, { intent: 'delete' });
    expect(fieldError(unconfirmed, 'confirm')).toBe('Tick the box to confirm the deletion.');
    const deleted = await submit(`/admin/categories/${id}`, { intent: 'delete', confirm: 'on' });
    expect(deleted.location).toBe('/admin/categories?done=category-deleted');
    expect(deleted.html).not.toContain('data-category-row="solar-kits"');
  });

  it('refuses a category without a name', async () => {
    const before = ((await call('adminCategories')).adminCategories as any[]).length;
    const html = await refused('/admin/categories', { name: '', slug: 'nameless', parentId: '' });
    expect(fieldError(html, 'name')).toBe('Name is required.');
    expect(inputValue(html, 'c-slug')).toBe('nameless');
    expect(((await call('adminCategories')).adminCategories as any[]).length).toBe(before);
  });
});

describe('images', () => {
  it('an uploaded image is stored under the uploads directory and becomes the main image', async () => {
    const { databaseId: id } = await shop('web-admin-field-kit');
    const { html } = await submit(
      `/admin/products/${id}`,
      { intent: 'upload-image', altText: 'The kit in its case', role: 'MAIN' },
      { name: 'Field Kit.png', type: 'image/png', bytes: PNG },
    );
    expect(flash(html)).toBe('The image was uploaded and added to the product.');
    const p = await adminProduct(id);
    expect(p.image!.url).toMatch(/^\/media\/uploads\/catalog\/field-kit-[0-9a-f]{8}\.png$/);
    expect(p.image!.altText).toBe('The kit in its case');
    expect(fs.readFileSync(path.join(uploads, 'catalog', path.basename(p.image!.url)))).toEqual(PNG);
    expect(html).toContain(`src="${p.image!.url}"`);
    expect((await shop('web-admin-field-kit')).image.altText).toBe('The kit in its case');

    // A second one goes to the gallery; removing it leaves the main image.
    await submit(
      `/admin/products/${id}`,
      { intent: 'upload-image', altText: 'Side view', role: 'GALLERY' },
      { name: 'side.png', type: 'image/png', bytes: PNG },
    );
    const withGallery = await adminProduct(id);
    expect(withGallery.gallery.map((g: any) => g.altText)).toEqual(['Side view']);
    const removed = await submit(`/admin/products/${id}`, {
      intent: 'remove-image',
      imageId: String(withGallery.gallery[0].id),
    });
    expect(flash(removed.html)).toBe('The image was removed from the product.');
    expect(await adminProduct(id)).toMatchObject({ gallery: [], image: { id: p.image!.id } });
  });

  it('refuses a file that is not an image (whatever its name), a missing file and a too large one', async () => {
    const { databaseId: id } = await shop('web-admin-field-kit');
    const files = () => fs.readdirSync(path.join(uploads, 'catalog')).length;
    const before = files();
    const fake = await refused(
      `/admin/products/${id}`,
      { intent: 'upload-image', altText: 'Fake', role: 'GALLERY' },
      { name: 'photo.png', type: 'image/png', bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') },
    );
    expect(fieldError(fake, 'file')).toBe(
      'This file is not an image the shop can use: upload a PNG, JPEG, GIF, WebP or AVIF image.',
    );
    expect(inputValue(fake, 'img-altText')).toBe('Fake');
    const none = await refused(
      `/admin/products/${id}`,
      { intent: 'upload-image', altText: '', role: 'GALLERY' },
      { name: '', type: 'application/octet-stream', bytes: Buffer.alloc(0) },
    );
    expect(fieldError(none, 'file')).toBe('Choose an image file to upload.');
    const big = Buffer.concat([PNG, Buffer.alloc(MAX_UPLOAD)]);
    const large = await refused(
      `/admin/products/${id}`,
      { intent: 'upload-image', altText: '', role: 'GALLERY' },
      { name: 'big.png', type: 'image/png', bytes: big },
    );
    expect(fieldError(large, 'file')).toBe('The file is too large (at most 64 KB).');
    expect(files()).toBe(before);
    expect((await adminProduct(id)).gallery).toEqual([]);
  });
});

describe('downloadable files', () => {
  it('are added by upload, listed, and removed', async () => {
    const { databaseId: id } = await shop('web-admin-field-kit');
    const { html } = await submit(
      `/admin/products/${id}`,
      { intent: 'add-download', name: 'Install guide (PDF)', existingFile: '' },
      { name: 'install-guide.pdf', type: 'application/pdf', bytes: Buffer.from('%PDF-1.4 guide') },
    );
    expect(flash(html)).toBe('The downloadable file was added.');
    const p = await adminProduct(id);
    expect(p.downloadable).toBe(true);
    expect(p.downloads).toHaveLength(1);
    expect(p.downloads[0]).toMatchObject({ name: 'Install guide (PDF)' });
    expect(p.downloads[0].file).toMatch(/^install-guide-[0-9a-f]{8}\.pdf$/);
    expect(fs.readFileSync(path.join(dataDir, 'downloads', p.downloads[0].file), 'utf8')).toBe('%PDF-1.4 guide');
    expect(html).toContain(`data-product-download="${p.downloads[0].id}"`);

    const removed = await submit(`/admin/products/${id}`, { intent: 'remove-download', downloadId: p.downloads[0].id });
    expect(flash(removed.html)).toBe('The downloadable file was removed.');
    expect((await adminProduct(id)).downloads).toEqual([]);
  });

  it('refuses a file without a name, no file at all, and an unknown server file', async () => {
    const { databaseId: id } = await shop('web-admin-field-kit');
    const noName = await refused(
      `/admin/products/${id}`,
      { intent: 'add-download', name: '', existingFile: '' },
      { name: 'a.zip', type: 'application/zip', bytes: Buffer.from('PK') },
    );
    expect(fieldError(noName, 'name')).toBe('File name shown to customers is required.');
    const noFile = await refused(
      `/admin/products/${id}`,
      { intent: 'add-download', name: 'Firmware', existingFile: '' },
      { name: '', type: 'application/octet-stream', bytes: Buffer.alloc(0) },
    );
    expect(fieldError(noFile, 'file')).toBe(
      'Choose a file to upload (or name a file already in the downloads directory).',
    );
    expect(inputValue(noFile, 'dl-name')).toBe('Firmware');
    const unknown = await refused(
      `/admin/products/${id}`,
      { intent: 'add-download', name: 'Firmware', existingFile: 'not-there.bin' },
      { name: '', type: 'application/octet-stream', bytes: Buffer.alloc(0) },
    );
    expect(pageError(unknown)).toMatch(/^No file "not-there\.bin" in the download directories/);
    expect((await adminProduct(id)).downloads).toEqual([]);
  });
});
