/**
 * Password rules and hashing. Hashes are scrypt (node:crypto, salted, parameters stored with the hash:
 * `scrypt$<log2N>$<r>$<p>$<salt b64url>$<hash b64url>`), compared in constant time. Unknown accounts are
 * answered after a comparison against a dummy hash of the same cost, so response time does not tell
 * whether an account exists.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
const KEY_LENGTH = 32;
const R = 8;
const P = 1;

function scrypt(password: string, salt: Buffer, log2N: number, r: number, p: number): Promise<Buffer> {
  const N = 2 ** log2N;
  return new Promise((resolve, reject) =>
    crypto.scrypt(
      password.normalize('NFC'),
      salt,
      KEY_LENGTH,
      { N, r, p, maxmem: 256 * N * r + 1024 * 1024 },
      (err, key) => (err ? reject(err) : resolve(key)),
    ),
  );
}

export async function hashPassword(password: string, log2N: number): Promise<string> {
  const salt = crypto.randomBytes(16);
  const key = await scrypt(password, salt, log2N, R, P);
  return `scrypt$${log2N}$${R}$${P}$${salt.toString('base64url')}$${key.toString('base64url')}`;
}

/** True when `password` matches `stored`; false for a malformed or missing hash (after the same work). */
export async function verifyPassword(password: string, stored: string | null, log2N: number): Promise<boolean> {
  const m = stored ? /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$([\w-]+)\$([\w-]+)$/.exec(stored) : null;
  if (!m) {
    await dummyVerify(password, log2N);
    return false;
  }
  const [, n, r, p, salt, hash] = m;
  const expected = Buffer.from(hash!, 'base64url');
  const actual = await scrypt(password, Buffer.from(salt!, 'base64url'), Number(n), Number(r), Number(p));
  return expected.length === actual.length && crypto.timingSafeEqual(expected, actual);
}

const dummySalt = crypto.randomBytes(16);
/** The same work as a real comparison, for accounts that do not exist (or have no password). */
export async function dummyVerify(password: string, log2N: number): Promise<void> {
  const key = await scrypt(password, dummySalt, log2N, R, P);
  crypto.timingSafeEqual(key, key);
}

/** Does the hash use weaker parameters than the current setting (re-hash after a successful login)? */
export function needsRehash(stored: string, log2N: number): boolean {
  const m = /^scrypt\$(\d{1,2})\$(\d{1,2})\$(\d{1,2})\$/.exec(stored);
  return !m || Number(m[1]) < log2N || Number(m[2]) !== R || Number(m[3]) !== P;
}

let common: Set<string> | null = null;

/** src/server/auth/common-passwords.txt next to this module, or under the working directory (bundled server). */
function commonPasswordsFile(): string {
  const candidates = [
    path.join(path.dirname(fileURLToPath(import.meta.url)), 'common-passwords.txt'),
    path.resolve('src/server/auth/common-passwords.txt'),
  ];
  const found = candidates.find((f) => fs.existsSync(f));
  if (!found) throw new Error(`The common-password list is missing (looked in ${candidates.join(', ')}).`);
  return found;
}

export function isCommonPassword(password: string): boolean {
  common ??= new Set(
    fs
      .readFileSync(commonPasswordsFile(), 'utf8')
      .split('\n')
      .map((l) => l.trim().toLowerCase())
      .filter((l) => l && !l.startsWith('#')),
  );
  return common.has(password.trim().toLowerCase());
}

/** The first problem with a new password, in words for the customer; null when it is acceptable. */
export function passwordProblem(password: string, context: { username?: string; email?: string } = {}): string | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN_LENGTH) return `Password must be at least ${PASSWORD_MIN_LENGTH} characters long.`;
  if (length > PASSWORD_MAX_LENGTH) return `Password must be at most ${PASSWORD_MAX_LENGTH} characters long.`;
  if (isCommonPassword(password)) return 'This password is too common. Please choose a less common password.';
  const personal = [context.username, context.email, context.email?.split('@')[0]];
  if (personal.some((word) => word && isMadeOf(password, word)))
    return 'Password must not be your username or e-mail address.';
  return null;
}

/** Fewer other characters than this beside a personal word leave a password that is mostly that word. */
const PERSONAL_REMAINDER_MIN = 4;

/**
 * True when `password` is `word` (the username, the e-mail address or its local part) repeated any
 * number of times (the last time perhaps cut short), or mostly made of it: the word's occurrences cover two thirds of it or leave fewer
 * than four other characters (`carol1carol1`, `Carol!!` for carol). Case does not matter. Words shorter
 * than three characters only count when repeated, since they occur by chance in any long password.
 */
export function isMadeOf(password: string, word: string): boolean {
  const p = password.normalize('NFC').toLowerCase();
  const w = word.normalize('NFC').trim().toLowerCase();
  if (!w) return false;
  // The word repeated, perhaps cut short at the end (`carol1carol`).
  if (p.length >= w.length && w.repeat(Math.ceil(p.length / w.length)).startsWith(p)) return true;
  if ([...w].length < 3) return false;
  const rest = [...p.split(w).join('')].length;
  return rest < PERSONAL_REMAINDER_MIN || rest * 3 <= [...p].length;
}
