/**
 * Collection access for the support area, guides, policies and company pages, resolved for one
 * locale. Thin wrappers around astro:content and the pure helpers in src/lib/content/.
 */
import { getCollection } from 'astro:content';
import { pickTranslation, sourceEntries } from '../../lib/content/translations';
import { articlesInCategory, resolveCategories, supportHref } from '../../lib/content/support';
import type { LocaleInfo } from '../../lib/i18n/locales';

/** A link to a content page with its translated title, for lists, sidebars and related links. */
export interface ContentLink {
  id: string;
  title: string;
  description?: string;
  /** Locale-free href; localize with PageContext.href. */
  path: string;
}

export const supportArticles = () => getCollection('support');
export const supportCategories = () => getCollection('supportCategories');
export const allGuides = () => getCollection('guides');
export const allPolicies = () => getCollection('policies');

export function guidePath(slug: string): string {
  return `/guides/${slug}`;
}

export function policyPath(slug: string): string {
  return `/policies/${slug}`;
}

/** Every guide in locale (translation or English), the company's own gateways first, then by order. */
export async function localizedGuides(locale: LocaleInfo, ownVendor: string) {
  const entries = await allGuides();
  return sourceEntries(entries)
    .map((source) => {
      const { entry, isFallback } = pickTranslation(entries, source.id, locale.code);
      return { slug: source.id, entry: entry ?? source, isFallback };
    })
    .sort((a, b) => {
      const own = Number(b.entry.data.vendor === ownVendor) - Number(a.entry.data.vendor === ownVendor);
      return own || a.entry.data.order - b.entry.data.order || a.entry.data.model.localeCompare(b.entry.data.model);
    });
}

/** Guides referenced by slug, as links in locale; unknown slugs are skipped (the content test reports them). */
export async function guideLinks(slugs: readonly string[], locale: LocaleInfo): Promise<ContentLink[]> {
  const entries = await allGuides();
  return slugs.flatMap((slug) => {
    const { entry } = pickTranslation(entries, slug, locale.code);
    return entry
      ? [{ id: slug, title: entry.data.model, description: entry.data.description, path: guidePath(slug) }]
      : [];
  });
}

/** Support articles referenced by id ('gateways/ethernet-vs-wifi'), as links in locale. */
export async function articleLinks(ids: readonly string[], locale: LocaleInfo): Promise<ContentLink[]> {
  const entries = await supportArticles();
  return ids.flatMap((id) => {
    const { entry } = pickTranslation(entries, id, locale.code);
    return entry ? [{ id, title: entry.data.title, description: entry.data.description, path: supportHref(id) }] : [];
  });
}

/** Categories in locale with their ordered articles (for the index, category pages and sidebars). */
export async function categoriesWithArticles(locale: LocaleInfo) {
  const [categories, articles] = await Promise.all([supportCategories(), supportArticles()]);
  return resolveCategories(categories, locale.code).map((category) => ({
    category,
    articles: articlesInCategory(articles, category.slug, locale.code),
  }));
}

/** Policies in locale, ordered. */
export async function localizedPolicies(locale: LocaleInfo) {
  const entries = await allPolicies();
  return sourceEntries(entries)
    .map((source) => {
      const { entry, isFallback } = pickTranslation(entries, source.id, locale.code);
      return { slug: source.id, entry: entry ?? source, isFallback };
    })
    .sort((a, b) => a.entry.data.order - b.entry.data.order);
}
