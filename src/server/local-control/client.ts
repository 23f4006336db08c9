/**
 * The CLI's side of the local control channel: sends `npm run shop -- <argv>` to the running shop (whose
 * address and token are in the credential file) and prints what the command prints there, as it comes.
 */
import type { LocalControlCredential } from './credential.ts';

export class LocalControlError extends Error {
  override name = 'LocalControlError';
}

type Line = { out?: unknown; err?: unknown; exit?: unknown };

/** The command's exit code; LocalControlError when the shop refused it or went away before it ended. */
export async function sendLocalCommand(
  credential: LocalControlCredential,
  command: { argv: string[]; stdin: string | null; cwd: string },
  output: { out: (text: string) => void; err: (text: string) => void } = {
    out: (t) => process.stdout.write(t),
    err: (t) => process.stderr.write(t),
  },
): Promise<number> {
  let response: Response;
  try {
    response = await fetch(credential.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${credential.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(command),
    });
  } catch (err) {
    throw new LocalControlError(
      `the shop (process ${credential.pid}) has the database open but does not answer on ${credential.url} (${(err as Error).cause ?? (err as Error).message})`,
    );
  }
  if (!response.ok || !response.body) {
    const body = (await response.json().catch(() => ({}))) as { error?: string };
    throw new LocalControlError(
      `the shop (process ${credential.pid}) refused the command: ${body.error ?? `HTTP ${response.status}`}`,
    );
  }
  const decoder = new TextDecoder();
  let pending = '';
  try {
    for await (const chunk of response.body) {
      pending += decoder.decode(chunk, { stream: true });
      let end = pending.indexOf('\n');
      while (end >= 0) {
        const line = JSON.parse(pending.slice(0, end)) as Line;
        pending = pending.slice(end + 1);
        end = pending.indexOf('\n');
        if (typeof line.out === 'string') output.out(line.out);
        else if (typeof line.err === 'string') output.err(line.err);
        else if (typeof line.exit === 'number') return line.exit;
      }
    }
  } catch (err) {
    throw new LocalControlError(
      `the connection to the shop (process ${credential.pid}) broke before the command ended (${(err as Error).message}); it may or may not have finished there`,
    );
  }
  throw new LocalControlError(
    `the shop (process ${credential.pid}) stopped answering before the command ended; it may or may not have finished there`,
  );
}
