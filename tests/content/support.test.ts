/**
 * Content checks for support, policies and company pages: frontmatter matches its schema, the
 * promised articles/categories/translations exist, every internal link goes to a route that the
 * site builds, and referenced images exist under public/. Runs without Astro (plain fs + js-yaml),
 * so it is fast and points at the exact file that is wrong.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { createRequire } from 'node:module';
import type { z } from 'astro/zod';
import {
  companyPage,
  policy,
  supportArticle,
  supportCategory,
  supportCategoryTranslation,
  supportIndex,
} from '../../src/lib/content/schemas';
import {
  CONTENT_LOCALES,
  type ContentLocale,
  entryIdFromPath,
  localizedId,
  pickTranslation,
  splitLocale,
  splitSupportId,
} from '../../src/lib/content/translations';
import {
  articlesInCategory,
  popularArticles,
  prevNext,
  resolveCategories,
  supportArticleParams,
} from '../../src/lib/content/support';
import { FIXED_SUPPORT_IDS } from './linked-support-articles.ts';

// js-yaml is Astro's own frontmatter parser (a transitive dependency without bundled types), so
// the test reads YAML exactly as the build does; required untyped and narrowed to what we use.
const yaml = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

const ROOT = resolve(__dirname, '../..');
const CONTENT = join(ROOT, 'content');
const SUPPORT = join(CONTENT, 'support');
const POLICIES = join(CONTENT, 'policies');
const PAGES = join(CONTENT, 'pages');
const GUIDES = join(CONTENT, 'guides');
const PUBLIC = join(ROOT, 'public');

/** Guides the guides writer is committing; accepted as link targets even before they land here. */
const PLANNED_GUIDES = [
  'meshfront-gateway-indoor',
  'meshfront-gateway-outdoor',
  'nebra-indoor',
  'nebra-outdoor',
  'bobcat-miner-300',
  'rak',
  'sensecap',
  'linxdot',
];

const REQUIRED_CATEGORIES = [
  'getting-started',
  'gateways',
  'wallet-and-rewards',
  'orders-and-shipping',
  'account',
  'troubleshooting',
];
const REQUIRED_POLICIES = ['privacy-policy', 'terms-of-sale', 'shipping', 'returns-and-refunds', 'warranty', 'cookies'];
const REQUIRED_PAGES = [
  'about',
  'careers',
  'gateway',
  'roadmap',
  'business',
  'partners',
  'media-kit',
  'downloads',
  'meshfront-os',
  'swag-store',
];

interface ContentFile {
  path: string; // relative to the collection base, posix
  id: string;
  data: Record<string, unknown>;
  body: string;
}

function walk(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    return statSync(full).isDirectory() ? walk(full) : [full];
  });
}

function readFrontmatter(file: string): { data: Record<string, unknown>; body: string } {
  const text = readFileSync(file, 'utf8');
  const match = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?([\s\S]*)$/.exec(text);
  if (!match) throw new Error(`${file}: no frontmatter block`);
  try {
    return { data: (yaml.load(match[1]) ?? {}) as Record<string, unknown>, body: match[2] };
  } catch (error) {
    throw new Error(`${file}: frontmatter is not valid YAML (quote values that contain ': ')\n${String(error)}`);
  }
}

function loadMdx(base: string, filter: (rel: string) => boolean = () => true): ContentFile[] {
  return walk(base)
    .map((full) => relative(base, full).split('\\').join('/'))
    .filter((rel) => /\.mdx?$/.test(rel) && filter(rel))
    .map((rel) => ({ path: rel, id: entryIdFromPath(rel), ...readFrontmatter(join(base, rel)) }));
}

const articles = loadMdx(SUPPORT, (rel) => rel.includes('/') && !rel.split('/').some((s) => s.startsWith('_')));
const supportIndexes = loadMdx(SUPPORT, (rel) => /^_index(\.[a-z]{2}_[A-Z]{2})?\.mdx$/.test(rel));
const policies = loadMdx(POLICIES);
/** Guides belong to the guides writer; here they are only checked for links and images. */
const guideFiles = loadMdx(GUIDES);
const pages = loadMdx(PAGES);
const categoryFiles = walk(SUPPORT)
  .map((full) => relative(SUPPORT, full).split('\\').join('/'))
  .filter((rel) => /^[^/]+\/_category(\.[a-z]{2}_[A-Z]{2})?\.(ya?ml|json)$/.test(rel))
  .map((rel) => {
    const text = readFileSync(join(SUPPORT, rel), 'utf8');
    const data = (rel.endsWith('.json') ? JSON.parse(text) : yaml.load(text)) as Record<string, unknown>;
    return { path: rel, id: entryIdFromPath(rel), data };
  });

const englishArticles = articles.filter((a) => splitLocale(a.id).locale === 'en_US');
const englishCategories = categoryFiles.filter((c) => splitLocale(c.id).locale === 'en_US');
const guideSlugs = new Set([
  ...PLANNED_GUIDES,
  ...walk(GUIDES)
    .map((f) => relative(GUIDES, f))
    .filter((f) => /\.mdx?$/.test(f))
    .map((f) => splitLocale(entryIdFromPath(f)).baseId),
]);
const policySlugs = new Set(policies.map((p) => splitLocale(p.id).baseId));
const pageSlugs = new Set(pages.map((p) => splitLocale(p.id).baseId));
const supportIds = new Set(articles.map((a) => splitLocale(a.id).baseId));
const categorySlugs = new Set(englishCategories.map((c) => c.id));

function expectSchema(schema: z.ZodType, file: { path: string; data: unknown }, where: string) {
  const result = schema.safeParse(file.data);
  expect(result.success, `${where}/${file.path}: ${result.success ? '' : JSON.stringify(result.error.issues)}`).toBe(
    true,
  );
}

describe('translation helpers', () => {
  it('keeps the locale suffix distinguishable in entry ids', () => {
    expect(entryIdFromPath('getting-started/what-is-meshfront.mdx')).toBe('getting-started/what-is-meshfront');
    expect(entryIdFromPath('getting-started/what-is-meshfront.de_DE.mdx')).toBe(
      'getting-started/what-is-meshfront.de_DE',
    );
    expect(entryIdFromPath('gateways/antennas/cable-loss.mdx')).toBe('gateways/antennas/cable-loss');
    expect(entryIdFromPath('gateways/_category.yaml')).toBe('gateways');
    expect(entryIdFromPath('gateways/_category.pt_BR.yaml')).toBe('gateways.pt_BR');
    expect(splitLocale('privacy-policy.fr_FR')).toEqual({ baseId: 'privacy-policy', locale: 'fr_FR' });
    expect(splitLocale('gateways/antennas/cable-loss')).toEqual({
      baseId: 'gateways/antennas/cable-loss',
      locale: 'en_US',
    });
    expect(splitSupportId('gateways/antennas/cable-loss')).toEqual({
      category: 'gateways',
      slug: 'antennas/cable-loss',
    });
  });

  it('falls back to English with isFallback when a translation is missing', () => {
    const entries = [{ id: 'about' }, { id: 'about.de_DE' }, { id: 'careers' }];
    expect(pickTranslation(entries, 'about', 'de_DE')).toEqual({ entry: { id: 'about.de_DE' }, isFallback: false });
    expect(pickTranslation(entries, 'careers', 'de_DE')).toEqual({ entry: { id: 'careers' }, isFallback: true });
    expect(pickTranslation(entries, 'careers', 'en_US')).toEqual({ entry: { id: 'careers' }, isFallback: false });
    expect(pickTranslation(entries, 'about', 'de')).toEqual({ entry: { id: 'about.de_DE' }, isFallback: false });
    expect(pickTranslation(entries, 'missing', 'fr_FR')).toEqual({ entry: undefined, isFallback: false });
  });
});

describe('support content', () => {
  it('has at least 6 categories including the required ones, each complete in English', () => {
    expect(englishCategories.length).toBeGreaterThanOrEqual(6);
    for (const slug of REQUIRED_CATEGORIES) expect(categorySlugs.has(slug), `category ${slug}`).toBe(true);
    for (const c of categoryFiles) {
      expectSchema(splitLocale(c.id).locale === 'en_US' ? supportCategory : supportCategoryTranslation, c, 'support');
    }
  });

  it('has category titles and descriptions in all six locales', () => {
    for (const slug of categorySlugs) {
      for (const locale of CONTENT_LOCALES) {
        const file = categoryFiles.find((c) => c.id === localizedId(slug, locale));
        expect(file, `support/${slug}/_category.${locale}.yaml`).toBeDefined();
        expect(typeof file!.data.title).toBe('string');
        expect(typeof file!.data.description).toBe('string');
      }
    }
  });

  it('has a support index intro in all six locales', () => {
    for (const locale of CONTENT_LOCALES) {
      const file = supportIndexes.find((f) => f.id === localizedId('_index', locale));
      expect(file, `support/_index.${locale}.mdx`).toBeDefined();
      expectSchema(supportIndex, file!, 'support');
    }
  });

  it('every article matches the schema and sits in an existing category', () => {
    for (const a of articles) {
      expectSchema(supportArticle, a, 'support');
      const { category } = splitSupportId(splitLocale(a.id).baseId);
      expect(categorySlugs.has(category), `${a.path}: unknown category folder ${category}`).toBe(true);
      expect(a.data.category, `${a.path}: frontmatter category must equal its folder`).toBe(category);
      for (const g of (a.data.relatedGuides as string[] | undefined) ?? []) {
        expect(guideSlugs.has(g), `${a.path}: relatedGuides ${g} is not a guide`).toBe(true);
      }
    }
  });

  it('every translation has an English source', () => {
    for (const a of articles) expect(supportIds.has(splitLocale(a.id).baseId)).toBe(true);
    for (const a of articles.filter((x) => splitLocale(x.id).locale !== 'en_US')) {
      expect(
        englishArticles.some((e) => e.id === splitLocale(a.id).baseId),
        `${a.path} translates a missing article`,
      ).toBe(true);
    }
  });

  it('has at least 30 English articles, the fixed ids and a nested slug', () => {
    expect(englishArticles.length).toBeGreaterThanOrEqual(30);
    for (const id of FIXED_SUPPORT_IDS) expect(supportIds.has(id), id).toBe(true);
    expect(englishArticles.some((a) => a.id.split('/').length > 2)).toBe(true);
  });
});

describe('policies and company pages', () => {
  it('every policy matches the schema and has all five translations', () => {
    for (const p of policies) expectSchema(policy, p, 'policies');
    for (const slug of REQUIRED_POLICIES) {
      for (const locale of CONTENT_LOCALES) {
        expect(
          policies.some((p) => p.id === localizedId(slug, locale)),
          `policies/${slug}.${locale}.mdx`,
        ).toBe(true);
      }
    }
  });

  it('every company page matches the schema and the required pages exist', () => {
    for (const p of pages) expectSchema(companyPage, p, 'pages');
    for (const slug of REQUIRED_PAGES) expect(pageSlugs.has(slug), `pages/${slug}.mdx`).toBe(true);
  });
});

/**
 * Locales whose translation of the support site and the company pages is complete. A locale joins
 * this list once every English article and page has its `<slug>.<locale>.mdx`; from then on a new
 * English file without its translation fails here instead of silently showing the English fallback.
 */
const COMPLETE_LOCALES: readonly ContentLocale[] = ['de_DE', 'pt_BR', 'fr_FR', 'es_ES', 'it_IT'];

describe('translation coverage', () => {
  const englishPages = pages.filter((p) => splitLocale(p.id).locale === 'en_US');
  const sources = [
    ...englishArticles.map((a) => ({
      id: a.id,
      file: (l: ContentLocale) => `support/${a.id}.${l}.mdx`,
      all: articles,
    })),
    ...englishPages.map((p) => ({ id: p.id, file: (l: ContentLocale) => `pages/${p.id}.${l}.mdx`, all: pages })),
    { id: '_index', file: (l: ContentLocale) => `support/_index.${l}.mdx`, all: supportIndexes },
  ];

  it.each(COMPLETE_LOCALES)('%s translates every support article, company page and the support index', (locale) => {
    const missing = sources
      .filter((s) => !s.all.some((f) => f.id === localizedId(s.id, locale)))
      .map((s) => s.file(locale));
    expect(missing, `content/ is missing ${locale} translations`).toEqual([]);
  });
});

const STATIC_ROUTES = [
  '/',
  '/support',
  '/guides',
  '/products',
  '/contact',
  '/categories',
  '/wishlist',
  '/privacy-policy',
  '/policies',
  '/cart',
  '/checkout',
];

/** Whether an internal path (no locale prefix, no query/hash) is a route the site builds. */
function isKnownRoute(path: string): boolean {
  const clean = path.replace(/\/$/, '') || '/';
  if (STATIC_ROUTES.includes(clean)) return true;
  if (clean === '/my-account' || clean.startsWith('/my-account/')) return true;
  if (/^\/product\/[a-z0-9-]+$/.test(clean)) return true;
  if (/^\/product-category\/[a-z0-9-]+$/.test(clean)) return true;
  let m = /^\/support\/(.+)$/.exec(clean);
  if (m) return categorySlugs.has(m[1]) || supportIds.has(m[1]);
  m = /^\/guides\/([a-z0-9-]+)$/.exec(clean);
  if (m) return guideSlugs.has(m[1]);
  m = /^\/policies\/(.+)$/.exec(clean);
  if (m) return policySlugs.has(m[1]);
  m = /^\/([a-z0-9-]+)$/.exec(clean);
  if (m) return pageSlugs.has(m[1]);
  return false;
}

const LINK = /!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;

describe('links, images and MDX safety', () => {
  const files = [
    ...articles.map((f) => ({ ...f, where: 'support' })),
    ...supportIndexes.map((f) => ({ ...f, where: 'support' })),
    ...policies.map((f) => ({ ...f, where: 'policies' })),
    ...pages.map((f) => ({ ...f, where: 'pages' })),
  ];

  it('every internal link points to a known route (support, policies, pages and guides)', () => {
    const broken: string[] = [];
    for (const f of [...files, ...guideFiles.map((g) => ({ ...g, where: 'guides' }))]) {
      for (const [whole, target] of f.body.matchAll(LINK)) {
        if (whole.startsWith('!') || !target.startsWith('/')) continue;
        const path = target.split(/[?#]/)[0];
        if (!isKnownRoute(path)) broken.push(`${f.where}/${f.path}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('every referenced image exists under public/', () => {
    const missing: string[] = [];
    for (const f of [...files, ...guideFiles.map((g) => ({ ...g, where: 'guides' }))]) {
      for (const [whole, target] of f.body.matchAll(LINK)) {
        if (!whole.startsWith('!')) continue;
        if (!target.startsWith('/') || !existsSync(join(PUBLIC, target.split(/[?#]/)[0]))) {
          missing.push(`${f.where}/${f.path}: ${target}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('bodies are plain Markdown: no imports, JSX tags or braces outside code', () => {
    const offending: string[] = [];
    for (const f of files) {
      const prose = f.body.replace(/```[\s\S]*?```/g, '').replace(/`[^`\n]*`/g, '');
      if (/^\s*(import|export)\s/m.test(prose)) offending.push(`${f.path}: import/export`);
      if (/[{}]/.test(prose)) offending.push(`${f.path}: { or } outside code`);
      if (/<[A-Za-z/!]/.test(prose)) offending.push(`${f.path}: < starts a tag; write &lt; or use code`);
    }
    expect(offending).toEqual([]);
  });
});

describe('support helpers on the real content', () => {
  // Shape the files like getCollection() entries.
  const articleEntries = articles.map((a) => ({ id: a.id, data: supportArticle.parse(a.data) }));
  const categoryEntries = categoryFiles.map((c) => ({ id: c.id, data: supportCategoryTranslation.parse(c.data) }));

  it('resolves categories in German with English icon and order', () => {
    const de = resolveCategories(categoryEntries, 'de_DE');
    expect(de.map((c) => c.slug).slice(0, 6)).toEqual(REQUIRED_CATEGORIES);
    expect(de.find((c) => c.slug === 'troubleshooting')).toMatchObject({
      title: 'Fehlerbehebung',
      icon: 'life-buoy',
      isFallback: false,
    });
  });

  it('orders a category sidebar and falls back to English per article', () => {
    // German covers every article, so one translation is left out to exercise the fallback.
    const partial = articleEntries.filter((e) => e.id !== 'troubleshooting/factory-reset.de_DE');
    const list = articlesInCategory(partial, 'troubleshooting', 'de_DE');
    expect(list[0]).toMatchObject({ baseId: 'troubleshooting/gateway-offline', isFallback: false });
    expect(list.find((a) => a.baseId === 'troubleshooting/factory-reset')?.isFallback).toBe(true);
    expect(prevNext(list, 'troubleshooting/led-codes').prev?.baseId).toBe('troubleshooting/gateway-offline');
    expect(supportArticleParams(articleEntries)).toContainEqual({ category: 'gateways', slug: 'antennas/cable-loss' });
    expect(
      popularArticles(articleEntries, resolveCategories(categoryEntries, 'en_US'), 'en_US').length,
    ).toBeGreaterThan(0);
  });
});
