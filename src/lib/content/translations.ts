/**
 * Locale handling for content entries. Translations live beside the source file:
 *   content/support/gateways/ethernet-vs-wifi.mdx        → id 'gateways/ethernet-vs-wifi'
 *   content/support/gateways/ethernet-vs-wifi.de_DE.mdx  → id 'gateways/ethernet-vs-wifi.de_DE'
 * English (en_US) is the source and the fallback; it never carries a suffix.
 * Pure functions: used by content.config.ts (ids), pages (lookups) and tests.
 */
export const CONTENT_LOCALES = ['en_US', 'de_DE', 'es_ES', 'fr_FR', 'it_IT', 'pt_BR'] as const;
export type ContentLocale = (typeof CONTENT_LOCALES)[number];
export const SOURCE_LOCALE: ContentLocale = 'en_US';

const LOCALE_SUFFIX = /\.([a-z]{2}_[A-Z]{2})$/;
const CONTENT_EXTENSION = /\.(mdx|md|ya?ml|json)$/i;
const CATEGORY_FILE = /(?:^|\/)_category$/;

export function isContentLocale(value: string): value is ContentLocale {
  return (CONTENT_LOCALES as readonly string[]).includes(value);
}

/**
 * Accepts a locale code ('de_DE'), a URL path ('de', 'pt-br') or a BCP 47 tag ('pt-BR');
 * anything unknown is the source locale.
 */
export function normalizeLocale(value: string | undefined): ContentLocale {
  if (!value) return SOURCE_LOCALE;
  if (isContentLocale(value)) return value;
  const lower = value.toLowerCase().replace('-', '_');
  const exact = CONTENT_LOCALES.find((l) => l.toLowerCase() === lower);
  if (exact) return exact;
  const language = lower.split('_')[0];
  return CONTENT_LOCALES.find((l) => l.startsWith(`${language}_`)) ?? SOURCE_LOCALE;
}

/** 'a/b.de_DE' → { baseId: 'a/b', locale: 'de_DE' }; 'a/b' → { baseId: 'a/b', locale: 'en_US' }. */
export function splitLocale(id: string): { baseId: string; locale: ContentLocale } {
  const match = LOCALE_SUFFIX.exec(id);
  if (match && isContentLocale(match[1]) && match[1] !== SOURCE_LOCALE) {
    return { baseId: id.slice(0, match.index), locale: match[1] };
  }
  return { baseId: id, locale: SOURCE_LOCALE };
}

/** The id of baseId's translation into locale ('a/b' + 'de_DE' → 'a/b.de_DE'; English has no suffix). */
export function localizedId(baseId: string, locale: ContentLocale): string {
  return locale === SOURCE_LOCALE ? baseId : `${baseId}.${locale}`;
}

/**
 * Entry id from a glob-loader path relative to the collection base:
 *   'gateways/antennas/cable-loss.mdx'  → 'gateways/antennas/cable-loss'
 *   'privacy-policy.fr_FR.mdx'          → 'privacy-policy.fr_FR'
 *   'gateways/_category.de_DE.yaml'     → 'gateways.de_DE'      (category data files)
 *   '_index.it_IT.mdx'                  → '_index.it_IT'
 * Unlike Astro's default it keeps case and dots, so the locale suffix survives.
 */
export function entryIdFromPath(entry: string): string {
  const withoutExt = entry.replace(/\\/g, '/').replace(CONTENT_EXTENSION, '');
  const { baseId, locale } = splitLocale(withoutExt);
  const base = baseId.replace(CATEGORY_FILE, '');
  return localizedId(base, locale);
}

/**
 * The entry to show for baseId in localeCode: the translation if there is one, else the English
 * source with isFallback = true (the page then shows a 'not yet translated' notice). entry is
 * undefined when not even the English source exists (a 404).
 */
export function pickTranslation<T extends { id: string }>(
  entries: readonly T[],
  baseId: string,
  localeCode: string,
): { entry: T | undefined; isFallback: boolean } {
  const locale = normalizeLocale(localeCode);
  if (locale !== SOURCE_LOCALE) {
    const translated = entries.find((e) => e.id === localizedId(baseId, locale));
    if (translated) return { entry: translated, isFallback: false };
  }
  const source = entries.find((e) => e.id === baseId);
  return { entry: source, isFallback: source !== undefined && locale !== SOURCE_LOCALE };
}

/** Only the English source entries (one per page), e.g. for getStaticPaths. */
export function sourceEntries<T extends { id: string }>(entries: readonly T[]): T[] {
  return entries.filter((e) => splitLocale(e.id).locale === SOURCE_LOCALE);
}

/**
 * For support ids: 'gateways/antennas/cable-loss' → { category: 'gateways', slug: 'antennas/cable-loss' }.
 * The category is always the first path segment.
 */
export function splitSupportId(baseId: string): { category: string; slug: string } {
  const slash = baseId.indexOf('/');
  return slash < 0
    ? { category: baseId, slug: '' }
    : { category: baseId.slice(0, slash), slug: baseId.slice(slash + 1) };
}
