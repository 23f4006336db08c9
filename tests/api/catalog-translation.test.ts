// The catalog in the shop's languages: per-locale product, category, attribute and term texts from the seed
// files, picked by the request's Accept-Language with English as the fallback per field; the seed files'
// validation of translations; variation choices by term name (never slug) in the cart, the order and its mail.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSeedCatalog, SeedValidationError } from '../../src/server/catalog/seed-loader.ts';
import { TRANSLATION_LOCALES } from '../../src/server/catalog/translations.ts';
import { ENGINE_START_TIMEOUT_MS, FIXTURE_CATALOG, startTestEngine, type TestEngine } from './harness.ts';
import { BILLING, operation, Shopper, variationId } from './shop-helpers.ts';

const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));
const writeJson = (file: string, value: unknown) => fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);

/** The fixture catalog with German texts for the hoodie, its category and attributes, and a partial French. */
function translatedFixture(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-translated-'));
  fs.cpSync(FIXTURE_CATALOG, dir, { recursive: true });
  const hoodieFile = path.join(dir, 'products/mesh-hoodie.json');
  const hoodie = readJson(hoodieFile);
  hoodie.shortDescription = '<p>A warm hoodie.</p>';
  hoodie.description = '<p>Organic cotton fleece.</p>';
  hoodie.translations = {
    de_DE: {
      name: 'Mesh-Kapuzenpullover',
      shortDescription: '<p>Ein warmer Kapuzenpullover.</p>',
      description: '<p>Fleece aus Bio-Baumwolle.</p>',
    },
    // French: only the name; the descriptions fall back to English.
    fr_FR: { name: 'Sweat à capuche Mesh' },
  };
  const material = hoodie.attributes.find((a: { name: string }) => a.name === 'Material');
  material.translations = { de_DE: { name: 'Material', options: ['Bio-Baumwolle'] }, fr_FR: { name: 'Matière' } };
  writeJson(hoodieFile, hoodie);

  const categoriesFile = path.join(dir, 'categories.json');
  const categories = readJson(categoriesFile);
  const swag = categories.find((c: { slug: string }) => c.slug === 'swag');
  swag.description = 'Shirts and hoodies.';
  swag.translations = { de_DE: { name: 'Fanartikel', description: 'Shirts und Kapuzenpullover.' } };
  writeJson(categoriesFile, categories);

  const attributesFile = path.join(dir, 'attributes.json');
  const attributes = readJson(attributesFile);
  const color = attributes.find((a: { slug: string }) => a.slug === 'pa_color');
  color.translations = { de_DE: { name: 'Farbe' }, fr_FR: { name: 'Couleur' } };
  for (const term of color.terms) {
    if (term.slug === 'black') term.translations = { de_DE: { name: 'Schwarz' }, fr_FR: { name: 'Noir' } };
    // Teal: German only — French falls back to "Teal".
    if (term.slug === 'teal') term.translations = { de_DE: { name: 'Petrol' } };
  }
  const size = attributes.find((a: { slug: string }) => a.slug === 'pa_size');
  size.translations = { de_DE: { name: 'Größe' }, fr_FR: { name: 'Taille' } };
  writeJson(attributesFile, attributes);
  return dir;
}

const PRODUCT = /* GraphQL */ `
  query product($slug: ID!) {
    product(id: $slug, idType: SLUG) {
      slug
      name
      shortDescription
      description
      productCategories { nodes { slug name description } }
      ... on VariableProduct {
        attributes { nodes { name label options ... on GlobalProductAttribute { terms { nodes { slug name } } } } }
        defaultAttributes { nodes { name label value valueName } }
        variations { nodes { sku name attributes { nodes { name label value valueName } } } }
      }
    }
  }
`;

let t: TestEngine;
let dir: string;
beforeAll(async () => {
  dir = translatedFixture();
  t = await startTestEngine({ catalogDir: dir });
}, ENGINE_START_TIMEOUT_MS);
afterAll(async () => {
  await t?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
}, ENGINE_START_TIMEOUT_MS);

async function productIn(language: string) {
  const r = await t.gql(PRODUCT, { slug: 'mesh-hoodie' }, { 'accept-language': language });
  expect(r.body.errors).toBeUndefined();
  return r.body.data.product;
}

describe('translated catalog fields', () => {
  it('answers in German: name, descriptions, category, attribute names and term names; slugs stay', async () => {
    const p = await productIn('de-DE,de;q=0.9');
    expect(p).toMatchObject({
      slug: 'mesh-hoodie',
      name: 'Mesh-Kapuzenpullover',
      shortDescription: '<p>Ein warmer Kapuzenpullover.</p>',
      description: '<p>Fleece aus Bio-Baumwolle.</p>',
    });
    expect(p.productCategories.nodes).toEqual([
      { slug: 'swag', name: 'Fanartikel', description: 'Shirts und Kapuzenpullover.' },
    ]);
    const attrs = Object.fromEntries(p.attributes.nodes.map((a: { name: string }) => [a.name, a]));
    expect(attrs.pa_color.label).toBe('Farbe');
    expect(attrs.pa_color.terms.nodes).toEqual([
      { slug: 'black', name: 'Schwarz' },
      { slug: 'teal', name: 'Petrol' },
    ]);
    expect(attrs.pa_size.label).toBe('Größe');
    expect(attrs.Material).toMatchObject({ label: 'Material', options: ['Bio-Baumwolle'] });
    expect(p.defaultAttributes.nodes).toEqual([
      { name: 'pa_color', label: 'Farbe', value: 'black', valueName: 'Schwarz' },
      { name: 'pa_size', label: 'Größe', value: 'm', valueName: 'M' },
    ]);
    const teal = p.variations.nodes.find((v: { sku: string }) => v.sku === 'FX-HOODIE-TS');
    expect(teal.name).toBe('Mesh-Kapuzenpullover - Petrol, S');
    expect(teal.attributes.nodes[0]).toEqual({ name: 'pa_color', label: 'Farbe', value: 'teal', valueName: 'Petrol' });
  });

  it('answers in French where translated and in English field by field where not', async () => {
    const p = await productIn('fr-FR');
    expect(p.name).toBe('Sweat à capuche Mesh');
    expect(p.shortDescription).toBe('<p>A warm hoodie.</p>');
    expect(p.description).toBe('<p>Organic cotton fleece.</p>');
    expect(p.productCategories.nodes[0]).toMatchObject({ name: 'Swag', description: 'Shirts and hoodies.' });
    const color = p.attributes.nodes.find((a: { name: string }) => a.name === 'pa_color');
    expect(color.label).toBe('Couleur');
    expect(color.terms.nodes.map((n: { name: string }) => n.name)).toEqual(['Noir', 'Teal']);
    const material = p.attributes.nodes.find((a: { name: string }) => a.name === 'Material');
    expect(material).toMatchObject({ label: 'Matière', options: ['Organic cotton'] });
  });

  it('answers in English without a header or for a language the shop does not speak, term names not slugs', async () => {
    for (const language of [undefined, 'ja-JP']) {
      const r = await t.gql(PRODUCT, { slug: 'mesh-hoodie' }, language ? { 'accept-language': language } : {});
      const p = r.body.data.product;
      expect(p.name).toBe('Mesh Hoodie');
      expect(p.defaultAttributes.nodes[0]).toEqual({
        name: 'pa_color',
        label: 'Color',
        value: 'black',
        valueName: 'Black',
      });
    }
  });

  it('finds a product by its translated name and lists categories in the language', async () => {
    const r = await t.gql(
      'query { products(where: { search: "kapuzenpullover" }) { nodes { slug name } } productCategories { nodes { slug name } } }',
      {},
      { 'accept-language': 'de-DE' },
    );
    expect(r.body.data.products.nodes).toEqual([{ slug: 'mesh-hoodie', name: 'Mesh-Kapuzenpullover' }]);
    expect(r.body.data.productCategories.nodes).toContainEqual({ slug: 'swag', name: 'Fanartikel' });
  });
});

describe('variation term names in the cart, the order and its mail', () => {
  it('shows "Farbe: Schwarz" (never "black") in the cart, records the German line name on the order and mails it', async () => {
    const de = new Shopper(t, { 'accept-language': 'de-DE' });
    const productId = (await t.data('query { product(id: "mesh-hoodie", idType: SLUG) { databaseId } }')).product
      .databaseId;
    await de.ok(operation('addToCart'), {
      productId,
      variationId: await variationId(t, 'FX-HOODIE-BS'),
      quantity: 1,
    });
    const cart = (await de.ok(operation('getCart'))).cart;
    const line = cart.contents.nodes[0];
    expect(line.variation.attributes).toEqual([
      expect.objectContaining({ name: 'pa_color', label: 'Farbe', value: 'black', valueName: 'Schwarz' }),
      expect.objectContaining({ name: 'pa_size', label: 'Größe', value: 's', valueName: 'S' }),
    ]);
    expect(line.variation.node.name).toBe('Mesh-Kapuzenpullover - Schwarz, S');

    const email = 'translated-order@example.com';
    const d = await de.ok(operation('Checkout'), { paymentMethod: 'cod', billing: { ...BILLING, email } });
    const order = d.checkout.order;
    const orderLine = order.lineItems.nodes[0];
    // The choices as the shopper saw them, kept with the order.
    expect(orderLine.attributes.map((a: { label: string; valueName: string }) => `${a.label}: ${a.valueName}`)).toEqual(
      ['Farbe: Schwarz', 'Größe: S'],
    );
    const result = (await t.engine.database.db.execute(
      sql`select name, attributes from order_items where order_id = ${order.databaseId}`,
    )) as unknown as { rows?: Record<string, unknown>[] };
    const items = result.rows ?? (result as unknown as Record<string, unknown>[]);
    expect(items[0]).toMatchObject({
      name: 'Mesh-Kapuzenpullover - Schwarz, S',
      attributes: { pa_color: 'black', pa_size: 's' },
    });

    let mail: { text: string }[] = [];
    for (let i = 0; i < 50 && !mail.length; i++) {
      mail = await t.engine.commerceMailer.readOutbox({ to: email, subject: String(order.databaseId) });
      if (!mail.length) await new Promise((r) => setTimeout(r, 100));
    }
    expect(mail[0]!.text).toContain('Mesh-Kapuzenpullover - Schwarz, S');
    expect(mail[0]!.text).not.toMatch(/\bblack\b/);
  });
});

describe('seed validation of translations', () => {
  function brokenFixture(change: (dir: string) => void): string {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-broken-'));
    fs.cpSync(FIXTURE_CATALOG, d, { recursive: true });
    change(d);
    return d;
  }
  const issuesOf = (d: string) => {
    try {
      loadSeedCatalog(d);
    } catch (err) {
      if (err instanceof SeedValidationError) return err.message;
      throw err;
    } finally {
      fs.rmSync(d, { recursive: true, force: true });
    }
    throw new Error('expected the catalog to be refused');
  };
  const editProduct = (d: string, slug: string, edit: (p: any) => void) => {
    const file = path.join(d, `products/${slug}.json`);
    const p = readJson(file);
    edit(p);
    writeJson(file, p);
  };

  it('refuses an unknown locale and an unknown field, naming the file and the path', () => {
    const message = issuesOf(
      brokenFixture((d) =>
        editProduct(d, 'mesh-hoodie', (p) => {
          p.translations = { 'de-DE': { name: 'x' }, fr_FR: { titel: 'x' } };
        }),
      ),
    );
    expect(message).toContain('products/mesh-hoodie.json at translations: unknown locale "de-DE"');
    expect(message).toContain('de_DE, es_ES, fr_FR, it_IT, pt_BR');
    expect(message).toContain('products/mesh-hoodie.json at translations.fr_FR: unknown field "titel"');
  });

  it('refuses English as a translation, translated options that do not line up, and translations on a global attribute', () => {
    const message = issuesOf(
      brokenFixture((d) => {
        editProduct(d, 'alpha-gateway', (p) => {
          p.translations = { en_US: { name: 'x' } };
        });
        editProduct(d, 'mesh-hoodie', (p) => {
          p.attributes.find((a: { name: string }) => a.name === 'Material').translations = {
            de_DE: { options: ['a', 'b'] },
          };
          p.attributes.find((a: { name: string }) => a.name === 'pa_color').translations = { de_DE: { name: 'Farbe' } };
        });
        const file = path.join(d, 'categories.json');
        const cats = readJson(file);
        cats[0].translations = { it_IT: { name: '' } };
        writeJson(file, cats);
      }),
    );
    expect(message).toContain('products/alpha-gateway.json at translations: unknown locale "en_US"');
    expect(message).toMatch(/products\/mesh-hoodie\.json at attributes\[2\]\.translations\.de_DE\.options: expected 1/);
    expect(message).toMatch(
      /products\/mesh-hoodie\.json at attributes\[0\]\.translations: pa_color is a global attribute: translate its name and terms in attributes\.json/,
    );
    expect(message).toContain('categories.json at [0].translations.it_IT.name');
  });
});

describe('the shop catalog (content/catalog) is translated', () => {
  const catalog = loadSeedCatalog(path.resolve('content/catalog'));

  it('has every product name and description in every shop language', () => {
    const missing: string[] = [];
    for (const p of catalog.products)
      for (const locale of TRANSLATION_LOCALES)
        for (const field of ['name', 'shortDescription', 'description'] as const)
          if (p[field] && !p.translations[locale]?.[field]) missing.push(`${p.slug} ${locale} ${field}`);
    expect(missing).toEqual([]);
  });

  it('has every category, attribute and term name in every shop language', () => {
    const missing: string[] = [];
    for (const locale of TRANSLATION_LOCALES) {
      for (const c of catalog.categories) {
        if (!c.translations[locale]?.name) missing.push(`category ${c.slug} ${locale} name`);
        if (c.description && !c.translations[locale]?.description)
          missing.push(`category ${c.slug} ${locale} description`);
      }
      for (const a of catalog.attributes) {
        if (!a.translations[locale]?.name) missing.push(`${a.slug} ${locale}`);
        // Band, size, gain and connector names such as EU868, XL, 5.8 dBi and SMA read the same everywhere.
        if (a.slug === 'pa_color')
          for (const term of a.terms)
            if (!term.translations[locale]?.name) missing.push(`${a.slug}:${term.slug} ${locale}`);
      }
      for (const p of catalog.products)
        for (const a of p.attributes)
          if (!a.name.startsWith('pa_') && !a.translations[locale]?.name)
            missing.push(`${p.slug} attribute ${a.name} ${locale}`);
    }
    expect(missing).toEqual([]);
  });

  it('keeps German colour names and the band and gain names as they are', () => {
    const byslug = new Map(catalog.attributes.map((a) => [a.slug, a]));
    const de = (slug: string, term?: string) => {
      const a = byslug.get(slug)!;
      return term ? a.terms.find((x) => x.slug === term)!.translations.de_DE?.name : a.translations.de_DE?.name;
    };
    expect([de('pa_color'), de('pa_color', 'black'), de('pa_color', 'white')]).toEqual(['Farbe', 'Schwarz', 'Weiß']);
    expect([de('pa_size'), de('pa_frequency-band'), de('pa_gain')]).toEqual([
      'Größe',
      'Frequenzband',
      'Antennengewinn',
    ]);
    // No translation: these show their English (international) names in every language.
    expect([de('pa_frequency-band', 'eu868'), de('pa_gain', '5-8-dbi')]).toEqual([undefined, undefined]);
  });
});

describe('search in the shopper’s language', () => {
  const SEARCH = 'query($search: String!) { products(first: 50, where: { search: $search }) { nodes { slug } } }';
  const found = async (search: string, language: string) =>
    (await t.gql(SEARCH, { search }, { 'accept-language': language })).body.data.products.nodes.map(
      (n: { slug: string }) => n.slug,
    );

  it('finds a product by its translated text in that language and by its English text in every language', async () => {
    expect(await found('kapuzenpullover', 'de-DE')).toEqual(['mesh-hoodie']);
    expect(await found('bio-baumwolle', 'de-DE')).toEqual(['mesh-hoodie']);
    expect(await found('organic cotton', 'de-DE')).toEqual(['mesh-hoodie']);
    expect(await found('organic cotton', 'en-US')).toEqual(['mesh-hoodie']);
  });

  it('does not show an English shopper a product only its German text names', async () => {
    expect(await found('kapuzenpullover', 'en-US')).toEqual([]);
    expect(await found('kapuzenpullover', 'fr-FR')).toEqual([]);
  });
});
