/**
 * No link of the built site leads to a 404: every same-site URL its pages refer to (links, canonical and
 * hreflang alternates, stylesheets, scripts, images and srcset candidates) in all six locales, requested
 * once each from the running server with redirects followed (tests/e2e/links-crawl.ts). The crawl starts
 * at every prebuilt page of the build (so pages nothing links to are read too) and at an unknown path in
 * each locale (the 404 page's own links). Links that scripts write after loading are not seen.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test, expect, type APIRequestContext } from '@playwright/test';
import { LOCALES, localePrefix } from '../../src/lib/i18n/locales';
import { crawl } from './links-crawl';

const CLIENT_DIR = path.resolve(process.env.MESHFRONT_DIST_DIR ?? 'dist', 'client');

/** '/de/products/' for dist/client/de/products/index.html; the 404 pages are not pages of their own path. */
function prebuiltPages(dir: string, base = ''): string[] {
  const pages: string[] = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('_') || entry.name === 'pagefind') continue;
    const rest = `${base}/${entry.name}`;
    if (entry.name === '404') continue;
    if (fs.existsSync(path.join(dir, entry.name, 'index.html'))) pages.push(`${rest}/`);
    pages.push(...prebuiltPages(path.join(dir, entry.name), rest));
  }
  return pages;
}

async function fetchPage(request: APIRequestContext, url: string) {
  // A page navigation, as a browser sends it (the locale rule only redirects those; no Accept-Language:
  // the crawl stays in the locale each link names).
  const response = await request.get(url, { headers: { accept: 'text/html,*/*;q=0.8' }, maxRedirects: 10 });
  const html = (response.headers()['content-type'] ?? '').includes('text/html') ? await response.text() : null;
  return { status: response.status(), html };
}

test('every same-site link of the built site answers, in all six locales', async ({ request, baseURL }) => {
  test.setTimeout(300_000);
  expect(fs.existsSync(CLIENT_DIR), `the build under test is missing: ${CLIENT_DIR}`).toBe(true);
  const home = await fetchPage(request, '/');
  // Canonical and alternate links use the build's `site`; those URLs are this server's too.
  const site = /<link\b[^>]*\srel="canonical"[^>]*\shref="([^"]+)"/.exec(home.html ?? '')?.[1];
  expect(site, 'the home page has a canonical link').toBeTruthy();
  const homes = LOCALES.map((l) => `${localePrefix(l)}/`);
  const unknown = LOCALES.map((l) => `${localePrefix(l)}/links-crawler-missing-page`);
  const { broken, checked } = await crawl({
    start: [...homes, ...prebuiltPages(CLIENT_DIR), ...unknown],
    origin: baseURL as string,
    aliases: [new URL(site as string).origin],
    concurrency: 8,
    fetch: async (url) => {
      const result = await fetchPage(request, url);
      // The unknown paths are meant to be missing: only their 404 page's links count.
      return unknown.includes(url) && result.status === 404 ? { ...result, status: 200 } : result;
    },
  });
  expect(checked).toBeGreaterThan(LOCALES.length * 50);
  expect(
    broken.map((b) => `${b.status} ${b.url} (linked from ${b.from})`),
    `${broken.length} of ${checked} same-site URLs are broken`,
  ).toEqual([]);
});

test('the account tab paths the support articles link to open the account page on that tab, in every locale', async ({
  request,
}) => {
  for (const locale of LOCALES) {
    const prefix = localePrefix(locale);
    for (const tab of ['downloads', 'orders']) {
      const response = await request.get(`${prefix}/my-account/${tab}`, {
        headers: { accept: 'text/html' },
        maxRedirects: 0,
      });
      expect(response.status(), `${prefix}/my-account/${tab}`).toBe(301);
      expect(response.headers().location).toBe(`${prefix}/my-account?tab=${tab}`);
      const page = await request.get(`${prefix}/my-account/${tab}/`, { headers: { accept: 'text/html' } });
      expect(page.status()).toBe(200);
      expect(new URL(page.url()).search).toBe(`?tab=${tab}`);
      expect(await page.text()).toMatch(/<astro-island[^>]*component-url="[^"]*AccountPage/);
    }
  }
});
