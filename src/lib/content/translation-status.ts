/**
 * Which translations of the editors' content are missing or stale. A translation is a sibling file with a
 * locale suffix (`rak.de_DE.mdx` beside `rak.mdx`); it is stale when its English source changed after the
 * translation last did (by commit time; files changed in the working copy count as changed now), so a fixed
 * step in the English guide shows up as five translations to update. The catalog keeps its languages inside
 * one JSON file per product, so there only missing texts can be told.
 */
import type { LocaleCode } from '../i18n/locales.ts';

export type ContentCollection = 'guides' | 'support' | 'policies' | 'pages';
export const CONTENT_COLLECTIONS: readonly ContentCollection[] = ['guides', 'support', 'policies', 'pages'];

/** A content file relative to content/, e.g. "guides/rak.de_DE.mdx". */
export type ContentFile = { path: string; changedAt: number };

export type TranslationEntry = {
  /** The English file, relative to content/. */
  source: string;
  /** The translation's file, relative to content/ (where it is or would be). */
  translation: string;
  state: 'missing' | 'stale';
};

export type CollectionStatus = {
  collection: ContentCollection | 'catalog';
  locale: LocaleCode;
  total: number;
  upToDate: number;
  missing: TranslationEntry[];
  stale: TranslationEntry[];
};

const SUFFIX = /\.([a-z]{2}_[A-Z]{2})(\.(?:mdx|md|yaml))$/;
const SOURCE = /\.(?:mdx|md|yaml)$/;

/** The translation's path of an English file in `locale`. */
export function translationPath(source: string, locale: LocaleCode): string {
  return source.replace(/(\.(?:mdx|md|yaml))$/, `.${locale}$1`);
}

/** "guides/rak.mdx" → "guides"; null for files outside the tracked collections. */
function collectionOf(path: string): ContentCollection | null {
  const first = path.split('/')[0] as ContentCollection;
  return CONTENT_COLLECTIONS.includes(first) ? first : null;
}

/** Status of every tracked collection in every locale, from the content files and when each last changed. */
export function translationStatus(files: readonly ContentFile[], locales: readonly LocaleCode[]): CollectionStatus[] {
  const byPath = new Map(files.map((f) => [f.path, f]));
  const sources = files.filter(
    (f) => collectionOf(f.path) && SOURCE.test(f.path) && !SUFFIX.test(f.path) && !/(^|\/)README\.md$/.test(f.path),
  );
  const out: CollectionStatus[] = [];
  for (const collection of CONTENT_COLLECTIONS) {
    const own = sources.filter((f) => collectionOf(f.path) === collection);
    for (const locale of locales) {
      const status: CollectionStatus = { collection, locale, total: own.length, upToDate: 0, missing: [], stale: [] };
      for (const source of own) {
        const translation = translationPath(source.path, locale);
        const found = byPath.get(translation);
        if (!found) status.missing.push({ source: source.path, translation, state: 'missing' });
        else if (found.changedAt < source.changedAt)
          status.stale.push({ source: source.path, translation, state: 'stale' });
        else status.upToDate++;
      }
      out.push(status);
    }
  }
  return out;
}

/** A catalog entry's English texts and its translations, as content/catalog keeps them. */
export type CatalogTexts = {
  file: string;
  english: Record<string, string | undefined>;
  translations: Partial<Record<string, Record<string, string | undefined>>> | undefined;
};

/** Per locale, the catalog entries with an English text that has no translation. */
export function catalogStatus(entries: readonly CatalogTexts[], locales: readonly LocaleCode[]): CollectionStatus[] {
  return locales.map((locale) => {
    const status: CollectionStatus = {
      collection: 'catalog',
      locale,
      total: entries.length,
      upToDate: 0,
      missing: [],
      stale: [],
    };
    for (const entry of entries) {
      const own = entry.translations?.[locale] ?? {};
      const untranslated = Object.entries(entry.english).filter(([key, text]) => text?.trim() && !own[key]?.trim());
      if (untranslated.length === 0) status.upToDate++;
      else
        status.missing.push({
          source: entry.file,
          translation: `${entry.file} → translations.${locale}.${untranslated.map(([k]) => k).join('/')}`,
          state: 'missing',
        });
    }
    return status;
  });
}
