/**
 * First-visit language choice on the server, so a German visitor never sees a flash of English:
 * unprefixed (English) page requests are sent to the visitor's locale, taken from the `locale`
 * cookie when set, otherwise from Accept-Language (then remembered in the cookie).
 * A prefixed URL (/fr/…) is an explicit choice and is always served as is, so a cookie for
 * another locale cannot cause a loop.
 */
import { DEFAULT_LOCALE, localeByCode, localePrefix, type LocaleInfo } from '../i18n/locales.ts';
import { negotiateLocale, splitLocalePath } from '../i18n/negotiate.ts';

export const LOCALE_COOKIE = 'locale';
/** How long a language the visitor picked in the language switcher is remembered. */
export const LOCALE_COOKIE_MAX_AGE = 365 * 24 * 60 * 60;

/**
 * The cookie for a language negotiated from Accept-Language: a session cookie. It keeps the visit in one
 * language (strictly necessary for the redirect above); remembering it for a year is kept for a language
 * the visitor picked themselves (the switcher), so nothing long-lived is set without the visitor's action.
 */
export function localeCookie(locale: LocaleInfo): string {
  return `${LOCALE_COOKIE}=${locale.code}; Path=/; SameSite=Lax`;
}

export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

export interface LocaleRedirect {
  location: string;
  setCookie?: string;
}

export interface LocaleRequest {
  method: string;
  pathname: string;
  search: string;
  accept?: string;
  acceptLanguage?: string;
  cookie?: string;
}

// /admin is the operators' English-only tool (on demand, not localized).
const NOT_PAGES = /^\/(?:api|graphql|_ipx|media|pagefind|_astro|oauth|admin)(?:\/|$)/;

export function localeRedirect(req: LocaleRequest): LocaleRedirect | null {
  if (req.method !== 'GET' && req.method !== 'HEAD') return null;
  // Only page navigations: assets, JSON, the API and prefetches of assets keep their URL.
  if (!req.accept?.includes('text/html')) return null;
  // Endpoints are not pages in a language: a confirm/unsubscribe/download/OAuth link opened in the
  // browser must reach its route, not a locale-prefixed path that does not exist.
  if (NOT_PAGES.test(req.pathname)) return null;
  const { locale: pathLocale } = splitLocalePath(req.pathname);
  if (pathLocale !== DEFAULT_LOCALE) return null;
  const lastSegment = req.pathname.split('/').pop() ?? '';
  if (lastSegment.includes('.')) return null;

  const cookieCode = readCookie(req.cookie, LOCALE_COOKIE);
  const fromCookie = cookieCode ? localeByCode(cookieCode) : undefined;
  const target = fromCookie ?? negotiateLocale(req.acceptLanguage);
  if (!target || target === DEFAULT_LOCALE) return null;
  const rest = req.pathname === '/' ? '/' : req.pathname;
  return {
    location: `${localePrefix(target)}${rest === '/' ? '/' : rest}${req.search}`,
    setCookie: fromCookie ? undefined : localeCookie(target),
  };
}
