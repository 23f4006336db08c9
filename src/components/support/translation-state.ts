/**
 * Whether a translated page is older than its English original, from the translation status the build
 * made (src/integrations/translation-status.ts). Without git history at build time nothing is reported
 * stale, so the page shows no notice rather than a wrong one.
 */
import report from 'virtual:meshfront/translation-status';
import { staleEntry, type TranslationEntry } from '../../lib/content/translation-status';
import { DEFAULT_LOCALE, localePrefix, type LocaleInfo } from '../../lib/i18n/locales';

/** The stale status of a content entry's file (Astro's entry.filePath), if the build found it stale. */
export function staleTranslation(filePath: string | undefined): TranslationEntry | undefined {
  return filePath ? staleEntry(report, filePath) : undefined;
}

/** The English address of the page at `pathname` in `locale` ('/de/guides/rak' → '/guides/rak'). */
export function englishPath(pathname: string, locale: LocaleInfo): string {
  const prefix = localePrefix(locale);
  if (locale === DEFAULT_LOCALE || !pathname.startsWith(prefix)) return pathname;
  return pathname.slice(prefix.length) || '/';
}
