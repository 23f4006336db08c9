/**
 * The catalog as a whole from the shell: `seed`, `migrate`, `import` and `export` (WooCommerce product
 * CSV, read and written by catalog/woocommerce-csv/).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { syntheticCatalog } from '../../catalog/synthetic.ts';
import { writeSeedCatalog } from '../../catalog/seed-writer.ts';
import { exportCatalogCsv, formatImportReport, importCatalogCsv } from '../catalog-io.ts';
import { CliUsageError, fromCwd, type CliCommand } from './common.ts';

/** Refuse files no product export is near: a CSV of 50,000 products with long descriptions is ~100 MB. */
const MAX_CSV_BYTES = 256 * 1024 * 1024;

export const seedCommand: CliCommand = {
  summary: 'load the seed catalog (content/catalog) or a synthetic one into the database',
  usage: `seed [--reset] [--synthetic N] [--dir PATH]
    --reset          replace the existing catalog (otherwise the catalog must be empty)
    --synthetic N    generate N realistic products (fixed random seed) instead of reading the catalog
    --dir PATH       read the catalog from PATH (default MESHFRONT_CATALOG_DIR or content/catalog)`,
  // Carts and checkouts under way hold products that a replaced catalog no longer has.
  notWhileRunning: (args) =>
    args.includes('--reset') ? 'replacing the catalog would pull it away from the carts and checkouts under way' : null,
  async run(argv, ctx) {
    const { values } = parseArgs({
      args: argv,
      options: { reset: { type: 'boolean' }, synthetic: { type: 'string' }, dir: { type: 'string' } },
      strict: true,
    });
    const synthetic = values.synthetic === undefined ? null : Number(values.synthetic);
    if (synthetic !== null && (!Number.isInteger(synthetic) || synthetic < 1 || synthetic > 100_000)) {
      throw new CliUsageError('--synthetic takes a whole number of products between 1 and 100000');
    }
    const engine = await ctx.engine({ log: true });
    const started = Date.now();
    const result =
      synthetic !== null
        ? await writeSeedCatalog(engine.database.db, syntheticCatalog(synthetic), { reset: values.reset })
        : await engine.catalog.seedFromDirectory(values.dir ? fromCwd(ctx, values.dir) : ctx.config.catalogDir, {
            reset: values.reset,
          });
    engine.catalog.invalidate();
    ctx.io.out(
      `Seeded ${result.products} products (${result.variations} variations), ${result.categories} categories, ${result.reviews} reviews in ${Date.now() - started} ms.`,
    );
  },
};

export const migrateCommand: CliCommand = {
  summary: 'apply pending database migrations and exit',
  usage: 'migrate',
  async run(argv, ctx) {
    parseArgs({ args: argv, options: {}, strict: true });
    // An engine is migrated when it opens (the running shop's was at its start).
    await ctx.engine({ log: true });
    ctx.io.out('Database is up to date.');
  },
};

export const importCommand: CliCommand = {
  summary: 'import products from a WooCommerce product CSV export (creates new, updates matching ID/SKU)',
  usage: `import <file.csv> [--dry-run]
    --dry-run        check every row against the shop and report, but save nothing`,
  async run(argv, ctx) {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { 'dry-run': { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw new CliUsageError('import takes exactly one CSV file');
    const file = fromCwd(ctx, positionals[0]!);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      throw new CliUsageError(`cannot read ${file}: no such file`);
    }
    if (!stat.isFile()) throw new CliUsageError(`${file} is not a file`);
    if (stat.size > MAX_CSV_BYTES) throw new CliUsageError(`${file} is larger than ${MAX_CSV_BYTES / 1024 / 1024} MB`);
    const text = fs.readFileSync(file, 'utf8');
    const engine = await ctx.engine({ log: true });
    const report = await importCatalogCsv(
      { db: engine.database.db, config: engine.config, catalog: engine.catalog },
      text,
      {
        dryRun: values['dry-run'],
      },
    );
    ctx.io.out(formatImportReport(report));
    if (!report.dryRun && report.created + report.updated + report.variationsCreated + report.variationsUpdated > 0) {
      ctx.io.out(
        'The static pages are now stale: run `npm run shop -- publish` to rebuild them (prices and stock in the shop are live already).',
      );
    }
    if (report.errors.length)
      throw new Error(
        `${report.errors.length} problem${report.errors.length === 1 ? '' : 's'} in ${path.basename(file)} (listed above); fix those rows and import the file again`,
      );
  },
};

export const exportCommand: CliCommand = {
  summary: 'export every product as a WooCommerce product CSV',
  usage: `export [--out file.csv]
    --out FILE       write to FILE (default: standard output)`,
  async run(argv, ctx) {
    const { values } = parseArgs({ args: argv, options: { out: { type: 'string' } }, strict: true });
    const engine = await ctx.engine({ log: true });
    const result = await exportCatalogCsv({ db: engine.database.db, config: engine.config, catalog: engine.catalog });
    if (values.out) {
      const out = fromCwd(ctx, values.out);
      // Written beside the target and renamed, so an interrupted export never leaves half a file.
      const tmp = `${out}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, result.csv);
      fs.renameSync(tmp, out);
      ctx.io.out(`Exported ${result.products} products (${result.rows} rows with variations) to ${out}.`);
    } else {
      ctx.io.write(result.csv);
      ctx.io.err(`Exported ${result.products} products (${result.rows} rows with variations).`);
    }
  },
};
