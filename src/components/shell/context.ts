/**
 * What every shell component needs to know about the page being rendered: its locale, the
 * translator and how to build localized links. Computed once per page from the URL.
 */
import { localeByCode, localePrefix, type LocaleCode, type LocaleInfo } from '../../lib/i18n/locales';
import { splitLocalePath } from '../../lib/i18n/negotiate';
import { useTranslations } from '../../lib/i18n';

export interface ShellContext {
  locale: LocaleInfo;
  /** The path without the locale prefix: '/products' for '/de/products'. */
  rest: string;
  t: ReturnType<typeof useTranslations>;
  /** Localized link: href('/products') is '/de/products' on German pages. */
  href: (path: string) => string;
}

export function shellContext(pathname: string, code?: LocaleCode): ShellContext {
  const split = splitLocalePath(pathname);
  const locale = (code && localeByCode(code)) || split.locale;
  const prefix = localePrefix(locale);
  return {
    locale,
    rest: split.rest,
    t: useTranslations(locale.code),
    href: (path) => (path === '/' ? `${prefix}/` : `${prefix}${path}`),
  };
}

export { localePrefix };

/** The main menu, the same in the header (large screens) and the mobile menu. */
export function mainNav(t: ShellContext['t']) {
  return [
    { path: '/', label: t('header.home') },
    { path: '/products', label: t('header.products') },
    { path: '/categories', label: t('header.categories') },
    { path: '/contact', label: t('header.contact') },
  ];
}
