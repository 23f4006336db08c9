/**
 * What every support/guide/policy/company page needs from its `[...locale]` param: the locale,
 * its translator, localized hrefs and dates. Computed once in the page and passed down.
 */
import { formatDate, useTranslations } from '../../lib/i18n';
import { localeByPath, LOCALES, DEFAULT_LOCALE, type LocaleInfo } from '../../lib/i18n/locales';
import { localizeHref } from './links';

export interface PageContext {
  locale: LocaleInfo;
  t: ReturnType<typeof useTranslations>;
  /** '/support' → '/de/support' on German pages. */
  href: (path: string) => string;
  date: (value: Date | string) => string;
  /** Plural-aware translation: tn('support.articleCount', 3) looks up 'support.articleCount.other'. */
  tn: (key: string, count: number) => string;
}

export function pageContext(localeParam: string | undefined): PageContext {
  const locale = localeByPath(localeParam);
  const t = useTranslations(locale.code);
  const plural = new Intl.PluralRules(locale.bcp47);
  return {
    locale,
    t,
    tn: (key, count) => t(`${key}.${plural.select(count) === 'one' ? 'one' : 'other'}`, { count }),
    href: (path) => localizeHref(path, locale),
    date: (value) => formatDate(value, locale.code),
  };
}

/** The `[...locale]` param of a locale: undefined for English (no prefix). */
export function localeParam(locale: LocaleInfo): string | undefined {
  return locale === DEFAULT_LOCALE ? undefined : locale.path;
}

/** getStaticPaths over locales × items: one path per locale and item, with props. */
export function pathsPerLocale<P extends Record<string, string | undefined>, T>(
  items: readonly T[],
  params: (item: T) => P,
  props?: (item: T, locale: LocaleInfo) => Record<string, unknown>,
) {
  return LOCALES.flatMap((locale) =>
    items.map((item) => ({
      params: { locale: localeParam(locale), ...params(item) },
      props: props ? props(item, locale) : {},
    })),
  );
}
