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
