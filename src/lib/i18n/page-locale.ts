/**
 * The page's locale, for code that runs in islands and formats on its own (amounts computed in the
 * browser, such as a cart line with its tax): the layout writes the locale's BCP 47 tag into
 * `<html lang>`. Outside a browser (build, server) there is no page: English.
 */
import { DEFAULT_LOCALE, type LocaleCode } from './locales.ts';
import { bestLocale } from './negotiate.ts';

export function pageLocale(): LocaleCode {
  if (typeof document === 'undefined') return DEFAULT_LOCALE.code;
  const lang = document.documentElement?.lang;
  return (lang ? bestLocale([lang]) : undefined)?.code ?? DEFAULT_LOCALE.code;
}
