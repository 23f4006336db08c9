/**
 * What the CLI process needs before it knows where a command runs (in itself, or inside the running shop):
 * the usage error, and standard input. Kept apart from the commands so that sending one to the shop does
 * not load them.
 */

/** Wrong or missing arguments: the dispatcher prints the message and the command's usage, exit code 2. */
export class CliUsageError extends Error {
  override name = 'CliUsageError';
}

/**
 * A command reads standard input exactly when it is given a `--…-stdin` flag (`create-admin
 * --password-stdin`): the CLI reads it then, and sends it along when the command runs in the shop.
 */
export const readsStdin = (args: string[]) => args.some((a) => /^--[a-z]+(-[a-z]+)*-stdin$/.test(a));

/** This process's standard input as text (the CLI's side of `io.stdin`); a terminal is refused. */
export async function readProcessStdin(): Promise<string> {
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
