/**
 * Which translations of the editors' content are missing or stale. A translation is a sibling file with a
 * locale suffix (`rak.de_DE.mdx` beside `rak.mdx`); it is stale when its English source changed after the
 * translation last did (by commit time; files changed in the working copy count as changed now), so a fixed
 * step in the English guide shows up as five translations to update. The catalog keeps its languages inside
 * one JSON file per product, so there only missing texts can be told.
 *
 * When a file last changed is read from git by src/integrations/translation-status.ts; without the history
 * (a tarball, a shallow clone) change times are unknown and only missing translations can be told.
 */
import { z } from 'zod';
import type { LocaleCode } from '../i18n/locales.ts';

export type ContentCollection = 'guides' | 'support' | 'policies' | 'pages';
export const CONTENT_COLLECTIONS: readonly ContentCollection[] = ['guides', 'support', 'policies', 'pages'];

/** A content file relative to content/, e.g. "guides/rak.de_DE.mdx"; changedAt null when it is not known. */
export type ContentFile = { path: string; changedAt: number | null };

export type TranslationEntry = {
  /** The English file, relative to content/. */
  source: string;
  /** The translation's file, relative to content/ (where it is or would be). */
  translation: string;
  state: 'missing' | 'stale';
  /** When the English file last changed (ms), where that is known (not for catalog texts). */
  sourceChangedAt: number | null;
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
        const sourceChangedAt = source.changedAt;
        if (!found) status.missing.push({ source: source.path, translation, state: 'missing', sourceChangedAt });
        else if (found.changedAt !== null && sourceChangedAt !== null && found.changedAt < sourceChangedAt)
          status.stale.push({ source: source.path, translation, state: 'stale', sourceChangedAt });
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
          sourceChangedAt: null,
        });
    }
    return status;
  });
}

/**
 * The whole status as the build keeps it for the site (virtual:meshfront/translation-status) and as
 * `npm run content:status -- --json` prints it.
 */
export type TranslationReport = {
  /** When the report was made (ms). */
  generatedAt: number;
  /**
   * 'git': change times come from the complete git history, so stale translations are listed. 'unknown':
   * there is no history (no git checkout, a shallow clone, a tarball): missing translations are listed,
   * stale ones cannot be told and none are reported.
   */
  history: 'git' | 'unknown';
  /** Why the history is unknown, or what was odd about it (a listed commit that is not in it). */
  notes: string[];
  collections: CollectionStatus[];
};

const entrySchema = z.object({
  source: z.string().min(1),
  translation: z.string().min(1),
  state: z.enum(['missing', 'stale']),
  sourceChangedAt: z.number().nullable(),
});

/** A report read from a file (TRANSLATION_STATUS_FILE): checked, since the build trusts it for every page. */
export const translationReportSchema = z.object({
  generatedAt: z.number(),
  history: z.enum(['git', 'unknown']),
  notes: z.array(z.string()),
  collections: z.array(
    z.object({
      collection: z.enum(['guides', 'support', 'policies', 'pages', 'catalog']),
      locale: z.enum(['en_US', 'de_DE', 'es_ES', 'fr_FR', 'it_IT', 'pt_BR']),
      total: z.number().int().nonnegative(),
      upToDate: z.number().int().nonnegative(),
      missing: z.array(entrySchema),
      stale: z.array(entrySchema),
    }),
  ),
}) satisfies z.ZodType<TranslationReport>;

/**
 * The stale entry of a translation file, if the report lists it as stale. `file` is the file as Astro names
 * an entry's filePath (relative to the project root, "content/guides/rak.de_DE.mdx") or relative to content/.
 */
export function staleEntry(report: TranslationReport, file: string): TranslationEntry | undefined {
  const relative = file.replace(/\\/g, '/').replace(/^(?:\.\/)?content\//, '');
  for (const c of report.collections) {
    const found = c.stale.find((e) => e.translation === relative);
    if (found) return found;
  }
  return undefined;
}

/**
 * The English page of a content file, as the site serves it: "guides/rak.mdx" → "/guides/rak",
 * "support/gateways/_category.yaml" → "/support/gateways", "pages/about.mdx" → "/about". The OS page's
 * address follows the site name, so it is passed in (`/meshfront-os`). Null for files without a page.
 */
export function sourceRoute(source: string, osPagePath: string): string | null {
  const plain = source.replace(/\.(?:mdx|md|ya?ml)$/, '');
  const [collection, ...rest] = plain.split('/');
  const name = rest.join('/');
  if (!name) return null;
  if (collection === 'guides') return `/guides/${name}`;
  if (collection === 'policies') return `/policies/${name}`;
  if (collection === 'pages') return name === 'meshfront-os' ? osPagePath : `/${name}`;
  if (collection === 'support') {
    if (name === '_index') return '/support';
    if (rest.at(-1) === '_category') return `/support/${rest.slice(0, -1).join('/')}`;
    return `/support/${name}`;
  }
  return null;
}
