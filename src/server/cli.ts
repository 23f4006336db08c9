/**
 * Store operations from the shell: `npm run shop -- <command> [options]`.
 * A dispatcher: each command is one entry in COMMANDS (later issues add orders, coupons, …).
 */
import { parseArgs } from 'node:util';
import { SeedMissingError, SeedValidationError } from './catalog/seed-loader.ts';
import { syntheticCatalog } from './catalog/synthetic.ts';
import { writeSeedCatalog } from './catalog/seed-writer.ts';
import { getConfig } from './config.ts';
import { createEngine } from './engine/index.ts';
import { adminCommands, CliUsageError } from './admin/cli/index.ts';
import { asAdminError } from './admin/errors.ts';
import { exportCommand, importCommand } from './catalog/woocommerce-csv/cli.ts';
import { publishCommand } from './publish/cli.ts';

type Command = { summary: string; usage: string; run(args: string[]): Promise<void> };

const COMMANDS: Record<string, Command> = {
  seed: {
    summary: 'load the seed catalog (content/catalog) or a synthetic one into the database',
    usage: `seed [--reset] [--synthetic N] [--dir PATH]
    --reset          replace the existing catalog (otherwise the catalog must be empty)
    --synthetic N    generate N realistic products (fixed random seed) instead of reading the catalog
    --dir PATH       read the catalog from PATH (default MESHFRONT_CATALOG_DIR or content/catalog)`,
    async run(argv) {
      const { values } = parseArgs({
        args: argv,
        options: { reset: { type: 'boolean' }, synthetic: { type: 'string' }, dir: { type: 'string' } },
        strict: true,
      });
      const synthetic = values.synthetic === undefined ? null : Number(values.synthetic);
      if (synthetic !== null && (!Number.isInteger(synthetic) || synthetic < 1 || synthetic > 100_000)) {
        throw new UsageError('--synthetic takes a whole number of products between 1 and 100000');
      }
      const config = getConfig();
      const engine = await createEngine(config, { seed: false });
      try {
        const started = Date.now();
        let result;
        if (synthetic !== null) {
          result = await writeSeedCatalog(engine.database.db, syntheticCatalog(synthetic), { reset: values.reset });
        } else {
          result = await engine.catalog.seedFromDirectory(values.dir ?? config.catalogDir, { reset: values.reset });
        }
        console.log(
          `Seeded ${result.products} products (${result.variations} variations), ${result.categories} categories, ${result.reviews} reviews in ${Date.now() - started} ms.`,
        );
      } finally {
        await engine.close();
      }
    },
  },
  migrate: {
    summary: 'apply pending database migrations and exit',
    usage: 'migrate',
    async run() {
      const engine = await createEngine(getConfig(), { seed: false });
      await engine.close();
      console.log('Database is up to date.');
    },
  },
  import: importCommand,
  export: exportCommand,
  publish: publishCommand,
  // Store operations (src/server/admin/cli): create-admin, orders, products, coupons.
  ...adminCommands,
};

class UsageError extends Error {}

function usage(): string {
  return [
    'Usage: npm run shop -- <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`),
    '',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
  ].join('\n');
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    console.log(usage());
    return name ? 0 : 1;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`Unknown command "${name}".\n\n${usage()}`);
    return 2;
  }
  try {
    await command.run(rest);
    return 0;
  } catch (err) {
    if (
      err instanceof UsageError ||
      err instanceof CliUsageError ||
      (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')
    ) {
      console.error(`${(err as Error).message}\n\n  ${command.usage}`);
      return 2;
    }
    if (err instanceof SeedValidationError || err instanceof SeedMissingError) console.error(err.message);
    else if (asAdminError(err)) console.error(`shop ${name}: ${asAdminError(err)!.message}`);
    else console.error(`shop ${name} failed: ${(err as Error).message}`);
    return 1;
  }
}

process.exitCode = await main(process.argv.slice(2));
