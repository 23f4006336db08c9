/**
 * Shared pieces of the store-operations commands (`npm run shop -- …`): the usage error the dispatcher
 * prints with the command's usage text, argument parsing helpers, and an engine that is opened for one
 * command and always closed.
 */
import { parseMoney } from '../../catalog/money.ts';
import { getConfig } from '../../config.ts';
import { createEngine, type Engine } from '../../engine/index.ts';
import { AdminService } from '../service.ts';

/** Wrong or missing arguments: the dispatcher prints the message and the command's usage, exit code 2. */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
}

export type CliCommand = { summary: string; usage: string; run(args: string[]): Promise<void> };

export async function withAdmin<T>(fn: (admin: AdminService, engine: Engine) => Promise<T>): Promise<T> {
  const engine = await createEngine(getConfig(), { seed: false, log: () => {} });
  try {
    return await fn(new AdminService(engine), engine);
  } finally {
    await engine.close();
  }
}

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

export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY)
    throw new CliUsageError(
      '--password-stdin reads the password from standard input, e.g. `printf %s "$PASSWORD" | npm run shop -- create-admin …`.',
    );
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks)
    .toString('utf8')
    .replace(/\r?\n$/, '');
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
