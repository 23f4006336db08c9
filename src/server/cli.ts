/**
 * Store operations from the shell: `npm run shop -- <command> [options]` (the commands and their
 * dispatcher: src/server/admin/cli).
 *
 * On the embedded database the CLI first takes the database's lock (src/server/db/data-dir-lock.ts) and
 * holds it until the command ends. When the running shop holds it instead, the command goes to the shop
 * over its local control channel (src/server/local-control) and runs there, on the shop's engine, with
 * the same output and exit code; when another process holds it, the CLI says which and stops. With
 * PostgreSQL (DATABASE_URL) there is no lock: the CLI opens its own connections beside the servers.
 */
import type { CommandIo } from './admin/cli/common.ts';
import { CliUsageError, readProcessStdin, readsStdin } from './admin/cli/terminal.ts';
import { getConfig, type ServerConfig } from './config.ts';
import { DatabaseLockedError, lockDatabaseDir, type DataDirLock } from './db/data-dir-lock.ts';
import type { Engine } from './engine/index.ts';
import { LocalControlError, sendLocalCommand } from './local-control/client.ts';
import { readCredential } from './local-control/credential.ts';

const io: CommandIo = {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
  write: (text) => void process.stdout.write(text),
  stdin: readProcessStdin,
  cwd: process.cwd(),
};

/** The commands and the engine, loaded only to run a command here: sending one to the shop needs neither. */
const loadCommands = () => import('./admin/cli/index.ts');

async function sendToShop(config: ServerConfig, err: DatabaseLockedError, argv: string[]): Promise<number> {
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
    if (readsStdin(rest)) stdin = await readProcessStdin();
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

async function main(argv: string[]): Promise<number> {
  const [name] = argv;
  if (!name || name.startsWith('-') || name === 'help') return (await loadCommands()).helpOrUnknown(argv, io) ?? 2;
  let config: ServerConfig;
  try {
    config = getConfig();
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
      return sendToShop(config, err, argv);
    }
  }
  let engine: Promise<Engine> | null = null;
  try {
    const [{ runCommand }, { createEngine }] = await Promise.all([loadCommands(), import('./engine/index.ts')]);
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

process.exitCode = await main(process.argv.slice(2));
