/**
 * Small cookie and localStorage helpers for the session store. Everything takes the document/storage
 * to work on, so tests can hand in fakes.
 */

export interface CookieJar {
  cookie: string;
}

export function readCookie(name: string, jar: CookieJar | undefined = globalThis.document): string | null {
  if (!jar) return null;
  for (const part of jar.cookie.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() === name) {
      try {
        return decodeURIComponent(part.slice(index + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

export function writeCookie(
  name: string,
  value: string,
  maxAgeSeconds: number,
  jar: CookieJar | undefined = globalThis.document,
): void {
  if (!jar) return;
  const secure = globalThis.location?.protocol === 'https:' ? '; Secure' : '';
  jar.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}; SameSite=Lax${secure}`;
}

export function deleteCookie(name: string, jar: CookieJar | undefined = globalThis.document): void {
  if (!jar) return;
  jar.cookie = `${name}=; Path=/; Max-Age=0; SameSite=Lax`;
}

/** Names of the cookies this page can see. */
export function cookieNames(jar: CookieJar | undefined = globalThis.document): string[] {
  if (!jar?.cookie) return [];
  return jar.cookie
    .split(';')
    .map((part) => part.split('=')[0]?.trim() ?? '')
    .filter(Boolean);
}

/** Deletes every cookie the page can see except those named in `keep`. */
export function clearCookies(keep: readonly string[] = [], jar: CookieJar | undefined = globalThis.document): void {
  for (const name of cookieNames(jar)) if (!keep.includes(name)) deleteCookie(name, jar);
}

function storage(): Storage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // Storage can throw when disabled (privacy settings, sandboxed frames).
    return null;
  }
}

export function readLocal(key: string): string | null {
  try {
    return storage()?.getItem(key) ?? null;
  } catch {
    return null;
  }
}

export function writeLocal(key: string, value: string | null): void {
  try {
    const s = storage();
    if (!s) return;
    if (value === null) s.removeItem(key);
    else s.setItem(key, value);
  } catch {
    // Full or disabled storage: the session falls back to living in memory for this page.
  }
}

/** Removes every localStorage key except those in `keep`. */
export function clearLocal(keep: readonly string[] = [], target: Storage | null = storage()): void {
  if (!target) return;
  try {
    const keys: string[] = [];
    for (let i = 0; i < target.length; i++) {
      const key = target.key(i);
      if (key !== null && !keep.includes(key)) keys.push(key);
    }
    for (const key of keys) target.removeItem(key);
  } catch {
    // Nothing to clear when storage is unavailable.
  }
}
