/**
 * `backup [FILE]` and `restore FILE`: the embedded database as one file. A backup is taken from the open
 * database — inside the running shop when it has the database, so it never stops for one. A restore
 * replaces the database, so it runs only while nothing else has it open. PostgreSQL has its own tools.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BackupError, restoreBackup, writeBackup } from '../../db/backup.ts';
import { CliUsageError, fromCwd, withAdmin, type CliCommand, type CommandContext } from './common.ts';

const POSTGRES_BACKUP =
  'the shop runs on PostgreSQL (DATABASE_URL): back it up with PostgreSQL\'s own tools, e.g. `pg_dump --format=custom --file=meshfront.dump "$DATABASE_URL"`, and restore with `pg_restore --clean --dbname="$DATABASE_URL" meshfront.dump` (or your provider\'s backups)';

function oneFile(argv: string[], required: boolean): string | undefined {
  const { positionals } = parseArgs({ args: argv, options: {}, allowPositionals: true, strict: true });
  if (positionals.length > 1 || (required && positionals.length === 0))
    throw new CliUsageError(required ? 'Give the backup file to restore.' : 'Give at most one file to write.');
  return positionals[0];
}

const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, 'Z');

const embeddedOnly = (ctx: CommandContext) => {
  if (ctx.config.database.kind !== 'pglite') throw new BackupError(POSTGRES_BACKUP);
};

export const backupCommand: CliCommand = {
  summary: 'write a backup of the embedded database (also while the shop runs)',
  usage: `backup [FILE]
    FILE             where to write it (default <data dir>/backups/meshfront-<date and time>.tar.gz)`,
  async run(argv, ctx) {
    const given = oneFile(argv, false);
    embeddedOnly(ctx);
    const file = given ? fromCwd(ctx, given) : path.join(ctx.config.dataDir, 'backups', `meshfront-${stamp()}.tar.gz`);
    const engine = await ctx.engine();
    const { bytes } = await writeBackup(engine.database, file);
    ctx.io.out(`Backed up the database to ${file} (${(bytes / 1024 / 1024).toFixed(1)} MB).`);
  },
};

export const restoreCommand: CliCommand = {
  summary: 'replace the embedded database with a backup (only while the shop is stopped)',
  usage: `restore FILE
    FILE             a file written by backup; the database it replaces is kept beside it`,
  notWhileRunning: () => 'a restore replaces the database the shop has open',
  async run(argv, ctx) {
    const file = fromCwd(ctx, oneFile(argv, true)!);
    embeddedOnly(ctx);
    if (ctx.config.database.kind !== 'pglite' || !ctx.lock)
      throw new BackupError('a restore runs only in the CLI, with the database closed everywhere else');
    const { aside } = await restoreBackup(ctx.config.database.dir, file, ctx.lock);
    const orders = await withAdmin(ctx, async (admin) => (await admin.listOrders({ first: 1 })).total);
    ctx.io.out(`Restored ${file}: the shop has ${orders} order${orders === 1 ? '' : 's'}.`);
    if (aside) ctx.io.out(`The database it replaced is in ${aside}; delete that once the shop runs well.`);
  },
};
