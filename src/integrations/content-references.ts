/**
 * Broken references in the editors' content fail the build, each named with its file and line: internal
 * links in MDX (to a page, a guide, a support article, a policy, a product or category, a file in public/),
 * anchors (#heading) in the same file or in the linked guide/article/page of the same language, and the
 * frontmatter's relatedArticles / relatedGuides. Links are written unprefixed (the site adds the language
 * when it renders), so one set of routes serves every locale; anchors are looked up in the linked file of
 * the same language, where the heading texts are. External links are not fetched.
 *
 * In `astro dev` the problems are printed as warnings, so an editor can go on previewing while fixing them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AstroIntegration } from 'astro';
import GithubSlugger from 'github-slugger';
import yaml from 'js-yaml';
import { REDIRECT_RULES } from '../lib/http/redirects.ts';

export type ReferenceProblem = { file: string; line: number; message: string };

const LOCALE_SUFFIX = /\.([a-z]{2}_[A-Z]{2})\.(mdx|md)$/;
const CONTENT_FILE = /\.(mdx|md)$/;

type ContentEntry = {
  /** Relative to the content directory, e.g. "guides/rak.de_DE.mdx". */
  file: string;
  /** The route of its English version, e.g. "/guides/rak". */
  route: string;
  locale: string | null;
  frontmatter: Record<string, unknown>;
  body: string;
  /** The file's lines before the body (the frontmatter block), for naming a frontmatter key's line. */
  frontmatterLines: string[];
  /** Line of the body's first line in the file. */
  bodyLine: number;
};

function walk(dir: string, base = dir): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return walk(full, base);
    return [path.relative(base, full).split(path.sep).join('/')];
  });
}

/** The route a content file is served at (its English route; translations live under a locale prefix). */
function routeOf(file: string): string | null {
  const plain = file.replace(LOCALE_SUFFIX, '.$2').replace(CONTENT_FILE, '');
  const [collection, ...rest] = plain.split('/');
  const name = rest.join('/');
  if (rest.some((part) => part.startsWith('_')) || /(^|\/)README$/.test(plain)) return null;
  if (collection === 'guides') return `/guides/${name}`;
  if (collection === 'support') return `/support/${name}`;
  if (collection === 'policies') return `/policies/${name}`;
  if (collection === 'pages') return `/${name}`;
  return null;
}

function readEntry(contentDir: string, file: string): ContentEntry | null {
  const route = routeOf(file);
  if (!route) return null;
  const text = fs.readFileSync(path.join(contentDir, file), 'utf8');
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/.exec(text);
  const frontmatter = m ? ((yaml.load(m[1]!) as Record<string, unknown> | null) ?? {}) : {};
  const body = m ? text.slice(m[0].length) : text;
  const bodyLine = m ? m[0].split('\n').length : 1;
  const frontmatterLines = m ? m[0].split('\n') : [];
  return { file, route, locale: LOCALE_SUFFIX.exec(file)?.[1] ?? null, frontmatter, body, frontmatterLines, bodyLine };
}

/** Every route the site builds without content: the static pages of src/pages/[...locale]. */
function staticRoutes(pagesDir: string): string[] {
  return walk(pagesDir)
    .filter((f) => f.endsWith('.astro') && !f.split('/').some((part) => part.startsWith('_') || part.includes('[')))
    .map((f) => `/${f.replace(/\.astro$/, '').replace(/(^|\/)index$/, '')}`.replace(/\/$/, '') || '/');
}

/** Catalog routes: /product/<slug> and /product-category/<slug>. */
function catalogRoutes(catalogDir: string): string[] {
  const products = walk(path.join(catalogDir, 'products'))
    .filter((f) => f.endsWith('.json'))
    .map(
      (f) =>
        `/product/${(JSON.parse(fs.readFileSync(path.join(catalogDir, 'products', f), 'utf8')) as { slug: string }).slug}`,
    );
  const categoriesFile = path.join(catalogDir, 'categories.json');
  const categories = fs.existsSync(categoriesFile)
    ? (JSON.parse(fs.readFileSync(categoriesFile, 'utf8')) as { slug: string }[]).map(
        (c) => `/product-category/${c.slug}`,
      )
    : [];
  return [...products, ...categories];
}

/** Markdown links and images outside code, with their line in the file. */
function linksOf(entry: ContentEntry): { href: string; line: number; image: boolean }[] {
  const out: { href: string; line: number; image: boolean }[] = [];
  let fenced = false;
  entry.body.split('\n').forEach((raw, i) => {
    if (/^\s*(```|~~~)/.test(raw)) fenced = !fenced;
    if (fenced) return;
    const line = raw.replace(/`[^`]*`/g, '');
    for (const m of line.matchAll(/(!?)\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g))
      out.push({ href: m[2]!, line: entry.bodyLine + i, image: m[1] === '!' });
  });
  return out;
}

/** The heading anchors of a body, as the site renders them (github-slugger, like Astro's heading ids). */
function anchorsOf(body: string): Set<string> {
  const slugger = new GithubSlugger();
  const anchors = new Set<string>();
  let fenced = false;
  for (const raw of body.split('\n')) {
    if (/^\s*(```|~~~)/.test(raw)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(raw);
    if (m) anchors.add(slugger.slug(m[1]!.replace(/\*\*|__|\*|_|`/g, '').replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')));
  }
  return anchors;
}

/** Checks every content file under `root`/content against the routes the site builds. */
export function checkContentReferences(root: string): ReferenceProblem[] {
  const contentDir = path.join(root, 'content');
  const entries = walk(contentDir)
    .filter((f) => CONTENT_FILE.test(f))
    .map((f) => readEntry(contentDir, f))
    .filter((e): e is ContentEntry => e !== null);
  const routes = new Set<string>([
    ...entries.map((e) => e.route),
    ...staticRoutes(path.join(root, 'src/pages/[...locale]')),
    ...catalogRoutes(path.join(contentDir, 'catalog')),
    ...REDIRECT_RULES.map((r) => r.from),
    // Support categories have their own pages (content/support/<category>/_category.yaml).
    ...walk(path.join(contentDir, 'support'))
      .filter((f) => /(^|\/)_category\.ya?ml$/.test(f))
      .map((f) => `/support/${path.posix.dirname(f)}`),
  ]);
  // The file of a route in a language (the English one where that language has none).
  const byRoute = new Map<string, ContentEntry>();
  for (const e of entries) byRoute.set(`${e.locale ?? ''}:${e.route}`, e);
  const fileIn = (route: string, locale: string | null) =>
    byRoute.get(`${locale ?? ''}:${route}`) ?? byRoute.get(`:${route}`);
  const anchorCache = new Map<ContentEntry, Set<string>>();
  const anchors = (e: ContentEntry) => {
    if (!anchorCache.has(e)) anchorCache.set(e, anchorsOf(e.body));
    return anchorCache.get(e)!;
  };
  const supportIds = new Set(entries.filter((e) => e.route.startsWith('/support/')).map((e) => e.route.slice(9)));
  const guideSlugs = new Set(entries.filter((e) => e.route.startsWith('/guides/')).map((e) => e.route.slice(8)));

  const problems: ReferenceProblem[] = [];
  for (const e of entries) {
    const file = `content/${e.file}`;
    // The frontmatter is the file's first lines: the key's line there (the body follows it).
    const frontmatterLine = (key: string) => e.frontmatterLines.findIndex((l) => l.startsWith(`${key}:`)) + 1 || 1;
    for (const id of (e.frontmatter.relatedArticles as string[] | undefined) ?? [])
      if (!supportIds.has(id))
        problems.push({
          file,
          line: frontmatterLine('relatedArticles'),
          message: `relatedArticles: no support article "${id}"`,
        });
    for (const slug of (e.frontmatter.relatedGuides as string[] | undefined) ?? [])
      if (!guideSlugs.has(slug))
        problems.push({ file, line: frontmatterLine('relatedGuides'), message: `relatedGuides: no guide "${slug}"` });

    for (const link of linksOf(e)) {
      const { href, line } = link;
      if (/^[a-z][a-z0-9+.-]*:/i.test(href) || href.startsWith('//')) continue;
      const [pathAndQuery, anchor] = href.split('#', 2) as [string, string | undefined];
      const target = pathAndQuery.replace(/\?.*$/, '').replace(/\/$/, '') || (pathAndQuery ? '/' : '');
      if (target && !target.startsWith('/')) {
        problems.push({ file, line, message: `"${href}" is relative: write site links from the root (/guides/…)` });
        continue;
      }
      if (target && /\.[a-z0-9]{2,5}$/i.test(target)) {
        if (!fs.existsSync(path.join(root, 'public', decodeURI(target))))
          problems.push({ file, line, message: `${link.image ? 'image' : 'file'} "${href}" is not in public/` });
        continue;
      }
      if (target && !routes.has(target)) {
        problems.push({ file, line, message: `"${href}": no page at ${target}` });
        continue;
      }
      if (anchor === undefined) continue;
      const linked = target ? fileIn(target, e.locale) : e;
      // Anchors are checked where the content's headings are known (guides, articles, policies, pages).
      if (linked && !anchors(linked).has(decodeURIComponent(anchor)))
        problems.push({ file, line, message: `"${href}": no heading #${anchor} in content/${linked.file}` });
    }
  }
  return problems;
}

export const formatProblems = (problems: readonly ReferenceProblem[]) =>
  problems.map((p) => `  ${p.file}:${p.line}  ${p.message}`).join('\n');

export default function contentReferences(): AstroIntegration {
  return {
    name: 'meshfront:content-references',
    hooks: {
      'astro:config:setup': ({ config, command, logger }) => {
        const problems = checkContentReferences(fileURLToPath(config.root));
        if (problems.length === 0) return;
        const report = `${problems.length} broken reference${problems.length === 1 ? '' : 's'} in content/:\n${formatProblems(problems)}`;
        if (command === 'dev') logger.warn(report);
        else throw new Error(report);
      },
    },
  };
}
