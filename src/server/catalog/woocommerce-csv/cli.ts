/**
 * `npm run shop -- import <file.csv> [--dry-run]` and `npm run shop -- export [--out file.csv]`
 * (registered in src/server/cli.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { getConfig } from '../../config.ts';
import { createEngine } from '../../engine/index.ts';
import { exportCatalogCsv, formatImportReport, importCatalogCsv } from './catalog-io.ts';

/** cli.ts answers errors with an ERR_PARSE_ARGS code like its own usage errors: message, usage, exit 2. */
class CliUsageError extends Error {
  readonly code = 'ERR_PARSE_ARGS_INVALID_USAGE';
}

/** Refuse files no product export is near: a CSV of 50,000 products with long descriptions is ~100 MB. */
const MAX_CSV_BYTES = 256 * 1024 * 1024;

export const importCommand = {
  summary: 'import products from a WooCommerce product CSV export (creates new, updates matching ID/SKU)',
  usage: `import <file.csv> [--dry-run]
    --dry-run        check every row against the shop and report, but save nothing`,
  async run(argv: string[]): Promise<void> {
    const { values, positionals } = parseArgs({
      args: argv,
      options: { 'dry-run': { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    });
    if (positionals.length !== 1) throw new CliUsageError('import takes exactly one CSV file');
    const file = path.resolve(positionals[0]!);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(file);
    } catch {
      throw new CliUsageError(`cannot read ${file}: no such file`);
    }
    if (!stat.isFile()) throw new CliUsageError(`${file} is not a file`);
    if (stat.size > MAX_CSV_BYTES) throw new CliUsageError(`${file} is larger than ${MAX_CSV_BYTES / 1024 / 1024} MB`);
    const text = fs.readFileSync(file, 'utf8');
    const engine = await createEngine(getConfig(), { seed: false });
    try {
      const report = await importCatalogCsv(
        { db: engine.database.db, config: engine.config, catalog: engine.catalog },
        text,
        { dryRun: values['dry-run'] },
      );
      console.log(formatImportReport(report));
      if (!report.dryRun && report.created + report.updated + report.variationsCreated + report.variationsUpdated > 0) {
        console.log(
          'The static pages are now stale: run `npm run shop -- publish` to rebuild them (prices and stock in the shop are live already).',
        );
      }
      if (report.errors.length)
        throw new Error(
          `${report.errors.length} problem${report.errors.length === 1 ? '' : 's'} in ${path.basename(file)} (listed above); fix those rows and import the file again`,
        );
    } finally {
      await engine.close();
    }
  },
};

export const exportCommand = {
  summary: 'export every product as a WooCommerce product CSV',
  usage: `export [--out file.csv]
    --out FILE       write to FILE (default: standard output)`,
  async run(argv: string[]): Promise<void> {
    const { values } = parseArgs({ args: argv, options: { out: { type: 'string' } }, strict: true });
    const engine = await createEngine(getConfig(), { seed: false });
    try {
      const result = await exportCatalogCsv({ db: engine.database.db, config: engine.config, catalog: engine.catalog });
      if (values.out) {
        const out = path.resolve(values.out);
        // Written beside the target and renamed, so an interrupted export never leaves half a file.
        const tmp = `${out}.${process.pid}.tmp`;
        fs.writeFileSync(tmp, result.csv);
        fs.renameSync(tmp, out);
        console.log(`Exported ${result.products} products (${result.rows} rows with variations) to ${out}.`);
      } else {
        process.stdout.write(result.csv);
        console.error(`Exported ${result.products} products (${result.rows} rows with variations).`);
      }
    } finally {
      await engine.close();
    }
  },
};
