/**
 * Pure helpers for the support area: categories with translations merged over English, the
 * ordered article list of a category (sidebar), previous/next, popular articles, and hrefs.
 * They take plain entry arrays ({ id, data }) so pages pass getCollection() results and tests
 * pass fixtures.
 */
import type { SupportArticle, SupportCategoryEntry } from './schemas';
import { pickTranslation, sourceEntries, splitLocale, splitSupportId } from './translations';

export interface Entry<T> {
  id: string;
  data: T;
}

export interface ResolvedCategory {
  slug: string;
  title: string;
  description: string;
  icon: string;
  order: number;
  /** true when the title/description are the English fallback. */
  isFallback: boolean;
}

export interface ResolvedArticle<E extends Entry<SupportArticle>> {
  /** 'gateways/antennas/cable-loss' – also the path after /support/. */
  baseId: string;
  category: string;
  /** 'antennas/cable-loss' – the [...slug] route param. */
  slug: string;
  entry: E;
  isFallback: boolean;
}

/** Locale-free href (prefix it with the locale path in the page): '/support/gateways/ethernet-vs-wifi'. */
export function supportHref(baseIdOrCategory?: string): string {
  return baseIdOrCategory ? `/support/${baseIdOrCategory}` : '/support';
}

/** All categories in locale, ordered; translation files supply title/description, English supplies icon/order. */
export function resolveCategories(entries: readonly Entry<SupportCategoryEntry>[], locale: string): ResolvedCategory[] {
  return sourceEntries(entries)
    .map((source) => {
      const { entry, isFallback } = pickTranslation(entries, source.id, locale);
      const data = entry?.data ?? source.data;
      return {
        slug: source.id,
        title: data.title,
        description: data.description,
        icon: source.data.icon ?? 'circle-help',
        order: source.data.order ?? Number.MAX_SAFE_INTEGER,
        isFallback,
      };
    })
    .sort((a, b) => a.order - b.order || a.title.localeCompare(b.title));
}

/** Every article (one per base id) in locale, translation or English fallback. */
export function resolveArticles<E extends Entry<SupportArticle>>(
  entries: readonly E[],
  locale: string,
): ResolvedArticle<E>[] {
  return sourceEntries(entries).map((source) => {
    const { entry, isFallback } = pickTranslation(entries, source.id, locale);
    const { category, slug } = splitSupportId(source.id);
    return { baseId: source.id, category, slug, entry: entry ?? source, isFallback };
  });
}

/** The sidebar list: one category's articles ordered by `order`, then title. */
export function articlesInCategory<E extends Entry<SupportArticle>>(
  entries: readonly E[],
  category: string,
  locale: string,
): ResolvedArticle<E>[] {
  return resolveArticles(entries, locale)
    .filter((a) => a.category === category)
    .sort((a, b) => a.entry.data.order - b.entry.data.order || a.entry.data.title.localeCompare(b.entry.data.title));
}

/** Previous and next article within the same ordered list. */
export function prevNext<T extends { baseId: string }>(list: readonly T[], baseId: string): { prev?: T; next?: T } {
  const i = list.findIndex((a) => a.baseId === baseId);
  if (i < 0) return {};
  return { prev: list[i - 1], next: list[i + 1] };
}

/** Articles flagged popular, ordered by category order then article order. */
export function popularArticles<E extends Entry<SupportArticle>>(
  entries: readonly E[],
  categories: readonly ResolvedCategory[],
  locale: string,
  limit = 8,
): ResolvedArticle<E>[] {
  const rank = new Map(categories.map((c, i) => [c.slug, i]));
  return resolveArticles(entries, locale)
    .filter((a) => entries.some((e) => e.id === a.baseId && e.data.popular))
    .sort(
      (a, b) => (rank.get(a.category) ?? 99) - (rank.get(b.category) ?? 99) || a.entry.data.order - b.entry.data.order,
    )
    .slice(0, limit);
}

/** getStaticPaths params for /support/[category]/[...slug]: one per English article. */
export function supportArticleParams(entries: readonly Entry<unknown>[]): { category: string; slug: string }[] {
  return entries.filter((e) => splitLocale(e.id).locale === 'en_US').map((e) => splitSupportId(e.id));
}
