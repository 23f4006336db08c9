/**
 * One `npm run shop -- <command> [options]` from the shell's side: the settings, the embedded database's
 * lock, and where the command runs. src/server/cli.ts calls it with the process's arguments, environment
 * and standard streams; tests call it in their own process with their own.
 *
 * On the embedded database the CLI first takes the database's lock (src/server/db/data-dir-lock.ts) and
 * holds it until the command ends. When the running shop holds it instead, the command goes to the shop
 * over its local control channel (src/server/local-control) and runs there, on the shop's engine, with
 * the same output and exit code; when another process holds it, the CLI says which and stops. With
 * PostgreSQL (DATABASE_URL) there is no lock: the CLI opens its own connections beside the servers.
 */
import { loadConfig, type ServerConfig } from '../../config.ts';
import { DatabaseLockedError, lockDatabaseDir, type DataDirLock } from '../../db/data-dir-lock.ts';
import type { Engine } from '../../engine/index.ts';
import { LocalControlError, sendLocalCommand } from '../../local-control/client.ts';
import { readCredential } from '../../local-control/credential.ts';
import type { CommandIo } from './common.ts';
import { CliUsageError, readsStdin } from './terminal.ts';

/** The commands and the engine, loaded only to run a command here: sending one to the shop needs neither. */
const loadCommands = () => import('./index.ts');

async function sendToShop(config: ServerConfig, io: CommandIo, err: DatabaseLockedError, argv: string[]) {
  const [name, ...rest] = argv;
  // The shop writes its channel's credential once it has the database; another process writes none.
  const credential = readCredential(config.dataDir);
  if (!err.holder || credential?.pid !== err.holder.pid) {
    io.err(
      `shop ${name}: ${err.message} Run the command again once that process has ended (or, if it is the shop starting, once it is up: the running shop takes commands).`,
    );
    return 1;
  }
  let stdin: string | null = null;
  try {
    if (readsStdin(rest)) stdin = await io.stdin();
  } catch (e) {
    if (!(e instanceof CliUsageError)) throw e;
    io.err(`${e.message}\n\n  ${(await loadCommands()).commandNamed(name!)?.usage ?? ''}`);
    return 2;
  }
  try {
    return await sendLocalCommand(credential, { argv, stdin, cwd: io.cwd });
  } catch (e) {
    if (!(e instanceof LocalControlError)) throw e;
    io.err(`shop ${name}: ${e.message}`);
    return 1;
  }
}

/** Runs the command `argv` with the settings in `env`; returns its exit code (0 done, 1 failed, 2 wrong arguments). */
export async function runShopCommand(
  argv: string[],
  io: CommandIo,
  env: Record<string, string | undefined>,
): Promise<number> {
  const [name] = argv;
  if (!name || name.startsWith('-') || name === 'help') return (await loadCommands()).helpOrUnknown(argv, io) ?? 2;
  let config: ServerConfig;
  try {
    config = loadConfig(env);
  } catch (err) {
    io.err(`shop ${name} failed: ${(err as Error).message}`);
    return 1;
  }
  let lock: DataDirLock | null = null;
  if (config.database.kind === 'pglite') {
    try {
      lock = lockDatabaseDir(config.database.dir, `shop CLI: ${name}`);
    } catch (err) {
      if (!(err instanceof DatabaseLockedError)) throw err;
      // The shop answers an unknown command as this process would.
      return sendToShop(config, io, err, argv);
    }
  }
  let engine: Promise<Engine> | null = null;
  try {
    const [{ runCommand }, { createEngine }] = await Promise.all([loadCommands(), import('../../engine/index.ts')]);
    return await runCommand(argv, {
      config,
      io,
      where: 'cli',
      lock,
      engine: (options) =>
        (engine ??= createEngine(config, {
          seed: false,
          ...(options?.log ? {} : { log: () => {} }),
          open: lock ? { lock } : {},
        })),
    });
  } finally {
    if (engine) await (await (engine as Promise<Engine>).catch(() => null))?.close();
    lock?.release();
  }
}
