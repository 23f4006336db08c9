/**
 * Where the account pages send the shopper, read from URLs. Pure; tests/unit/account-tabs.test.ts.
 */

/**
 * Where the shopper goes after logging out: home, except on /my-account (in any locale), where the
 * login form takes the account's place.
 */
export function afterLogoutPath(pathname: string, localePrefix: string): string | null {
  const rest = pathname.startsWith(localePrefix) ? pathname.slice(localePrefix.length) : pathname;
  if (/^\/my-account(\/|$)/.test(rest)) return null;
  return `${localePrefix}/`;
}

/** The key and login of a reset link, or null when the URL has none or they cannot be right. */
export function resetLinkParams(search: string): { key: string; login: string } | 'invalid' | null {
  const params = new URLSearchParams(search);
  const key = params.get('key');
  const login = params.get('login');
  if (key === null && login === null) return null;
  if (!key || !login || key.length > 200 || login.length > 254 || !/^[\w-]+$/.test(key)) return 'invalid';
  return { key, login };
}

/**
 * The token of a "this wasn't me" link (the notice of an e-mail change), 'invalid' when it cannot be
 * one of ours, or null when the URL has none.
 */
export function emailReportToken(search: string): string | 'invalid' | null {
  const token = new URLSearchParams(search).get('token');
  if (token === null) return null;
  if (!token || token.length > 1024 || !/^[\w-]+$/.test(token)) return 'invalid';
  return token;
}

/**
 * The key of an e-mailed account link (?key=… on /my-account/verify-email and /my-account/link-account),
 * 'invalid' when it cannot be one of ours (mangled by a mail client), or null when the URL has none.
 */
export function emailLinkKey(search: string): string | 'invalid' | null {
  const key = new URLSearchParams(search).get('key');
  if (key === null) return null;
  if (!key || key.length > 2100 || !/^[\w-]+(\.[\w-]+)?$/.test(key)) return 'invalid';
  return key;
}
