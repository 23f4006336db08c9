/**
 * Store operations from the shell: `npm run shop -- <command> [options]`. Where a command runs (here, or
 * inside the running shop) is decided in src/server/admin/cli/shell.ts; the commands live beside it.
 */
import { runShopCommand } from './admin/cli/shell.ts';
import { readProcessStdin } from './admin/cli/terminal.ts';

process.exitCode = await runShopCommand(
  process.argv.slice(2),
  {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
    write: (text) => void process.stdout.write(text),
    stdin: readProcessStdin,
    cwd: process.cwd(),
  },
  process.env,
);
