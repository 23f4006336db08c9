/**
 * Secrets a shop keeps in its data directory when none is configured. A shop on the embedded database is
 * one process on one machine, so a random secret generated once and kept next to its database is as good
 * as a configured one, and a fresh `npm start` needs no key. (With PostgreSQL several processes must share
 * each secret, so the settings that call this require it to be configured there instead.)
 *
 * The file is created exclusively (two processes starting at once agree on the first one written) and
 * readable by its owner only (0600). A file that exists but does not hold a valid secret is never
 * replaced: it may be the only copy of a key that matters (a payment seed), so the caller is told instead.
 */
import fs from 'node:fs';
import path from 'node:path';

export class DataDirSecretError extends Error {
  override name = 'DataDirSecretError';
}

export type DataDirSecretOptions = {
  /** A new secret, as the text the file holds. */
  generate: () => string;
  /** Whether the file's text (trimmed) is a usable secret. */
  valid: (text: string) => boolean;
  /** Told once when a new secret is written. */
  onCreate?: (file: string) => void;
};

function readSecret(file: string): string | null {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
}

/** The secret kept in <dataDir>/<fileName>, generated and written (mode 0600) on first use. */
export function dataDirSecret(dataDir: string, fileName: string, options: DataDirSecretOptions): string {
  const file = path.join(dataDir, fileName);
  let text = readSecret(file);
  if (text === null) {
    fs.mkdirSync(dataDir, { recursive: true });
    const secret = options.generate();
    try {
      fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
      options.onCreate?.(file);
      return secret;
    } catch (err) {
      // Another process wrote it first: use that one.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      text = readSecret(file) ?? '';
    }
  }
  if (!options.valid(text))
    throw new DataDirSecretError(
      `${file} does not hold a valid secret; restore it from a backup or remove it to generate a new one`,
    );
  // Kept private even if it was copied in with looser permissions.
  if ((fs.statSync(file).mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  return text;
}
