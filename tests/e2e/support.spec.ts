/**
 * Support area, gateway guides, policies and company pages on the built site (all six locales).
 * Run after `npm run build`; the config serves dist/ on port 4399.
 */
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

const LOCALES = [
  { prefix: '', lang: 'en-US' },
  { prefix: '/de', lang: 'de-DE' },
  { prefix: '/es', lang: 'es-ES' },
  { prefix: '/fr', lang: 'fr-FR' },
  { prefix: '/it', lang: 'it-IT' },
  { prefix: '/pt-br', lang: 'pt-BR' },
] as const;

const isPhone = (name: string) => name === 'phone';

/** Requests for the Pagefind bundle made by the page so far. */
function trackPagefind(page: Page): string[] {
  const seen: string[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname.startsWith('/pagefind/')) seen.push(r.url());
  });
  return seen;
}

test.describe('model picker', () => {
  test('lists every guide with our own gateways first and opens a guide after filtering', async ({ page }) => {
    await page.goto('/gateway');
    const items = page.locator('[data-guide-item]');
    expect(await items.count()).toBeGreaterThanOrEqual(30);
    await expect(page.locator('[data-vendor-group]').first().locator('h3')).toContainText('Meshfront');

    await page.getByLabel('Filter by model or manufacturer').fill('nebra');
    await expect(items.filter({ visible: true })).toHaveCount(2);
    await expect(page.locator('[data-filter-status]')).toHaveText(/^2 of \d+ models$/);
    await page.getByRole('link', { name: /Nebra Indoor/ }).click();

    await expect(page).toHaveURL(/\/guides\/nebra-indoor\/?$/);
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Nebra Indoor');
    const facts = page.locator('[data-guide-facts]');
    await expect(facts).toContainText('Nebra');
    await expect(facts).toContainText('SD card');
    await expect(page.getByRole('link', { name: 'Go to support' })).toHaveAttribute('href', '/support');
  });

  test('a filter that matches nothing says so', async ({ page }) => {
    await page.goto('/gateway');
    await page.getByLabel('Filter by model or manufacturer').fill('no-such-model-xyz');
    await expect(page.locator('[data-guide-item]').filter({ visible: true })).toHaveCount(0);
    await expect(page.locator('[data-filter-empty]')).toBeVisible();
  });
});

test.describe('support search (Pagefind)', () => {
  test('English: loads the index only on demand, finds an article and opens it', async ({ page }) => {
    const pagefind = trackPagefind(page);
    await page.goto('/support');
    await page.waitForLoadState('networkidle');
    expect(pagefind, 'Pagefind must not load before the visitor uses the search box').toEqual([]);

    const input = page.getByRole('searchbox', { name: 'Search support' });
    await input.fill('cable loss');
    const result = page.locator('[data-search-result]').filter({ hasText: 'Antenna cable loss explained' });
    await expect(result).toBeVisible();
    expect(pagefind.length).toBeGreaterThan(0);
    await expect(result).toHaveAttribute('href', /^\/support\/gateways\/antennas\/cable-loss\/?$/);
    await result.click();
    await expect(page).toHaveURL(/\/support\/gateways\/antennas\/cable-loss\/?$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Antenna cable loss explained');
  });

  test('English: guides are searchable too', async ({ page }) => {
    await page.goto('/support');
    await page.getByRole('searchbox', { name: 'Search support' }).fill('SenseCAP');
    await expect(page.locator('[data-search-result][href*="/guides/sensecap"]').first()).toBeVisible();
  });

  test('German: searches the German index and stays in /de/', async ({ page }) => {
    await page.goto('/de/support');
    await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
    await page.getByRole('searchbox', { name: 'Support durchsuchen' }).fill('zuordnen');
    // Other German articles mention claiming too; the article itself is the hit that links to it.
    const result = page.locator('[data-search-result][href="/de/support/wallet-and-rewards/claiming-a-gateway/"]');
    await expect(result).toBeVisible();
    for (const href of await page
      .locator('[data-search-result]')
      .evaluateAll((as) => as.map((a) => a.getAttribute('href')))) {
      expect(href).toMatch(/^\/de\//);
    }
    await result.click();
    await expect(page).toHaveURL(/\/de\/support\/wallet-and-rewards\/claiming-a-gateway\/?$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Ein Gateway zuordnen (Claimen)');
  });

  test('a query with no hits says so; ?q= in the URL runs the search', async ({ page }) => {
    await page.goto('/support?q=zzqqxxnothing');
    await expect(page.getByRole('searchbox', { name: 'Search support' })).toHaveValue('zzqqxxnothing');
    await expect(page.locator('[data-search-summary]')).toContainText('No results for “zzqqxxnothing”');
  });

  test('without JavaScript the search box points to the category lists', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/support');
    const fallback = page.getByRole('link', { name: 'Browse the categories instead' });
    await expect(fallback).toHaveAttribute('href', '#support-categories');
    await expect(page.locator('#support-categories')).toBeVisible();
    await context.close();
  });
});

test.describe('translations', () => {
  // Every article is translated now, so no page of the build shows the not-translated notice; which entry
  // falls back to English (and gets the notice) is tested on pickTranslation in tests/content/support.test.ts.
  test('a French article is French: no notice, French text, and links keep the reader in /fr/', async ({ page }) => {
    await page.goto('/fr/support/gateways/antenna-placement');
    await expect(page.locator('html')).toHaveAttribute('lang', 'fr-FR');
    await expect(page.locator('[data-not-translated]')).toHaveCount(0);
    await expect(page.locator('.prose[lang="en"]')).toHaveCount(0);
    await expect(page.getByRole('heading', { level: 1 })).not.toHaveText(/antenna placement/i);
    // The page chrome is French and links keep the reader in /fr/.
    await expect(page.getByRole('navigation', { name: 'Fil d’Ariane' }).getByRole('link').first()).toHaveAttribute(
      'href',
      '/fr/support',
    );
  });

  test('a translated article has no notice and its content links stay in the locale', async ({ page }) => {
    await page.goto('/de/support/wallet-and-rewards/claiming-a-gateway');
    await expect(page.locator('[data-not-translated]')).toHaveCount(0);
    const walletLink = page.locator('.prose a[href*="create-a-kadena-wallet"]').first();
    await expect(walletLink).toHaveAttribute('href', '/de/support/getting-started/create-a-kadena-wallet');
  });

  test('policies are translated: the Italian privacy policy has no notice', async ({ page }) => {
    await page.goto('/it/policies/privacy-policy');
    await expect(page.locator('html')).toHaveAttribute('lang', 'it-IT');
    await expect(page.locator('[data-not-translated]')).toHaveCount(0);
  });
});

test.describe('article page', () => {
  test(
    'shows sidebar, breadcrumb, table of contents, previous/next and the last-updated date',
    { tag: '@phone-too' },
    async ({ page }, info) => {
      await page.goto('/support/gateways/antenna-placement');

      const crumbs = page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('listitem');
      await expect(crumbs).toHaveText(['Support', 'Gateways', 'Antenna placement']);
      await expect(crumbs.last().locator('[aria-current="page"]')).toBeVisible();

      // Sidebar: the category's articles with the current one highlighted (a disclosure on phones).
      if (isPhone(info.project.name)) await page.locator('aside details summary').click();
      const current = page.locator('aside a[aria-current="page"]').filter({ visible: true });
      await expect(current).toHaveCount(1);
      await expect(current).toHaveAttribute('href', '/support/gateways/antenna-placement');
      expect(await page.locator('aside a').filter({ visible: true }).count()).toBeGreaterThan(5);

      // Table of contents: a column on wide screens, a disclosure on narrow ones.
      const toc = page.getByRole('navigation', { name: 'On this page' }).filter({ visible: true });
      if ((await toc.count()) === 0) await page.locator('details:has(nav[aria-label="On this page"]) summary').click();
      const tocLinks = page
        .getByRole('navigation', { name: 'On this page' })
        .filter({ visible: true })
        .getByRole('link');
      expect(await tocLinks.count()).toBeGreaterThan(1);
      const target = await tocLinks.first().getAttribute('href');
      await expect(page.locator(target!)).toBeAttached();

      const pn = page.getByRole('navigation', { name: 'More articles' });
      await expect(pn.locator('a[rel="prev"]')).toHaveAttribute('href', '/support/gateways/choosing-an-antenna');
      await expect(pn.locator('a[rel="next"]')).toHaveAttribute('href', /^\/support\/gateways\/[a-z-]+/);

      const updated = page.locator('[data-last-updated] time');
      await expect(updated).toHaveAttribute('datetime', /^\d{4}-\d{2}-\d{2}$/);
      await expect(updated).toHaveText(/^[A-Z][a-z]+ \d{1,2}, \d{4}$/);
    },
  );

  test('German dates are formatted in German; warnings in guides are styled as callouts', async ({ page }) => {
    await page.goto('/de/support/wallet-and-rewards/claiming-a-gateway');
    await expect(page.locator('[data-last-updated] time')).toHaveText(/^\d{1,2}\. [A-ZÄÖÜ][a-zäöü]+ \d{4}$/);
    await page.goto('/guides/nebra-indoor');
    const warning = page.locator('.prose blockquote[data-callout="warning"]').first();
    await expect(warning).toBeVisible();
    expect(await warning.evaluate((el) => getComputedStyle(el).borderLeftColor)).toBe('rgb(220, 38, 38)');
  });

  test('/privacy-policy shows the privacy policy with its canonical at /policies/privacy-policy', async ({ page }) => {
    await page.goto('/de/privacy-policy');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/de\/policies\/privacy-policy$/);
    await expect(page.locator('link[rel="alternate"][hreflang="fr-FR"]')).toHaveAttribute(
      'href',
      /\/fr\/policies\/privacy-policy$/,
    );
    await page.goto('/guides/rak');
    await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', /\/guides\/rak$/);
    await expect(page.locator('link[rel="alternate"][hreflang="pt-BR"]')).toHaveAttribute(
      'href',
      /\/pt-br\/guides\/rak$/,
    );
  });
});

test.describe('routes', () => {
  const families = [
    '/support',
    '/support/troubleshooting',
    '/support/gateways/antennas/cable-loss',
    '/guides/meshfront-gateway-indoor',
    '/gateway',
    '/policies',
    '/policies/returns-and-refunds',
    '/privacy-policy',
    '/about',
    '/careers',
    '/roadmap',
    '/business',
    '/partners',
    '/media-kit',
    '/downloads',
    '/meshfront-os',
    '/swag-store',
  ];
  for (const { prefix, lang } of LOCALES) {
    test(`every route family answers 200 in ${lang}`, async ({ request }) => {
      for (const path of families) {
        const response = await request.get(`${prefix}${path}`);
        expect(response.status(), `${prefix}${path}`).toBe(200);
        const html = await response.text();
        expect(html, `${prefix}${path} lang`).toContain(`<html lang="${lang}"`);
      }
    });
  }

  test('the OS page links to the downloadable product; downloads link to it too', async ({ page }) => {
    await page.goto('/es/meshfront-os');
    await expect(page.locator('main a[href="/es/product/meshfront-os"]').first()).toBeVisible();
    await page.goto('/downloads');
    await expect(page.locator('main a[href="/product/meshfront-os"]').first()).toBeVisible();
  });

  test('the swag store shows every swag product, each opening its product page', async ({ page }) => {
    await page.goto('/de/swag-store');
    const grid = page.getByRole('region', { name: 'Merch im Shop' });
    await expect(grid.getByRole('listitem')).toHaveCount(10);
    // The German store shows the product's German name (content/catalog: translations.de_DE).
    await grid
      .getByRole('link', { name: /Meshfront Kapuzenpullover/ })
      .first()
      .click();
    await expect(page).toHaveURL(/\/de\/product\/meshfront-hoodie\/?$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Meshfront Kapuzenpullover' })).toBeVisible();
  });
});

test.describe('accessibility', { tag: '@phone-too' }, () => {
  for (const path of [
    '/support',
    '/support/gateways/antenna-placement',
    '/guides/nebra-indoor',
    '/gateway',
    '/swag-store',
    '/policies/warranty',
    '/fr/support/troubleshooting/factory-reset',
  ]) {
    test(`axe finds no violations on ${path}`, async ({ page }) => {
      await page.goto(path);
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      );
    });
  }
});
