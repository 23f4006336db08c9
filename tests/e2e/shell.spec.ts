import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

const isPhone = (name: string) => name === 'phone';
const overlay = (page: Page) => page.locator('#shell-overlay');
const bodyOverflow = (page: Page) => page.evaluate(() => getComputedStyle(document.body).overflow);
const YEAR_SECONDS = 365 * 24 * 60 * 60;

test.describe('header', () => {
  test(
    'search box: toggled by the icon on phones, always shown on desktop; submits to the product list',
    { tag: '@phone-too' },
    async ({ page }, info) => {
      await page.goto('/');
      const input = page.locator('#header-search-input');
      const toggle = page.locator('[data-search-toggle]');
      if (isPhone(info.project.name)) {
        await expect(input).toBeHidden();
        await toggle.click();
        await expect(input).toBeVisible();
        await expect(input).toBeFocused();
        await expect(toggle).toHaveAttribute('aria-expanded', 'true');
        await toggle.click();
        await expect(input).toBeHidden();
        await toggle.click();
      } else {
        await expect(toggle).toBeHidden();
        await expect(input).toBeVisible();
        const box = await page.locator('#header-search form').boundingBox();
        expect(box!.width).toBeLessThanOrEqual(320);
      }
      await input.fill('lora gateway');
      await input.press('Enter');
      await expect(page).toHaveURL(/\/products\?search=lora\+gateway$/);
    },
  );

  test('search stays in the current locale', { tag: '@phone-too' }, async ({ page }, info) => {
    await page.goto('/fr/');
    if (isPhone(info.project.name)) await page.locator('[data-search-toggle]').click();
    await page.locator('#header-search-input').fill('antenne');
    await page.locator('#header-search-input').press('Enter');
    await expect(page).toHaveURL(/\/fr\/products\?search=antenne$/);
  });

  test('cart panel opens from the right, shows the empty state, overlay click closes it and unlocks scrolling', {
    tag: '@phone-too',
  }, async ({ page }) => {
    await page.goto('/');
    const panel = page.locator('#cart-panel');
    await expect(panel).toBeHidden();
    await expect(page.locator('[data-cart-badge]')).toBeHidden();
    await page.locator('[data-cart-toggle]').click();
    await expect(panel).toBeVisible();
    await expect(panel.getByRole('heading', { name: 'Your cart' })).toBeVisible();
    // The empty state (the shell's, or the cart drawer's once it has hydrated) leads to the products.
    await expect(panel.getByRole('link', { name: 'Browse products' }).first()).toHaveAttribute('href', '/products');
    await expect(overlay(page)).toBeVisible();
    expect(await bodyOverflow(page)).toBe('hidden');
    const box = await panel.boundingBox();
    const width = page.viewportSize()!.width;
    expect(Math.round(box!.x + box!.width)).toBe(width);
    // The overlay covers the page left of the panel; click where the panel is not.
    await overlay(page).click({ position: { x: 5, y: 200 } });
    await expect(panel).toBeHidden();
    await expect(overlay(page)).toBeHidden();
    expect(await bodyOverflow(page)).not.toBe('hidden');
  });

  test('Escape closes an open panel and focus returns to its button', { tag: '@phone-too' }, async ({ page }) => {
    await page.goto('/');
    const toggle = page.locator('[data-cart-toggle]');
    await toggle.click();
    await expect(page.locator('#cart-panel')).toBeVisible();
    // Focus moves into the panel (its close button, or the cart drawer's own first control).
    await expect
      .poll(() => page.evaluate(() => document.getElementById('cart-panel')!.contains(document.activeElement)))
      .toBe(true);
    await page.keyboard.press('Escape');
    await expect(page.locator('#cart-panel')).toBeHidden();
    await expect(toggle).toBeFocused();
  });

  // The menu button exists on small screens only.
  test('phone: the menu slides in from the left with all links; overlay click closes menu and cart', {
    tag: '@phone-only',
  }, async ({ page }) => {
    await page.goto('/');
    const menu = page.locator('#mobile-menu');
    await expect(menu).toBeHidden();
    await page.locator('[data-menu-toggle]').click();
    await expect(menu).toBeVisible();
    expect((await menu.boundingBox())!.x).toBe(0);
    for (const path of ['/', '/products', '/categories', '/contact', '/my-account', '/wishlist']) {
      await expect(menu.locator(`a[href="${path}"]`).first()).toBeVisible();
    }
    await expect(overlay(page)).toBeVisible();
    expect(await bodyOverflow(page)).toBe('hidden');
    await overlay(page).click({ position: { x: page.viewportSize()!.width - 10, y: 300 } });
    await expect(menu).toBeHidden();
    await expect(overlay(page)).toBeHidden();
    expect(await bodyOverflow(page)).not.toBe('hidden');
  });

  test('desktop: main menu, account icon with Sign In tooltip, no menu button', async ({ page }) => {
    await page.goto('/');
    const nav = page.getByRole('navigation', { name: 'Main menu' });
    for (const [name, href] of [
      ['Home', '/'],
      ['Products', '/products'],
      ['Categories', '/categories'],
      ['Contact', '/contact'],
    ]) {
      await expect(nav.getByRole('link', { name })).toHaveAttribute('href', href!);
    }
    await expect(nav.getByRole('link', { name: 'Home' })).toHaveAttribute('aria-current', 'page');
    await expect(page.locator('[data-menu-toggle]')).toBeHidden();
    const account = page.getByRole('link', { name: 'My account' });
    await expect(account).toHaveAttribute('href', '/my-account');
    await account.hover();
    await expect(page.getByRole('tooltip')).toHaveText('Sign In');
    await expect(page.locator('header [data-wishlist-link]')).toHaveAttribute('href', '/wishlist');
  });

  test(
    'a signed-in viewer gets the account wishlist link and their name in the tooltip',
    { tag: '@phone-too' },
    async ({ page }, info) => {
      await page.addInitScript(() => localStorage.setItem('meshfront:viewer', JSON.stringify({ username: 'ada' })));
      await page.goto('/de/');
      const wishlist = page
        .locator(isPhone(info.project.name) ? '#mobile-menu [data-wishlist-link]' : 'header a[data-wishlist-link]')
        .first();
      await expect(wishlist).toHaveAttribute('href', '/de/my-account?tab=wishlist');
      await expect(page.locator('[data-signin-tooltip]')).toHaveText('Angemeldet als ada');
    },
  );

  test('a route change closes the panels', { tag: '@phone-too' }, async ({ page }, info) => {
    await page.goto('/');
    if (isPhone(info.project.name)) {
      // Following a link in the menu.
      await page.locator('[data-menu-toggle]').click();
      await page.locator('#mobile-menu').getByRole('link', { name: 'Products' }).click();
      await expect(page).toHaveURL(/\/products$/);
      await expect(page.locator('#mobile-menu')).toBeHidden();
    }
    // Going back while the cart is open.
    await page.goto('/de/');
    await page.locator('[data-cart-toggle]').click();
    await expect(page.locator('#cart-panel')).toBeVisible();
    await page.goBack();
    await expect(page).not.toHaveURL(/\/de\/$/);
    await expect(page.locator('#cart-panel')).toBeHidden();
    await expect(overlay(page)).toBeHidden();
    expect(await bodyOverflow(page)).not.toBe('hidden');
  });
});

async function switchTheme(page: Page, phone: boolean) {
  if (phone) {
    await page.locator('[data-menu-toggle]').click();
    await page.locator('#mobile-menu .theme-switch').click();
    await page.keyboard.press('Escape');
  } else {
    await page.locator('header > div .theme-switch').click();
  }
}

test.describe('alert banner and theme', { tag: '@phone-too' }, () => {
  test('switching the theme persists across pages and reloads, and raises a success alert that hides after 3 s', async ({
    page,
  }, info) => {
    await page.goto('/');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'primary');
    await switchTheme(page, isPhone(info.project.name));
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'secondary');
    const alert = page.locator('#alert-banner');
    await expect(alert).toBeVisible();
    await expect(alert).toHaveAttribute('data-type', 'success');
    await expect(alert).toContainText('Color theme changed to Mint.');
    const shownAt = Date.now();
    await expect(alert).toBeHidden({ timeout: 6000 });
    expect(Date.now() - shownAt).toBeGreaterThan(1500);

    await page.reload();
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'secondary');
    await page.goto('/de/');
    await expect(page.locator('html')).toHaveAttribute('data-theme', 'secondary');
    const mainColor = await page.evaluate(() =>
      getComputedStyle(document.documentElement).getPropertyValue('--color-main').trim(),
    );
    expect(mainColor).toBe('0 140 94');
  });

  test('the alert can be dismissed before it hides by itself', async ({ page }, info) => {
    await page.goto('/');
    await switchTheme(page, isPhone(info.project.name));
    const alert = page.locator('#alert-banner');
    await expect(alert).toBeVisible();
    const box = await alert.boundingBox();
    expect(box!.y).toBeLessThan(40);
    expect(Math.round(box!.x + box!.width)).toBeGreaterThan(page.viewportSize()!.width - 40);
    await alert.getByRole('button', { name: 'Dismiss message' }).click();
    await expect(alert).toBeHidden({ timeout: 1000 });
  });
});

test.describe('contact modal', () => {
  test(
    'opens from the footer with an empty contact form and closes with Escape',
    { tag: '@phone-too' },
    async ({ page }, info) => {
      await page.goto('/');
      await page.getByRole('button', { name: 'Contact us' }).click();
      const dialog = page.getByRole('dialog', { name: 'Contact us' });
      await expect(dialog).toBeVisible();
      // Opening the modal starts with an empty form.
      await expect(dialog.getByLabel('First name')).toHaveValue('');
      await expect(dialog.getByRole('button', { name: 'Send message' })).toBeEnabled();
      if (!isPhone(info.project.name)) expect((await dialog.boundingBox())!.width).toBeGreaterThanOrEqual(656);
      await page.keyboard.press('Escape');
      await expect(dialog).toBeHidden();
    },
  );
});

test.describe('languages', () => {
  test('a first visit follows Accept-Language on the server and remembers it for the visit', async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({
      baseURL,
      locale: 'de-DE',
      extraHTTPHeaders: { 'Accept-Language': 'de-DE,de;q=0.9,en;q=0.5' },
    });
    const page = await context.newPage();
    const redirects: number[] = [];
    page.on('response', (r) => r.status() === 302 && redirects.push(r.status()));
    await page.goto('/');
    await expect(page).toHaveURL(/\/de\/$/);
    expect(redirects).toEqual([302]);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
    await expect(page.getByRole('heading', { level: 1 })).toContainText('Bau das Netzwerk');
    const cookie = (await context.cookies()).find((c) => c.name === 'locale');
    // A negotiated language is kept for the visit (a session cookie: expires -1); only a language the
    // visitor picks in the switcher is kept for a year (below).
    expect(cookie).toMatchObject({ value: 'de_DE', path: '/', sameSite: 'Lax', expires: -1 });
    await context.close();
  });

  test('the locale cookie wins over Accept-Language, and explicit locale URLs are never redirected', async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ baseURL, locale: 'en-US' });
    await context.addCookies([{ name: 'locale', value: 'fr_FR', url: baseURL! }]);
    const page = await context.newPage();
    await page.goto('/');
    await expect(page).toHaveURL(/\/fr\/$/);
    await page.goto('/it/');
    await expect(page).toHaveURL(/\/it\/$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'it-IT');
    await context.close();
  });

  test('English visitors stay on unprefixed URLs', async ({ page }) => {
    const response = await page.goto('/');
    expect(response!.status()).toBe(200);
    await expect(page).toHaveURL(/:\d+\/$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  });

  test(
    'the switcher shows a pending state, opens the same page in the chosen language and sets the cookie',
    { tag: '@phone-too' },
    async ({ page, context }, info) => {
      await page.goto('/de/');
      if (isPhone(info.project.name)) await page.locator('[data-menu-toggle]').click();
      const switcher = page.locator(
        isPhone(info.project.name) ? '#mobile-menu .language-switcher' : 'header > div .language-switcher',
      );
      // First a switch whose page never arrives (204), to see the pending state.
      await page.route(/\/es\/$/, async (route) => {
        await new Promise((r) => setTimeout(r, 300));
        await route.fulfill({ status: 204 });
      });
      await switcher.locator('select').selectOption('es_ES');
      await expect(switcher).toHaveAttribute('aria-busy', 'true');
      await expect(switcher.locator('select')).toBeDisabled();
      await expect(switcher.getByRole('status')).toHaveText(/Sprache wird gewechselt/);
      await page.unroute(/\/es\/$/);
      await page.goto('/de/');
      if (isPhone(info.project.name)) await page.locator('[data-menu-toggle]').click();
      await switcher.locator('select').selectOption('es_ES');
      await expect(page).toHaveURL(/\/es\/$/);
      await expect(page.locator('html')).toHaveAttribute('lang', 'es-ES');
      const cookie = (await context.cookies()).find((c) => c.name === 'locale');
      expect(cookie).toMatchObject({ value: 'es_ES', path: '/', sameSite: 'Lax' });
      expect(cookie!.expires - Date.now() / 1000).toBeGreaterThan(YEAR_SECONDS - 60);
      // Back to English: the cookie says English now, so the unprefixed page is not redirected.
      if (isPhone(info.project.name)) await page.locator('[data-menu-toggle]').click();
      await switcher.locator('select').selectOption('en_US');
      await expect(page).toHaveURL(/:\d+\/$/);
      await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
    },
  );
});

test.describe('errors, redirects, headers', () => {
  test('unknown paths get the 404 page with the path, status 404', async ({ page }) => {
    const response = await page.goto('/no/such-page');
    expect(response!.status()).toBe(404);
    await expect(page).toHaveTitle('Error 404 - Meshfront');
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Error 404');
    await expect(page.getByText('Page not found: /no/such-page')).toBeVisible();
    await expect(page.locator('header')).toBeVisible();
    await expect(page.locator('footer')).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex');
  });

  test('unknown paths under a locale prefix get that locale’s 404 page', async ({ page }) => {
    const response = await page.goto('/de/gibt-es-nicht');
    expect(response!.status()).toBe(404);
    await expect(page).toHaveTitle('Fehler 404 - Meshfront');
    await expect(page.getByText('Seite nicht gefunden: /de/gibt-es-nicht')).toBeVisible();
  });

  test('placeholder routes redirect permanently, keeping the locale', async ({ request }) => {
    const r = await request.get('/shop-todo', { maxRedirects: 0 });
    expect(r.status()).toBe(301);
    expect(r.headers().location).toBe('/shop');
    const de = await request.get('/de/product-details-todo?x=1', { maxRedirects: 0 });
    expect(de.status()).toBe(301);
    expect(de.headers().location).toBe('/de/products?x=1');
  });

  test('security headers are sent', async ({ request }) => {
    const r = await request.get('/');
    expect(r.headers()['x-content-type-options']).toBe('nosniff');
    expect(r.headers()['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(r.headers()['content-security-policy']).toContain("frame-ancestors 'self'");
  });

  test('latest-build.json matches the build id in the page and is not cached', async ({ page, request }) => {
    await page.goto('/');
    const id = await page.locator('meta[name="build-id"]').getAttribute('content');
    const r = await request.get(`/latest-build.json?t=${Date.now()}`);
    expect(r.headers()['cache-control']).toContain('no-store');
    const body = await r.json();
    expect(body.id).toBe(id);
    expect(new Date(body.builtAt).getTime()).toBeGreaterThan(0);
  });
});

test.describe('SEO', () => {
  test('title template, description, social card, canonical and hreflang alternates', async ({ page }) => {
    await page.goto('/de/');
    await expect(page).toHaveTitle(/ - Meshfront$/);
    const canonical = await page.locator('link[rel="canonical"]').getAttribute('href');
    expect(new URL(canonical!).pathname).toBe('/de');
    const alternates = await page
      .locator('link[rel="alternate"][hreflang]')
      .evaluateAll((links) =>
        Object.fromEntries(links.map((l) => [l.getAttribute('hreflang'), new URL(l.getAttribute('href')!).pathname])),
      );
    expect(alternates).toEqual({
      'en-US': '/',
      'de-DE': '/de',
      'es-ES': '/es',
      'fr-FR': '/fr',
      'it-IT': '/it',
      'pt-BR': '/pt-br',
      'x-default': '/',
    });
    await expect(page.locator('meta[property="og:type"]')).toHaveAttribute('content', 'website');
    await expect(page.locator('meta[name="twitter:card"]')).toHaveAttribute('content', 'summary_large_image');
    await expect(page.locator('meta[property="og:image:width"]')).toHaveAttribute('content', '1200');
    await expect(page.locator('meta[property="og:image:height"]')).toHaveAttribute('content', '675');
    const image = await page.locator('meta[property="og:image"]').getAttribute('content');
    const res = await page.request.get(new URL(image!).pathname);
    expect(res.headers()['content-type']).toBe('image/jpeg');
  });

  test('English pages carry the default description; robots.txt points at the sitemap', async ({ page, request }) => {
    await page.goto('/');
    await expect(page.locator('meta[name="description"]')).toHaveAttribute(
      'content',
      'A Proof-of-Network-Participation Crypto Project proudly built on Kadena',
    );
    const robots = await (await request.get('/robots.txt')).text();
    expect(robots).toMatch(/^Sitemap: https?:\/\/.+\/sitemap-index\.xml$/m);
    expect((await request.get('/sitemap-index.xml')).status()).toBe(200);
  });
});

test.describe('navigation behaviour', () => {
  test('links in view are prefetched, but not with data saver on', { tag: '@phone-too' }, async ({
    browser,
    baseURL,
  }) => {
    const count = async (saveData: boolean) => {
      const context = await browser.newContext({ baseURL });
      const page = await context.newPage();
      if (saveData) {
        await page.addInitScript(() =>
          Object.defineProperty(navigator, 'connection', {
            value: { saveData: true, effectiveType: '4g' },
            configurable: true,
          }),
        );
      }
      await page.goto('/');
      await page.waitForTimeout(1200);
      const n = await page.locator('link[rel="prefetch"]').count();
      await context.close();
      return n;
    };
    expect(await count(false)).toBeGreaterThan(0);
    expect(await count(true)).toBe(0);
  });

  test('the loading bar shows on slow navigations in the brand colour', async ({ page }) => {
    await page.goto('/');
    // A navigation that takes 1.5 s and then does not replace the page (204), so the bar can be watched.
    await page.route(/\/products\?slow=1$/, async (route) => {
      await new Promise((r) => setTimeout(r, 1500));
      await route.fulfill({ status: 204 });
    });
    const bar = page.locator('#loading-bar');
    // A link that was not prefetched, to a page that takes 1.5 s.
    await page.evaluate(() => {
      const a = Object.assign(document.createElement('a'), { href: '/products?slow=1', textContent: 'slow' });
      a.dataset.astroPrefetch = 'false';
      document.querySelector('main')!.prepend(a);
      a.click();
    });
    await expect(bar).toHaveAttribute('data-state', 'loading');
    const style = await bar.evaluate((el) => ({
      height: getComputedStyle(el).height,
      bg: getComputedStyle(el).backgroundColor,
    }));
    expect(style).toEqual({ height: '3px', bg: 'rgb(130, 0, 255)' });
  });

  test('a new page starts at the top; a hash URL shows its anchor', { tag: '@phone-too' }, async ({ page }) => {
    await page.goto('/#main');
    const y = await page.evaluate(() => document.getElementById('main')!.getBoundingClientRect().top);
    expect(y).toBeLessThan(120);
    await page.goto('/de/');
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
  });
});

test.describe('accessibility', { tag: '@phone-too' }, () => {
  for (const path of ['/', '/de/', '/missing-page']) {
    test(`axe finds no violations on ${path}`, async ({ page }) => {
      await page.goto(path);
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      );
    });
  }

  test('axe finds no violations with the cart panel open', async ({ page }) => {
    await page.goto('/');
    await page.locator('[data-cart-toggle]').click();
    await expect(page.locator('#cart-panel')).toBeVisible();
    await page.waitForTimeout(350);
    const results = await new AxeBuilder({ page }).analyze();
    expect(results.violations.map((v) => v.id)).toEqual([]);
  });
});
