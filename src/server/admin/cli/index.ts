/**
 * Every `npm run shop` command and the one dispatcher that runs them, in the CLI process
 * (src/server/cli.ts) or inside the running shop (src/server/local-control): the same usage texts, output
 * and exit codes either way — 0 done, 1 failed (the reason on standard error), 2 wrong arguments (with the
 * command's usage).
 */
import { SeedMissingError, SeedValidationError } from '../../catalog/seed-loader.ts';
import { BackupError } from '../../db/backup.ts';
import { describeThisProcess } from '../../db/data-dir-lock.ts';
import { asAdminError } from '../errors.ts';
import { backupCommand, restoreCommand } from './backup.ts';
import { exportCommand, importCommand, migrateCommand, seedCommand } from './catalog.ts';
import { CliUsageError, type CliCommand, type CommandContext, type CommandIo } from './common.ts';
import { couponsCommand } from './coupons.ts';
import { createAdminCommand } from './create-admin.ts';
import { customersCommand } from './customers.ts';
import { ordersCommand } from './orders.ts';
import { productsCommand } from './products.ts';
import { publishCommand } from './publish.ts';

export type { CliCommand, CommandContext, CommandIo } from './common.ts';

export const COMMANDS: Record<string, CliCommand> = {
  seed: seedCommand,
  migrate: migrateCommand,
  import: importCommand,
  export: exportCommand,
  publish: publishCommand,
  'create-admin': createAdminCommand,
  orders: ordersCommand,
  products: productsCommand,
  coupons: couponsCommand,
  customers: customersCommand,
  backup: backupCommand,
  restore: restoreCommand,
};

export function usage(): string {
  return [
    'Usage: npm run shop -- <command> [options]',
    '',
    'Commands:',
    ...Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(12)} ${c.summary}`),
    '',
    ...Object.values(COMMANDS).map((c) => `  ${c.usage}`),
  ].join('\n');
}

/** The command of that name (own properties only: a name comes from the command line or the local channel). */
export const commandNamed = (name: string): CliCommand | null =>
  Object.hasOwn(COMMANDS, name) ? COMMANDS[name]! : null;

/** Answers `help`, no command and an unknown one (exit code); null for a command to run. */
export function helpOrUnknown(argv: string[], io: Pick<CommandIo, 'out' | 'err'>): number | null {
  const [name] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    io.out(usage());
    return name ? 0 : 1;
  }
  if (commandNamed(name)) return null;
  io.err(`Unknown command "${name}".\n\n${usage()}`);
  return 2;
}

/** Runs `npm run shop -- <argv>` in `ctx` and returns its exit code; everything it says goes to ctx.io. */
export async function runCommand(argv: string[], ctx: CommandContext): Promise<number> {
  const answered = helpOrUnknown(argv, ctx.io);
  if (answered !== null) return answered;
  const [name = '', ...rest] = argv;
  const command = commandNamed(name)!;
  const refused = ctx.where === 'server' ? command.notWhileRunning?.(rest) : null;
  if (refused) {
    ctx.io.err(
      `shop ${name}: not while the shop is running (process ${process.pid}, ${describeThisProcess()}): ${refused}. Stop the shop, run the command, then start the shop again.`,
    );
    return 1;
  }
  try {
    await command.run(rest, ctx);
    return 0;
  } catch (err) {
    if (err instanceof CliUsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS')) {
      ctx.io.err(`${(err as Error).message}\n\n  ${command.usage}`);
      return 2;
    }
    if (err instanceof SeedValidationError || err instanceof SeedMissingError) ctx.io.err(err.message);
    else if (err instanceof BackupError) ctx.io.err(`shop ${name}: ${err.message}`);
    else if (asAdminError(err)) ctx.io.err(`shop ${name}: ${asAdminError(err)!.message}`);
    else ctx.io.err(`shop ${name} failed: ${(err as Error).message}`);
    return 1;
  }
}
