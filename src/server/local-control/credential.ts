/**
 * The local control channel's credential: a random token, made by the shop process at start and kept in
 * `<data dir>/local-control.json` (mode 0600, so only the operator's account can read it) with the
 * loopback address the shop takes commands on. Whoever can read that file may run store operations on
 * the shop, as they could by opening its database; nobody else can.
 *
 * Written in plain, erasable TypeScript with Node built-ins only: scripts/serve.mjs loads it directly.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export type LocalControlCredential = { pid: number; url: string; token: string };

/** The one path the channel answers on (also refused on the site's public listener by scripts/serve.mjs). */
export const LOCAL_COMMAND_PATH = '/api/admin/local-command';

export const credentialFileOf = (dataDir: string) => path.join(path.resolve(dataDir), 'local-control.json');

// The token this process accepts. On globalThis: the site server and the Astro server bundle it serves
// each load their own copy of this module.
const SLOT = Symbol.for('meshfront.localControlToken');
const slot = globalThis as unknown as Record<typeof SLOT, string | null | undefined>;

export function acceptedToken(): string | null {
  return slot[SLOT] ?? null;
}

export function acceptToken(token: string | null): void {
  slot[SLOT] = token;
}

export const newToken = () => crypto.randomBytes(32).toString('base64url');

/** Constant-time: hashing first makes the lengths equal, so neither length nor content leaks by timing. */
export function sameToken(given: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

/** 127.0.0.0/8 and ::1, also in their IPv4-mapped IPv6 form. */
export function isLoopback(address: string | undefined | null): boolean {
  if (!address) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

export function writeCredential(dataDir: string, credential: LocalControlCredential): void {
  const file = credentialFileOf(dataDir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  // Created private and renamed into place: the token is never readable by others, not even briefly.
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(credential)}\n`, { mode: 0o600 });
  fs.chmodSync(tmp, 0o600);
  fs.renameSync(tmp, file);
}

/** The credential in the data directory, or null when there is none or it is not one. */
export function readCredential(dataDir: string): LocalControlCredential | null {
  let parsed: Partial<LocalControlCredential>;
  try {
    parsed = JSON.parse(fs.readFileSync(credentialFileOf(dataDir), 'utf8')) as Partial<LocalControlCredential>;
  } catch {
    return null;
  }
  if (!Number.isSafeInteger(parsed.pid) || typeof parsed.url !== 'string' || typeof parsed.token !== 'string')
    return null;
  let url: URL;
  try {
    url = new URL(parsed.url);
  } catch {
    return null;
  }
  // Only ever a loopback address: the file must not be able to send the token anywhere else.
  if (url.protocol !== 'http:' || !isLoopback(url.hostname.replace(/^\[|\]$/g, ''))) return null;
  return { pid: parsed.pid as number, url: url.href, token: parsed.token };
}

/** Removes the credential if it is still this token's (a newer shop process may have written its own). */
export function removeCredential(dataDir: string, token: string): void {
  const current = readCredential(dataDir);
  if (current && current.token === token) fs.rmSync(credentialFileOf(dataDir), { force: true });
}
