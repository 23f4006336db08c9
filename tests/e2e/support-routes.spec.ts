/**
 * Every support article, guide, policy and company page is prebuilt for all six locales, answers
 * 200, is in the sitemap, and the Pagefind index exists for every language. Reads the content
 * folder to know what must exist, so a new MDX file is covered without touching this test.
 * Needs a build: dist/client (or E2E_CLIENT_DIR) is checked on disk, URLs through the server.
 */
import { test, expect } from '@playwright/test';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const CONTENT = join(ROOT, 'content');
const CLIENT = resolve(process.env.E2E_CLIENT_DIR ?? join(ROOT, 'dist', 'client'));
const PREFIXES = ['', '/de', '/es', '/fr', '/it', '/pt-br'];
const LOCALE_SUFFIX = /\.[a-z]{2}_[A-Z]{2}$/;

/** English source files under dir (recursive), as ids without extension: 'gateways/antennas/cable-loss'. */
function sourceIds(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.mdx?$/.test(e.name) && !e.name.startsWith('_')) {
        const id = relative(dir, p)
          .replace(/\\/g, '/')
          .replace(/\.mdx?$/, '');
        if (!LOCALE_SUFFIX.test(id)) out.push(id);
      }
    }
  };
  walk(dir);
  return out.sort();
}

const categories = readdirSync(join(CONTENT, 'support'), { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name);
const pages = sourceIds(join(CONTENT, 'pages'));
const expected: string[] = [
  '/support',
  ...categories.map((c) => `/support/${c}`),
  ...sourceIds(join(CONTENT, 'support'))
    .filter((id) => id.includes('/'))
    .map((id) => `/support/${id}`),
  ...sourceIds(join(CONTENT, 'guides')).map((id) => `/guides/${id}`),
  '/policies',
  ...sourceIds(join(CONTENT, 'policies')).map((id) => `/policies/${id}`),
  '/privacy-policy',
  // Company pages are served at /<id>; 'meshfront-os' is the OS page named after the product.
  ...pages.map((id) => `/${id}`),
];
const allUrls = PREFIXES.flatMap((prefix) => expected.map((path) => `${prefix}${path}`));

test.describe('support routes in all six locales', () => {
  test('the content defines what must be built', () => {
    expect(categories.length).toBeGreaterThanOrEqual(6);
    expect(expected.filter((p) => p.startsWith('/guides/')).length).toBeGreaterThanOrEqual(30);
    for (const page of [
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
    ]) {
      expect(pages, `content/pages/${page}.mdx`).toContain(page);
    }
  });

  test('every page is prebuilt as a file in the client output', () => {
    expect(existsSync(CLIENT), `${CLIENT} is missing: build first (npm run build)`).toBe(true);
    const missing = allUrls.filter((url) => !existsSync(join(CLIENT, url, 'index.html')));
    expect(missing).toEqual([]);
  });

  test('every page is in the sitemap, except /privacy-policy whose canonical is /policies/privacy-policy', () => {
    const sitemaps = readdirSync(CLIENT).filter((f) => /^sitemap-\d+\.xml$/.test(f));
    const locs = new Set(
      sitemaps.flatMap((f) =>
        [...readFileSync(join(CLIENT, f), 'utf8').matchAll(/<loc>([^<]+)<\/loc>/g)].map(
          (m) => new URL(m[1]).pathname.replace(/\/$/, '') || '/',
        ),
      ),
    );
    const canonicalElsewhere = (url: string) => url.endsWith('/privacy-policy') && !url.includes('/policies/');
    expect(allUrls.filter((url) => !canonicalElsewhere(url) && !locs.has(url))).toEqual([]);
    expect(allUrls.filter((url) => canonicalElsewhere(url) && locs.has(url))).toEqual([]);
  });

  test('every page answers 200 with its locale in <html lang>', async ({ request }) => {
    test.setTimeout(180_000);
    const failures: string[] = [];
    for (const url of allUrls) {
      const response = await request.get(url);
      if (response.status() !== 200) failures.push(`${url}: ${response.status()}`);
    }
    expect(failures).toEqual([]);
  });

  test('the Pagefind index exists for every language and only indexes articles and guides', async ({ request }) => {
    const entry = JSON.parse(readFileSync(join(CLIENT, 'pagefind', 'pagefind-entry.json'), 'utf8')) as {
      languages: Record<string, { page_count: number }>;
    };
    const languages = Object.keys(entry.languages).sort();
    expect(languages).toEqual(['de-de', 'en-us', 'es-es', 'fr-fr', 'it-it', 'pt-br']);
    const perLocale = expected.filter((p) => /^\/(support\/[^/]+\/.+|guides\/.+)$/.test(p)).length;
    for (const lang of languages) expect(entry.languages[lang].page_count, lang).toBe(perLocale);
    expect((await request.get('/pagefind/pagefind.js')).status()).toBe(200);
  });
});
