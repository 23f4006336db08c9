/**
 * Content links are written without a locale prefix ('/support/…', '/guides/…', '/contact').
 * Rendering a German page turns them into '/de/support/…' so the reader stays in their language.
 * Pure: used by LocalizedLink (MDX `a`) and by the pages for their own hrefs.
 */
import { LOCALES, localePrefix, type LocaleInfo } from '../../lib/i18n/locales';

/** Paths that are files or services, not localized pages. */
const UNLOCALIZED = /^\/(?:_astro|pagefind|media|_ipx|api|graphql)(?:\/|$)|\.[a-z0-9]{2,5}(?:[?#]|$)/i;

export function localizeHref(href: string, locale: LocaleInfo): string {
  if (!href.startsWith('/') || href.startsWith('//')) return href;
  if (UNLOCALIZED.test(href)) return href;
  const first = href.split(/[/?#]/)[1]?.toLowerCase() ?? '';
  if (LOCALES.some((l, i) => i > 0 && l.path === first)) return href;
  const prefix = localePrefix(locale);
  if (!prefix) return href;
  return href === '/' ? `${prefix}/` : `${prefix}${href}`;
}
