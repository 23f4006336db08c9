import { LOCALES } from '../../lib/i18n/locales';

/** The current page's path in another locale: '/de/products' → '/fr/products'. */
export function pathInLocale(pathname: string, targetPrefix: string): string {
  const prefixes = LOCALES.map((l) => l.path).slice(1);
  const first = pathname.split('/')[1]?.toLowerCase() ?? '';
  const rest = prefixes.includes(first) ? pathname.slice(first.length + 1) || '/' : pathname;
  return `${targetPrefix}${rest === '/' && targetPrefix ? '/' : rest}`;
}

export function switchLocale(code: string, targetPrefix: string, maxAge: number): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the cookie must be set before the navigation below, which the async Cookie Store API cannot promise
  document.cookie = `locale=${code}; Max-Age=${maxAge}; Path=/; SameSite=Lax`;
  window.location.assign(pathInLocale(location.pathname, targetPrefix) + location.search + location.hash);
}
