/**
 * Shared pieces of the store-operations commands (`npm run shop -- …`): what a command is, the context it
 * runs in, the usage error the dispatcher prints with the command's usage text and argument parsing
 * helpers.
 *
 * A command never opens the database itself: it asks its context for the engine. In the CLI process that
 * is an engine of its own (the CLI holds the embedded database's lock); while the shop runs on the
 * embedded database, the CLI sends the command to the shop (src/server/local-control) and the same code
 * runs there on the shop's engine, its output sent back. So a command writes through `ctx.io`, never to
 * the console, and reads files by paths resolved from `ctx.io.cwd`.
 */
import path from 'node:path';
import { parseMoney } from '../../catalog/money.ts';
import type { ServerConfig } from '../../config.ts';
import type { DataDirLock } from '../../db/data-dir-lock.ts';
import type { Engine } from '../../engine/index.ts';
import { adminServiceFor, type AdminService } from '../service.ts';
import { CliUsageError } from './terminal.ts';

export { CliUsageError } from './terminal.ts';

export type CommandIo = {
  /** A line on standard output. */
  out(line: string): void;
  /** A line on standard error. */
  err(line: string): void;
  /** Text on standard output as it is (no line end added). */
  write(text: string): void;
  /** Standard input as text (given a `--…-stdin` flag: terminal.ts). */
  stdin(): Promise<string>;
  /** The operator's working directory. */
  cwd: string;
};

export type CommandContext = {
  config: ServerConfig;
  io: CommandIo;
  /** The engine to run on, opened on first call in the CLI; `log` shows the engine's start-up lines. */
  engine(options?: { log?: boolean }): Promise<Engine>;
  /** In the CLI process, or inside the running shop (sent there by the CLI). */
  where: 'cli' | 'server';
  /** The embedded database's lock, held by the CLI process for the whole command (null elsewhere). */
  lock: DataDirLock | null;
};

export type CliCommand = {
  summary: string;
  usage: string;
  run(args: string[], ctx: CommandContext): Promise<void>;
  /** Why it cannot run inside the running shop with these arguments; null when it can. */
  notWhileRunning?(args: string[]): string | null;
};

/** The command's engine and its admin service (the shop's own when the command runs inside it). */
export async function withAdmin<T>(
  ctx: CommandContext,
  fn: (admin: AdminService, engine: Engine) => Promise<T>,
): Promise<T> {
  const engine = await ctx.engine();
  return fn(adminServiceFor(engine), engine);
}

/** A path given on the command line, from the operator's working directory. */
export const fromCwd = (ctx: CommandContext, file: string) => path.resolve(ctx.io.cwd, file);

export function positiveInt(value: string | undefined, what: string): number {
  if (value === undefined || !/^\d{1,10}$/.test(value) || Number(value) < 1 || Number(value) > 2147483647)
    throw new CliUsageError(`${what} must be a positive whole number (got ${JSON.stringify(value ?? '')}).`);
  return Number(value);
}

export function wholeNumber(value: string | undefined, what: string, min = 0): number {
  if (value === undefined || !/^-?\d{1,9}$/.test(value) || Number(value) < min)
    throw new CliUsageError(
      `${what} must be a whole number${min === 0 ? ' (0 or more)' : ''} (got ${JSON.stringify(value ?? '')}).`,
    );
  return Number(value);
}

/** "349", "349.5", "349.00" (euros) → cents. */
export function euros(value: string | undefined, what: string): number {
  try {
    return parseMoney((value ?? '').trim());
  } catch {
    throw new CliUsageError(
      `${what} must be an amount in euros such as 349 or 12.50 (got ${JSON.stringify(value ?? '')}).`,
    );
  }
}

export function eurosText(cents: number | null | undefined): string {
  if (cents === null || cents === undefined) return '-';
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  return `${sign}€${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
}

/** Left-aligned columns separated by two spaces (plain text that also reads well when piped). */
export function table(header: string[], rows: (string | number | null | undefined)[][]): string {
  const cells = [header, ...rows.map((r) => r.map((c) => (c === null || c === undefined ? '' : String(c))))];
  const widths = header.map((_, i) => Math.max(...cells.map((r) => (r[i] ?? '').length)));
  return cells.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i]!))).join('  ')).join('\n');
}

/** The subcommand and its arguments, or a usage error naming the allowed ones. */
export function subcommand(argv: string[], allowed: string[]): [string, string[]] {
  const [sub, ...rest] = argv;
  if (!sub || !allowed.includes(sub))
    throw new CliUsageError(
      sub ? `Unknown subcommand "${sub}" (use ${allowed.join(', ')}).` : `Say what to do: ${allowed.join(', ')}.`,
    );
  return [sub, rest];
}
