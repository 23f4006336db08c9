// WooCommerce product CSV: export, import into an empty shop, export again gives the same rows; rows that
// cannot be taken are reported with line, column and reason while the rest is imported; re-import updates;
// the products' texts in the shop's other languages travel in "Name (de_DE)"-style columns.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { exportCatalogCsv, importCatalogCsv } from '../../src/server/admin/catalog-io.ts';
import { parseCsv } from '../../src/server/catalog/woocommerce-csv/index.ts';
import { bumpCounter } from '../../src/server/db/meta.ts';
import { ENGINE_START_TIMEOUT_MS, startTestEngine, type TestEngine } from './harness.ts';

let seeded: TestEngine;
let empty: TestEngine;
/** An empty shop for the translations' round trip. */
let translatedTarget: TestEngine;
const deps = (t: TestEngine) => ({ db: t.engine.database.db, config: t.config, catalog: t.engine.catalog });
const SITE = 'https://shop.example';

beforeAll(async () => {
  seeded = await startTestEngine();
  empty = await startTestEngine({ env: { MESHFRONT_SEED_ON_START: 'false' } });
  translatedTarget = await startTestEngine({ env: { MESHFRONT_SEED_ON_START: 'false' } });
}, ENGINE_START_TIMEOUT_MS);
afterAll(async () => {
  await seeded?.close();
  await empty?.close();
  await translatedTarget?.close();
}, ENGINE_START_TIMEOUT_MS);

const PRODUCT = /* GraphQL */ `
  query one($id: ID!) {
    product(id: $id, idType: SKU) {
      name
      slug
      type
      productCategories { nodes { slug parent { node { slug } } } }
      ... on SimpleProduct { rawPrice: price(format: RAW) regularPrice(format: RAW) stockQuantity stockStatus }
      ... on VariableProduct { variations { nodes { sku rawPrice: price(format: RAW) stockQuantity attributes { nodes { name value } } } } }
    }
  }
`;

function column(csv: string, sku: string, name: string): string {
  const [header, ...rows] = parseCsv(csv).map((r) => r.fields);
  const row = rows.find((r) => r[header!.indexOf('SKU')] === sku);
  return row![header!.indexOf(name)]!;
}

describe('export → import into an empty shop → export', () => {
  let first: string;
  it('writes every product and variation of the shop in WooCommerce columns', async () => {
    const out = await exportCatalogCsv(deps(seeded), { siteUrl: SITE });
    first = out.csv;
    expect(first.startsWith('\uFEFFID,Type,SKU,Name,Published,"Is featured?","Visibility in catalog"')).toBe(true);
    expect(out.products).toBe(12);
    // The variable gateway, its variations right after it, pointing at it.
    expect(column(first, 'FX-ALPHA', 'Type')).toBe('variable');
    expect(column(first, 'FX-ALPHA', 'Images')).toBe(
      `${SITE}/media/catalog/alpha.svg, ${SITE}/media/catalog/alpha-back.svg, ${SITE}/media/catalog/alpha-side.svg`,
    );
    expect(column(first, 'FX-ALPHA', 'Attribute 1 name')).toBe('Frequency band');
    expect(column(first, 'FX-ALPHA', 'Attribute 1 value(s)')).toBe('EU868, US915, AS923');
    expect(column(first, 'FX-ALPHA', 'Attribute 1 default')).toBe('EU868');
    expect(column(first, 'FX-ALPHA-US', 'Parent')).toBe(`id:${column(first, 'FX-ALPHA', 'ID')}`);
    expect(column(first, 'FX-ALPHA-US', 'Sale price')).toBe('179');
    expect(column(first, 'FX-ALPHA-US', 'Regular price')).toBe('209');
    expect(column(first, 'FX-ALPHA-AS', 'Low stock amount')).toBe('3');
    expect(column(first, 'FX-ALPHA', 'Categories')).toBe('Gateways, Gateways > Indoor gateways');
  });

  it('imports the file into an empty shop without a single problem', async () => {
    const report = await importCatalogCsv(deps(empty), first);
    expect(report.errors).toEqual([]);
    expect(report.warnings).toEqual([]);
    expect(report).toMatchObject({ dryRun: false, created: 12, updated: 0, variationsCreated: report.rows - 12 });
  });

  it('serves the imported products through the storefront API with their prices, stock and categories', async () => {
    const { product } = await empty.data(PRODUCT, { id: 'FX-ALPHA' });
    expect(product).toMatchObject({ name: 'Alpha Indoor Gateway', slug: 'alpha-indoor-gateway', type: 'VARIABLE' });
    expect(product.productCategories.nodes.map((c: any) => c.slug).sort()).toEqual(['gateways', 'indoor-gateways']);
    const us = product.variations.nodes.find((v: any) => v.sku === 'FX-ALPHA-US');
    // A managed stock of 0 is 0.
    expect(us).toMatchObject({
      rawPrice: '179',
      stockQuantity: 0,
      attributes: { nodes: [{ name: 'pa_frequency-band', value: 'us915' }] },
    });
    expect(product.variations.nodes.find((v: any) => v.sku === 'FX-ALPHA-EU')).toMatchObject({
      rawPrice: '199',
      stockQuantity: 5,
    });
  });

  it('exports the same rows again', async () => {
    const second = (await exportCatalogCsv(deps(empty), { siteUrl: SITE })).csv;
    expect(parseCsv(second).map((r) => r.fields)).toEqual(parseCsv(first).map((r) => r.fields));
    expect(second).toBe(first);
  });
});

describe('rows that cannot be taken', () => {
  const HEADER =
    'ID,Type,SKU,Name,Published,Regular price,Sale price,Stock,In stock?,Categories,Images,Parent,Attribute 1 name,Attribute 1 value(s),Attribute 1 visible,Attribute 1 global';
  const csv = [
    HEADER,
    ',simple,CSV-CAP,"Mesh Cap, black",1,19.90,,40,1,Swag > Caps,https://old-shop.example/wp-content/uploads/cap.jpg,,,,,',
    ',simple,CSV-BAD,Broken price,1,12;50,,5,1,Swag,,,,,,',
    ',variable,CSV-TEE,Mesh Tee,1,,,,1,Swag,,,Size,"S, M",1,1',
    ',variation,CSV-TEE-S,,1,15,,3,1,,,CSV-TEE,Size,S,,1',
    ',variation,CSV-TEE-XL,,1,15,,3,1,,,CSV-TEE,Size,XL,,1',
    ',variation,CSV-ORPHAN,,1,15,,3,1,,,NO-SUCH-PARENT,Size,S,,1',
    ',simple,CSV-CAP,Duplicate cap,1,5,,1,1,Swag,,,,,,',
  ].join('\r\n');

  it('reports each bad row with its line, column and reason', async () => {
    const report = await importCatalogCsv(deps(seeded), csv, { dryRun: true });
    expect(report.errors).toEqual([
      { row: 3, column: 'Regular price', message: '"12;50" is not a price such as 349 or 12.50' },
      { row: 6, column: 'Attribute 1 value(s)', message: '"XL" is not a value of the parent\'s "Size"' },
      {
        row: 7,
        column: 'Parent',
        message:
          'parent "NO-SUCH-PARENT" is neither a product row of this file that could be imported nor a product in the shop',
      },
      { row: 8, column: 'SKU', message: 'SKU "CSV-CAP" is also on row 2' },
    ]);
    expect(report.warnings).toEqual([
      { row: 2, column: 'Images', message: expect.stringMatching(/^image "cap.jpg" is not in .*images; left out/) },
    ]);
    expect(report).toMatchObject({ dryRun: true, rows: 7, created: 2, variationsCreated: 1 });
  });

  it('a dry run saves nothing', async () => {
    const r = await seeded.gql(PRODUCT, { id: 'CSV-CAP' });
    expect(r.body.data?.product).toBeNull();
  });

  it('imports the good rows and leaves the bad ones out', async () => {
    const report = await importCatalogCsv(deps(seeded), csv);
    expect(report.errors.map((e) => e.row)).toEqual([3, 6, 7, 8]);
    expect(report).toMatchObject({ created: 2, variationsCreated: 1 });
    const cap = (await seeded.data(PRODUCT, { id: 'CSV-CAP' })).product;
    expect(cap).toMatchObject({
      name: 'Mesh Cap, black',
      rawPrice: '19.9',
      stockQuantity: 40,
      stockStatus: 'IN_STOCK',
    });
    expect(cap.productCategories.nodes).toEqual([{ slug: 'caps', parent: { node: { slug: 'swag' } } }]);
    const tee = (await seeded.data(PRODUCT, { id: 'CSV-TEE' })).product;
    expect(tee.variations.nodes.map((v: any) => v.sku)).toEqual(['CSV-TEE-S']);
    expect((await seeded.gql(PRODUCT, { id: 'CSV-BAD' })).body.data?.product).toBeNull();
  });

  it('importing a changed file again updates the products it names instead of adding copies', async () => {
    const changed = [HEADER, ',simple,CSV-CAP,"Mesh Cap, black",1,17.50,,12,1,Swag > Caps,,,,,,'].join('\n');
    const report = await importCatalogCsv(deps(seeded), changed);
    expect(report).toMatchObject({ created: 0, updated: 1, errors: [] });
    const cap = (await seeded.data(PRODUCT, { id: 'CSV-CAP' })).product;
    expect(cap).toMatchObject({ slug: 'mesh-cap-black', rawPrice: '17.5', stockQuantity: 12 });
  });

  it('a file that is not CSV is reported, not half-imported', async () => {
    const report = await importCatalogCsv(deps(seeded), `${HEADER}\n,simple,"X-1,Unclosed,1,5`);
    expect(report.errors).toEqual([{ row: 2, column: '', message: expect.stringMatching(/line 2.*never closed/) }]);
    expect(report.created).toBe(0);
  });
});

describe('translated names and descriptions', () => {
  const LOCALE_COLUMNS = ['de_DE', 'es_ES', 'fr_FR', 'it_IT', 'pt_BR'].flatMap((l) => [
    `Name (${l})`,
    `Short description (${l})`,
    `Description (${l})`,
  ]);
  const TEXTS = /* GraphQL */ `
    query texts($id: ID!) { product(id: $id, idType: SKU) { name shortDescription description } }
  `;
  const textsIn = async (t: TestEngine, sku: string, language: string) => {
    const r = await t.gql(TEXTS, { id: sku }, { 'accept-language': language });
    expect(r.body.errors).toBeUndefined();
    return r.body.data.product;
  };
  const GERMAN_DESCRIPTION = '<p>Ein Innen-Gateway mit "Konzentrator",\nfertig eingerichtet.</p>';
  let exported: string;

  beforeAll(async () => {
    await seeded.engine.database.db.transaction(async (tx) => {
      await tx.execute(
        sql`update catalog_products set translations = ${JSON.stringify({
          de_DE: {
            name: 'Alpha Innen-Gateway',
            shortDescription: '<p>LoRa-Gateway für innen.</p>',
            description: GERMAN_DESCRIPTION,
          },
          fr_FR: { name: 'Passerelle intérieure Alpha' },
        })}::jsonb where sku = 'FX-ALPHA'`,
      );
      await bumpCounter(tx, 'catalog_version');
    });
    seeded.engine.catalog.invalidate();
  });

  it('exports a column per text and shop language after the WooCommerce columns, empty where not translated', async () => {
    exported = (await exportCatalogCsv(deps(seeded), { siteUrl: SITE })).csv;
    const header = parseCsv(exported)[0]!.fields;
    expect(header.slice(-LOCALE_COLUMNS.length)).toEqual(LOCALE_COLUMNS);
    expect(column(exported, 'FX-ALPHA', 'Name (de_DE)')).toBe('Alpha Innen-Gateway');
    expect(column(exported, 'FX-ALPHA', 'Short description (de_DE)')).toBe('<p>LoRa-Gateway für innen.</p>');
    expect(column(exported, 'FX-ALPHA', 'Description (de_DE)')).toBe(GERMAN_DESCRIPTION);
    expect(column(exported, 'FX-ALPHA', 'Name (fr_FR)')).toBe('Passerelle intérieure Alpha');
    // Untranslated: empty, read as "as in English". Variations have no texts of their own to translate.
    expect(column(exported, 'FX-ALPHA', 'Description (fr_FR)')).toBe('');
    expect(column(exported, 'FX-ALPHA', 'Name (it_IT)')).toBe('');
    expect(column(exported, 'FX-ALPHA-EU', 'Name (de_DE)')).toBe('');
  });

  it('imports them into an empty shop, which answers in each language and exports the same file', async () => {
    const report = await importCatalogCsv(deps(translatedTarget), exported);
    expect(report.errors).toEqual([]);
    expect(report.warnings).toEqual([]);
    expect(await textsIn(translatedTarget, 'FX-ALPHA', 'de-DE')).toEqual({
      name: 'Alpha Innen-Gateway',
      shortDescription: '<p>LoRa-Gateway für innen.</p>',
      description: GERMAN_DESCRIPTION,
    });
    // French: the name only; the descriptions fall back to English.
    expect(await textsIn(translatedTarget, 'FX-ALPHA', 'fr-FR')).toEqual({
      name: 'Passerelle intérieure Alpha',
      shortDescription: '<p>Indoor LoRa gateway.</p>',
      description: '<p>An indoor gateway with a <strong>concentrator</strong>.</p>',
    });
    expect((await exportCatalogCsv(deps(translatedTarget), { siteUrl: SITE })).csv).toBe(exported);
  });

  it('a file with some translation columns changes those texts only; an empty cell falls back to English', async () => {
    const csv = [
      'Type,SKU,Name,Categories,Name (de_DE),Description (fr_FR)',
      'variable,FX-ALPHA,Alpha Indoor Gateway,"Gateways, Gateways > Indoor gateways",,<p>Une passerelle.</p>',
    ].join('\r\n');
    const report = await importCatalogCsv(deps(translatedTarget), csv);
    expect(report).toMatchObject({ errors: [], updated: 1 });
    expect(await textsIn(translatedTarget, 'FX-ALPHA', 'de-DE')).toEqual({
      name: 'Alpha Indoor Gateway',
      shortDescription: '<p>LoRa-Gateway für innen.</p>',
      description: GERMAN_DESCRIPTION,
    });
    expect(await textsIn(translatedTarget, 'FX-ALPHA', 'fr-FR')).toMatchObject({
      name: 'Passerelle intérieure Alpha',
      description: '<p>Une passerelle.</p>',
    });
    // A plain WooCommerce export (no translation columns) keeps every stored translation.
    const plain = [
      'Type,SKU,Name,Categories',
      'variable,FX-ALPHA,Alpha Indoor Gateway,"Gateways, Gateways > Indoor gateways"',
    ].join('\r\n');
    expect(await importCatalogCsv(deps(translatedTarget), plain)).toMatchObject({ errors: [], updated: 1 });
    expect((await textsIn(translatedTarget, 'FX-ALPHA', 'fr-FR')).name).toBe('Passerelle intérieure Alpha');
  });

  it('refuses a column for a language the shop does not have, or for English, naming the column', async () => {
    const header = 'Type,SKU,Name,Regular price,Name (de_DE),Name (de_AT),Description (en_US)';
    const report = await importCatalogCsv(deps(translatedTarget), `${header}\r\nsimple,TR-1,Cap,5,Mütze,Kappe,Cap`);
    expect(report.errors).toEqual([
      {
        row: 1,
        column: 'Name (de_AT)',
        message:
          '"de_AT" is not a language of the shop: translation columns are "Name (xx_XX)" for de_DE, es_ES, fr_FR, it_IT, pt_BR',
      },
      {
        row: 1,
        column: 'Description (en_US)',
        message: 'English is the "Description" column itself: leave out "Description (en_US)"',
      },
    ]);
    expect(report.created).toBe(0);
    expect((await translatedTarget.gql(TEXTS, { id: 'TR-1' })).body.data?.product).toBeNull();
  });

  it('refuses over-long texts and translated texts on a variation row, row by row', async () => {
    const csv = [
      'Type,SKU,Name,Regular price,Parent,Attribute 1 name,Attribute 1 value(s),Attribute 1 global,Name (de_DE),Short description (pt_BR)',
      `simple,TR-LONG,Long cap,5,,,,,${'M'.repeat(201)},`,
      `simple,TR-SHORT,Short cap,5,,,,,,${'x'.repeat(5_001)}`,
      'simple,TR-OK,Good cap,5,,,,,Gute Mütze,',
      'variation,FX-ALPHA-EU,,199,FX-ALPHA,Frequency band,EU868,1,Alpha EU,',
    ].join('\r\n');
    const report = await importCatalogCsv(deps(translatedTarget), csv);
    expect(report.errors).toEqual([
      { row: 2, column: 'Name (de_DE)', message: 'the de_DE name is 201 characters long; at most 200 are taken' },
      {
        row: 3,
        column: 'Short description (pt_BR)',
        message: 'the pt_BR short description is 5001 characters long; at most 5000 are taken',
      },
      {
        row: 5,
        column: 'Name (de_DE)',
        message: "a variation has no texts of its own to translate: translate its product's row",
      },
    ]);
    expect(report.created).toBe(1);
    expect((await textsIn(translatedTarget, 'TR-OK', 'de-DE')).name).toBe('Gute Mütze');
    expect((await translatedTarget.gql(TEXTS, { id: 'TR-LONG' })).body.data?.product).toBeNull();
  });
});
