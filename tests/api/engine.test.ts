// Engine plumbing: settings, migrations, seeding (loader errors, reset, synthetic), cross-process cache invalidation.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CatalogService } from '../../src/server/catalog/service.ts';
import { loadSeedCatalog, SeedMissingError, SeedValidationError } from '../../src/server/catalog/seed-loader.ts';
import { productSchema } from '../../src/server/catalog/seed-format.ts';
import { syntheticCatalog } from '../../src/server/catalog/synthetic.ts';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import { bumpCounter } from '../../src/server/db/meta.ts';
import { migrate } from '../../src/server/db/migrate.ts';
import { markStockChanged } from '../../src/server/catalog/stock.ts';
import { runShopHere } from '../fixtures/shop-cli.ts';
import { ENGINE_START_TIMEOUT_MS, FIXTURE_CATALOG, startTestEngine, type TestEngine } from './harness.ts';

let t: TestEngine;
beforeAll(async () => {
  t = await startTestEngine({ env: { CATALOG_VERSION_CHECK_MS: '200' } });
}, ENGINE_START_TIMEOUT_MS);
afterAll(async () => {
  await t?.close();
}, ENGINE_START_TIMEOUT_MS);

const tmp = () => fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-seed-'));
function copyFixture(): string {
  const dir = tmp();
  fs.cpSync(FIXTURE_CATALOG, dir, { recursive: true });
  return dir;
}
const writeJson = (file: string, value: unknown) => fs.writeFileSync(file, JSON.stringify(value, null, 2));
const readJson = (file: string) => JSON.parse(fs.readFileSync(file, 'utf8'));

describe('settings', () => {
  it('has safe development defaults', () => {
    const c = loadConfig({ NODE_ENV: 'development', SESSION_SECRET: 's'.repeat(40), MESHFRONT_DATA_DIR: tmp() });
    expect(c.database.kind).toBe('pglite');
    expect(c.env).toBe('development');
    expect(c.introspection).toBe(true);
    expect(c.trustedDocumentsOnly).toBe(false);
    expect(c.maxPageSize).toBe(1000);
    expect(c.defaultPageSize).toBe(10);
    expect(c.sessionTtlSeconds).toBe(48 * 3600);
  });

  it('tightens production: no introspection, trusted documents, a required secret', () => {
    expect(() => loadConfig({ NODE_ENV: 'production', DATABASE_URL: 'postgres://u@h/db' })).toThrow(
      /SESSION_SECRET: required in production/,
    );
    const c = loadConfig({ NODE_ENV: 'production', SESSION_SECRET: 's'.repeat(40), DATABASE_URL: 'postgres://u@h/db' });
    expect(c).toMatchObject({
      introspection: false,
      trustedDocumentsOnly: true,
      corsOrigins: [],
      database: { kind: 'postgres', url: 'postgres://u@h/db' },
    });
    expect(
      loadConfig({
        NODE_ENV: 'production',
        SESSION_SECRET: 's'.repeat(40),
        GRAPHQL_INTROSPECTION: 'true',
        TRUSTED_DOCUMENTS_ONLY: 'false',
      }),
    ).toMatchObject({ introspection: true, trustedDocumentsOnly: false });
  });

  it('keeps a generated secret in the data directory for a production shop on the embedded database', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meshfront-config-'));
    const first = loadConfig({ NODE_ENV: 'production', MESHFRONT_DATA_DIR: dataDir });
    const again = loadConfig({ NODE_ENV: 'production', MESHFRONT_DATA_DIR: dataDir });
    expect(first.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(again.sessionSecret).toBe(first.sessionSecret);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('lists every bad setting at once', () => {
    try {
      loadConfig({
        DATABASE_URL: 'mysql://x',
        COMMERCE_MAX_PAGE_SIZE: '-3',
        SESSION_SECRET: 'short',
        SHOP_ALLOWED_COUNTRIES: 'DE,ZZ',
      });
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const message = (err as Error).message;
      for (const name of ['DATABASE_URL', 'COMMERCE_MAX_PAGE_SIZE', 'SESSION_SECRET', 'SHOP_ALLOWED_COUNTRIES'])
        expect(message).toContain(name);
    }
    expect(() => loadConfig({ SESSION_SECRET: 's'.repeat(40), CORS_ORIGINS: '*' })).toThrow(/CORS_ORIGINS/);
  });

  it('generates and keeps a development session secret under the data directory', () => {
    const dir = tmp();
    const a = loadConfig({ NODE_ENV: 'development', MESHFRONT_DATA_DIR: dir });
    const b = loadConfig({ NODE_ENV: 'development', MESHFRONT_DATA_DIR: dir });
    expect(a.sessionSecret.length).toBeGreaterThanOrEqual(32);
    expect(b.sessionSecret).toBe(a.sessionSecret);
    expect(fs.existsSync(path.join(dir, 'session-secret'))).toBe(true);
  });
});

describe('database', () => {
  it('applies migrations once; running them again (even concurrently) changes nothing', async () => {
    const results = await Promise.all([migrate(t.engine.database), migrate(t.engine.database)]);
    expect(results.map((r) => r.applied)).toEqual([[], []]);
    const rows = await t.engine.database.db.execute(sql`select name from schema_migrations`);
    expect((rows as unknown as { rows: { name: string }[] }).rows.map((r) => r.name)).toContain('0000_init.sql');
  });

  it('seeded the fixture catalog on first start', async () => {
    const r = await t.data(`{ products(first: 100) { found } catalogVersion }`);
    expect(r.products.found).toBe(11);
    expect(r.catalogVersion).toBeGreaterThanOrEqual(1);
  });
});

describe('seed loader', () => {
  it('loads the fixture with money as strings and validated cross-references', () => {
    const c = loadSeedCatalog(FIXTURE_CATALOG);
    expect(c.products).toHaveLength(12);
    expect(c.categories.map((x) => x.slug)).toContain('indoor-gateways');
  });

  it('reports every problem with its file and path', () => {
    const dir = copyFixture();
    const omni = readJson(path.join(dir, 'products/omni-antenna.json'));
    writeJson(path.join(dir, 'products/omni-antenna.json'), {
      ...omni,
      regularPrice: 59.9,
      categories: ['antennas', 'nope'],
    });
    const hoodie = readJson(path.join(dir, 'products/mesh-hoodie.json'));
    hoodie.variations[1].attributes.pa_color = 'purple';
    hoodie.related = ['ghost-product'];
    writeJson(path.join(dir, 'products/mesh-hoodie.json'), hoodie);
    fs.writeFileSync(path.join(dir, 'products/broken.json'), '{ not json');
    try {
      loadSeedCatalog(dir);
      expect.unreachable();
    } catch (err) {
      expect(err).toBeInstanceOf(SeedValidationError);
      const issues = (err as SeedValidationError).issues;
      expect(issues).toContainEqual(
        expect.objectContaining({ file: 'products/omni-antenna.json', path: 'regularPrice' }),
      );
      expect(issues).toContainEqual(
        expect.objectContaining({ file: 'products/mesh-hoodie.json', path: 'variations[1].attributes.pa_color' }),
      );
      expect(issues).toContainEqual(expect.objectContaining({ file: 'products/mesh-hoodie.json', path: 'related[0]' }));
      expect(issues).toContainEqual(expect.objectContaining({ file: 'products/broken.json' }));
      expect((err as Error).message).toContain('products/mesh-hoodie.json at variations[1].attributes.pa_color');
    }
  });

  it('fails clearly when there is no catalog yet', () => {
    expect(() => loadSeedCatalog(path.join(tmp(), 'missing'))).toThrow(SeedMissingError);
    const empty = tmp();
    fs.mkdirSync(path.join(empty, 'products'));
    expect(() => loadSeedCatalog(empty)).toThrow(/has no products yet/);
  });

  it('generates the same synthetic catalog for the same seed, in the seed format', () => {
    const a = syntheticCatalog(60);
    expect(syntheticCatalog(60)).toEqual(a);
    expect(a.products).toHaveLength(60);
    for (const p of a.products) expect(productSchema.safeParse(p).success, p.slug).toBe(true);
    expect(new Set(a.products.map((p) => p.slug)).size).toBe(60);
    expect(a.products.some((p) => p.type === 'variable')).toBe(true);
  });
});

describe('catalog cache', () => {
  it('refuses to seed over an existing catalog unless reset, and reset replaces it', async () => {
    await expect(t.engine.catalog.seedFromDirectory(FIXTURE_CATALOG)).rejects.toThrow(/not empty/);
    const before = (await t.data(`{ catalogVersion }`)).catalogVersion;
    const dir = copyFixture();
    const bravo = readJson(path.join(dir, 'products/bravo-outdoor-gateway.json'));
    writeJson(path.join(dir, 'products/bravo-outdoor-gateway.json'), { ...bravo, regularPrice: '399.00' });
    await t.engine.catalog.seedFromDirectory(dir, { reset: true });
    const r = await t.data(
      `{ catalogVersion product(id: "bravo-outdoor-gateway", idType: SLUG) { ... on SimpleProduct { price } } }`,
    );
    expect(r.catalogVersion).toBeGreaterThan(before);
    expect(r.product.price).toBe('€399.00');
  });

  it('sees a catalog change made by another process once the version is bumped', async () => {
    const db = t.engine.database.db;
    const price = async () =>
      (await t.data(`{ product(id: "yagi-antenna", idType: SLUG) { ... on SimpleProduct { price } } }`)).product.price;
    expect(await price()).toBe('€89.00');
    // Another process: changes the row and bumps the version in one transaction.
    await db.transaction(async (tx) => {
      await tx.execute(sql`update catalog_products set regular_price_cents = 7900 where slug = 'yagi-antenna'`);
      await bumpCounter(tx, 'catalog_version');
    });
    await new Promise((r) => setTimeout(r, 250));
    expect(await price()).toBe('€79.00');
  });

  it('refreshes stock alone when only the stock version moves', async () => {
    const db = t.engine.database.db;
    const snapshotBefore = await t.engine.catalog.snapshot();
    const untouched = snapshotBefore.productsBySlug.get('omni-antenna')!;
    await db.transaction(async (tx) => {
      await tx.execute(sql`update catalog_products set stock_quantity = 0 where slug = 'bravo-outdoor-gateway'`);
      // A row changed without its announcement: the refresh reads only rows stamped after its version.
      await tx.execute(sql`update catalog_products set stock_quantity = 4321 where slug = 'omni-antenna'`);
      await markStockChanged(tx, { productIds: [snapshotBefore.productsBySlug.get('bravo-outdoor-gateway')!.id] });
    });
    await new Promise((r) => setTimeout(r, 250));
    const r = await t.data(
      `{ product(id: "bravo-outdoor-gateway", idType: SLUG) { ... on SimpleProduct { stockStatus stockQuantity } } products(where: { stockStatus: [OUT_OF_STOCK] }) { nodes { slug } } }`,
    );
    // A managed stock of 0 is 0, not "unknown" (null is for products that do not manage stock).
    expect(r.product).toEqual({ stockStatus: 'OUT_OF_STOCK', stockQuantity: 0 });
    expect(r.products.nodes.map((n: { slug: string }) => n.slug)).toContain('bravo-outdoor-gateway');
    expect(await t.engine.catalog.snapshot()).toBe(snapshotBefore); // same snapshot object, refreshed in place
    expect(untouched.stockQuantity).not.toBe(4321);
    await db.execute(
      sql`update catalog_products set stock_quantity = ${untouched.stockQuantity} where slug = 'omni-antenna'`,
    );
  });

  it('a second service on the same database (another process) serves the same data', async () => {
    const other = new CatalogService(t.engine.database.db, { versionCheckMs: 0 });
    const p = await other.findProduct('FX-OMNI', 'SKU');
    expect(p?.slug).toBe('omni-antenna');
  });
});

describe('cli', () => {
  const cli = (...args: string[]) =>
    spawnSync(
      process.execPath,
      ['--import', 'tsx', path.resolve(import.meta.dirname, '../../src/server/cli.ts'), ...args],
      { encoding: 'utf8', env: { ...process.env, MESHFRONT_DATA_DIR: tmp() } },
    );
  /** The same command in this process (a `tsx` start-up takes seconds on a busy machine). */
  const cliHere = (...args: string[]) => runShopHere(args, { ...process.env, MESHFRONT_DATA_DIR: tmp() });

  it('prints usage and exits non-zero without a command, or with an unknown one', async () => {
    const none = cli();
    expect(none.status).toBe(1);
    expect(none.stdout).toMatch(/Usage: npm run shop -- <command>/);
    expect(none.stdout).toMatch(/seed \[--reset\] \[--synthetic N\]/);
    const unknown = await cliHere('frobnicate');
    expect(unknown.code).toBe(2);
    expect(unknown.err).toMatch(/Unknown command "frobnicate"/);
    const bad = await cliHere('seed', '--synthetic', 'lots');
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--synthetic takes a whole number/);
  }, 120_000); // one `tsx` start-up
});
