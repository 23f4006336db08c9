/**
 * The catalog as a shopper uses it, on the seeded catalog (content/catalog): listing filters, search,
 * sort, paging and clearing; a variable product's variation picker; the wishlist across a reload;
 * 404s for unknown products and listing pages; and axe on the catalog pages. Runs on the desktop; the
 * tests tagged @phone-too on the phone as well (playwright.config.ts).
 */
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

const TOTAL_PRODUCTS = 45;

/**
 * The listing island hydrates on the visitor's first interaction (client:interaction: no React before
 * it, the JavaScript budget), or at once when the URL carries a filter, search or sort; it marks itself
 * once it has hydrated and follows the URL. A pointer move is such a first interaction.
 */
async function listingReady(page: Page) {
  await page.mouse.move(1, 1);
  // The same interaction starts the session (getCart): on a cold engine that first request holds the
  // single Node process for a while, and the island's code arrives after it.
  await expect(page.locator('[data-catalog-ready]')).toBeAttached({ timeout: HYDRATION_TIMEOUT });
}

/** How long hydration after the first interaction may take on a cold, busy test server. */
const HYDRATION_TIMEOUT = 30_000;

/** Islands Astro has not hydrated yet keep their `ssr` attribute. */
const waitingIslands = (page: Page) => page.locator('main astro-island[ssr]');

/** On phones the filter panel sits behind a 'Filters' toggle. */
async function openFilters(page: Page) {
  const toggle = page.getByRole('button', { name: 'Filters', exact: true });
  if (await toggle.isVisible()) {
    if ((await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
  }
}

const cards = (page: Page) => page.locator('main ul > li > article');
const showing = (page: Page) => page.getByText(/^Showing \d+ to \d+ of \d+$/);

/** The ends of each card's current price (a range "€49.00 – €89.00", or one price twice). */
async function cardPriceRanges(page: Page): Promise<[number, number][]> {
  const texts = await cards(page).locator('p > span.font-semibold').allTextContents();
  return texts.map((text) => {
    const amounts = [...text.matchAll(/(\d+(?:[.,]\d{2})?)/g)].map((m) => Number(m[1].replace(',', '.')));
    return [Math.min(...amounts), Math.max(...amounts)];
  });
}

/**
 * The price a card sorts by high to low (and the price filter checks): the highest end of its range.
 * Low to high sorts by the lowest end (WooCommerce's rule, as the engine): cardLowPrices.
 */
async function cardPrices(page: Page): Promise<number[]> {
  return (await cardPriceRanges(page)).map(([, high]) => high);
}
async function cardLowPrices(page: Page): Promise<number[]> {
  return (await cardPriceRanges(page)).map(([low]) => low);
}

async function cardNames(page: Page): Promise<string[]> {
  return cards(page).locator('h3').allTextContents();
}

test.describe('product listing', () => {
  test('static page 1 shows 24 of the catalog with numbered pagination before any script runs', async ({ browser }) => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto('/products');
    await expect(page.getByRole('heading', { level: 1, name: 'Products' })).toBeVisible();
    await expect(showing(page)).toHaveText(`Showing 1 to 24 of ${TOTAL_PRODUCTS}`);
    await expect(cards(page)).toHaveCount(24);
    await expect(page.getByRole('link', { name: 'Page 2' })).toHaveAttribute('href', '/products/page/2');
    await context.close();
  });

  test('a shopper filters by category and price, searches, sorts by price both ways, clears all and pages', {
    tag: '@phone-too',
  }, async ({ page }) => {
    await page.goto('/products');
    await listingReady(page);
    await expect(showing(page)).toHaveText(`Showing 1 to 24 of ${TOTAL_PRODUCTS}`);

    // Category: the seven antennas.
    await openFilters(page);
    await page
      .getByRole('group', { name: 'Category' })
      .getByLabel(/^Antennas/)
      .check();
    await expect(page).toHaveURL(/[?&]filter=category\[antennas\]/);
    await expect(showing(page)).toHaveText('Showing 1 to 7 of 7');

    // Price, inclusive range on the highest variation price: 24, 39, 59 and the 49–89 fiberglass antenna.
    await openFilters(page);
    const price = page.getByRole('group', { name: 'Price (€)' });
    await price.getByLabel('Min').fill('20');
    await price.getByLabel('Max').fill('100');
    await price.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/filter=category\[antennas\],price\[20,100\]/);
    await expect(showing(page)).toHaveText('Showing 1 to 4 of 4');
    for (const value of await cardPrices(page)) {
      expect(value).toBeGreaterThanOrEqual(20);
      expect(value).toBeLessThanOrEqual(100);
    }

    // Sort by price, both ways: the order of the prices on screen. Low to high goes by the cheapest
    // variation, so the 49–89 fiberglass antenna comes before the 59 one; high to low by the dearest.
    const sort = page.getByLabel('Sort by');
    await sort.selectOption({ label: 'Price: low to high' });
    await expect(page).toHaveURL(/orderby=price&order=ASC/);
    await expect
      .poll(() => cardPriceRanges(page))
      .toEqual([
        [24, 24],
        [39, 39],
        [49, 89],
        [59, 59],
      ]);
    expect(await cardLowPrices(page)).toEqual([24, 39, 49, 59]);
    await sort.selectOption({ label: 'Price: high to low' });
    await expect(page).toHaveURL(/orderby=price&order=DESC/);
    await expect.poll(() => cardPrices(page)).toEqual([89, 59, 39, 24]);

    // Search within the filtered list.
    await openFilters(page);
    const search = page.getByRole('main').getByRole('search', { name: 'Search products' });
    await search.getByLabel('Search products').fill('window');
    await search.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/search=window/);
    await expect(showing(page)).toHaveText('Showing 1 to 1 of 1');
    await expect(cardNames(page)).resolves.toEqual(['Meshfront Window Antenna, 4 dBi, 3 m cable']);

    // A search without matches, then clear all from the empty state: filters and search go, the sort stays.
    await search.getByLabel('Search products').fill('no such gadget');
    await search.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByRole('heading', { name: 'No products found' })).toBeVisible();
    await page.getByRole('main').getByRole('button', { name: 'Clear all filters and search' }).first().click();
    await expect(page).not.toHaveURL(/filter=|search=/);
    await expect(page).toHaveURL(/orderby=price&order=DESC/);
    await expect(showing(page)).toHaveText(`Showing 1 to 24 of ${TOTAL_PRODUCTS}`);
    const all = await cardPrices(page);
    expect(all).toEqual([...all].sort((a, b) => b - a));

    // Paging keeps the sort and shows the rest.
    await page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Page 2' }).click();
    await expect(page).toHaveURL(/\/products\/page\/2\?orderby=price&order=DESC$/);
    await expect(showing(page)).toHaveText(`Showing 25 to ${TOTAL_PRODUCTS} of ${TOTAL_PRODUCTS}`);
    await expect(cards(page)).toHaveCount(TOTAL_PRODUCTS - 24);
    const second = await cardPrices(page);
    expect(Math.max(...second)).toBeLessThanOrEqual(Math.min(...all));
    await expect(page.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');

    // The URL is the state: a reload shows the same page.
    await page.reload();
    await listingReady(page);
    await expect(showing(page)).toHaveText(`Showing 25 to ${TOTAL_PRODUCTS} of ${TOTAL_PRODUCTS}`);
  });

  test('the listing loads no island code before the first interaction, and a first tap is not lost', {
    tag: '@phone-too',
  }, async ({ page }) => {
    await page.goto('/products');
    await page.waitForLoadState('networkidle');
    await expect(waitingIslands(page)).toHaveCount(1);
    await expect(page.locator('[data-catalog-ready]')).toHaveCount(0);
    // The first thing the shopper does is open the sort menu's neighbour: the filter toggle on a phone,
    // a category checkbox on a desktop. The tap arrives before the island has hydrated and still counts.
    const toggle = page.getByRole('button', { name: 'Filters', exact: true });
    if (await toggle.isVisible()) {
      await toggle.click();
      await expect(toggle).toHaveAttribute('aria-expanded', 'true', { timeout: HYDRATION_TIMEOUT });
    } else {
      await page
        .getByRole('group', { name: 'Category' })
        .getByLabel(/^Antennas/)
        .click();
      await expect(page).toHaveURL(/[?&]filter=category\[antennas\]/, { timeout: HYDRATION_TIMEOUT });
      await expect(showing(page)).toHaveText('Showing 1 to 7 of 7');
    }
    await expect(waitingIslands(page)).toHaveCount(0);
  });

  test('the header search lands on the product list filtered by the term', async ({ page }) => {
    await page.goto('/products?search=lora+gateway');
    await listingReady(page);
    await expect(showing(page)).toHaveText('Showing 1 to 1 of 1');
    await expect.poll(() => cardNames(page)).toEqual(['Meshfront Indoor Gateway']);
    // Case-insensitive, on name and descriptions: three antennas mention fiberglass.
    await page.goto('/products?search=FIBERGLASS');
    await listingReady(page);
    await expect(showing(page)).toHaveText('Showing 1 to 3 of 3');
    await expect
      .poll(async () => (await cardNames(page)).sort())
      .toEqual([
        'Meshfront 10 dBi High-Gain Fiberglass Antenna (EU868)',
        'Meshfront Fiberglass Outdoor Antenna',
        'Meshfront Wideband Outdoor Antenna 824–960 MHz',
      ]);
  });

  test('a category route lists only that category and keeps it while searching', async ({ page }) => {
    await page.goto('/product-category/antennas');
    await expect(page.getByRole('heading', { level: 1, name: 'Antennas' })).toBeVisible();
    await listingReady(page);
    await expect(showing(page)).toHaveText('Showing 1 to 7 of 7');
    await openFilters(page);
    const search = page.getByRole('main').getByRole('search', { name: 'Search products' });
    await search.getByLabel('Search products').fill('stub');
    await search.getByRole('button', { name: 'Search' }).click();
    await expect(page).toHaveURL(/\/product-category\/antennas\?search=stub$/);
    await expect(showing(page)).toHaveText('Showing 1 to 1 of 1');
    await expect.poll(() => cardNames(page)).toEqual(['Meshfront 3 dBi Stub Antenna (RP-SMA)']);
  });

  test('a listing page that does not exist answers 404 "Page Not Found: {path}"', async ({ page }) => {
    for (const path of [
      '/products/page/3',
      '/products/page/0',
      '/products/page/two',
      '/de/product-category/antennas/page/2',
    ]) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(404);
      await expect(page.locator('[data-error-message]')).toHaveText(
        path.startsWith('/de/') ? `Seite nicht gefunden: ${path}` : `Page Not Found: ${path}`,
      );
    }
  });
});

test.describe('product page', () => {
  test('a variable product: picking a variation shows its price and image; wishlist survives a reload', {
    tag: '@phone-too',
  }, async ({ page }) => {
    await page.goto('/product/meshfront-indoor-gateway');
    await expect(page.getByRole('heading', { level: 1, name: 'Meshfront Indoor Gateway' })).toBeVisible();
    await expect(page.getByText('SKU: MF-GW-IN')).toBeVisible();
    const breadcrumb = page.getByRole('navigation', { name: 'Breadcrumb' });
    await expect(breadcrumb.getByRole('link', { name: 'Home' })).toBeVisible();
    await expect(breadcrumb.getByRole('link', { name: 'Gateways' })).toHaveAttribute(
      'href',
      '/product-category/gateways',
    );

    const picker = page.locator('astro-island[component-url*="VariationPicker"]');
    const priceLine = picker.locator('[aria-live="polite"]').first();
    const mainImage = page.getByRole('group', { name: /^Image \d+ of \d+$/ }).locator('img');

    // The default variation (EU868) is chosen on load; its image in the gallery shows both islands run.
    await expect(picker.getByRole('radio', { name: 'EU868' })).toBeChecked();
    await expect(priceLine).toContainText('€189.00');
    await expect(mainImage).toHaveAttribute('src', /meshfront-indoor-gateway-eu868\.svg/);
    await expect(page.getByRole('group', { name: 'Frequency band EU868' })).toBeVisible();

    // The islands hydrate on this first interaction; the click is held until then and still counts.
    await picker.getByText('AS923', { exact: true }).click();
    await expect(picker.getByRole('radio', { name: 'AS923' })).toBeChecked({ timeout: HYDRATION_TIMEOUT });
    await expect(priceLine).toContainText('€199.00');
    await expect(priceLine).not.toContainText('€189.00');
    await expect(mainImage).toHaveAttribute('src', /meshfront-indoor-gateway-as923\.svg/);

    await picker.getByText('US915', { exact: true }).click();
    await expect(priceLine).toContainText('€189.00');
    await expect(mainImage).toHaveAttribute('src', /meshfront-indoor-gateway-us915\.svg/);

    // With a variation chosen, the product can go into the cart (the buying flow is tests/e2e/checkout.spec.ts).
    const addToCart = page.locator('[data-add-to-cart]');
    // Scroll by selector, not by element handle: hydration may swap the server-rendered node meanwhile.
    await page.evaluate(() => document.querySelector('[data-add-to-cart]')?.scrollIntoView({ block: 'center' }));
    await expect(addToCart).toHaveText('Add to cart');
    await expect(addToCart).toBeEnabled();

    // The heart hydrates when the browser is idle; a click before that does nothing, so retry until it took.
    const saved = page.getByRole('button', { name: 'In your wishlist' });
    await expect(async () => {
      if (!(await saved.isVisible())) await page.getByRole('button', { name: 'Add to wishlist' }).click();
      await expect(saved).toHaveAttribute('aria-pressed', 'true', { timeout: 1000 });
    }).toPass();

    await page.goto('/wishlist');
    await page.reload();
    const list = page.getByRole('main');
    await expect(list.getByRole('link', { name: 'Meshfront Indoor Gateway' })).toHaveAttribute(
      'href',
      '/product/meshfront-indoor-gateway',
    );
    // A variable product cannot go to the cart without a chosen variation: move-to-cart opens its page.
    await list.getByRole('button', { name: /^Move to cart\s*:\s*Meshfront Indoor Gateway$/ }).click();
    await expect(page).toHaveURL(/\/product\/meshfront-indoor-gateway$/);
    await page.goto('/wishlist');
    await page.getByRole('button', { name: 'Remove Meshfront Indoor Gateway from the wishlist' }).click();
    await expect(page.getByRole('heading', { name: 'Your wishlist is empty' })).toBeVisible();
  });

  test('a simple product on sale shows sale and regular price, the percent badge, reviews and related products', async ({
    page,
  }) => {
    await page.goto('/product/meshfront-window-antenna');
    const picker = page.locator('astro-island[component-url*="VariationPicker"]');
    await expect(picker).toContainText('€24.00');
    await expect(picker).toContainText('€29.00');
    await expect(picker).toContainText('-17%');
    await expect(picker.getByText('In stock')).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Reviews' })).toBeVisible();
    await expect(page.locator('#reviews li')).toHaveCount(3);
    const related = page.locator('section[aria-labelledby="product-related"] article');
    expect(await related.count()).toBeGreaterThan(0);
    expect(await related.count()).toBeLessThanOrEqual(5);
    const blocks = await page
      .locator('script[type="application/ld+json"]')
      .evaluateAll((nodes) => nodes.map((n) => JSON.parse(n.textContent ?? '{}')));
    const jsonLd = blocks.find((block) => block['@type'] === 'Product');
    expect(jsonLd).toMatchObject({
      '@type': 'Product',
      sku: expect.any(String),
      offers: { price: '24.00', priceCurrency: 'EUR' },
    });
  });

  test('an external product links to the partner instead of a cart', async ({ page }) => {
    await page.goto('/product/partner-solar-gateway-kit');
    const buy = page.getByRole('link', { name: /opens the partner’s shop in a new tab/ });
    await expect(buy).toHaveAttribute('target', '_blank');
    await expect(buy).toHaveAttribute('href', /^https?:\/\//);
  });

  test('an unknown product answers 404 "Product not found"', async ({ page }) => {
    const response = await page.goto('/product/no-such-product');
    expect(response?.status()).toBe(404);
    await expect(page.locator('[data-error-message]')).toHaveText('Product not found');
  });
});

test.describe('categories', () => {
  test('every category with image, description and count, linking to its listing', async ({ page }) => {
    await page.goto('/categories');
    await expect(page.getByRole('heading', { level: 1, name: 'Categories' })).toBeVisible();
    const gateways = page.locator('article').filter({ has: page.getByRole('link', { name: 'Gateways', exact: true }) });
    await expect(gateways.getByText('8 products')).toBeVisible();
    await expect(gateways.locator('img')).toHaveAttribute('src', /category-gateways\.svg/);
    await gateways.getByRole('link', { name: 'Gateways', exact: true }).click();
    await expect(page).toHaveURL(/\/product-category\/gateways$/);
    await expect(showing(page)).toHaveText('Showing 1 to 8 of 8');
  });
});

test.describe('accessibility', { tag: '@phone-too' }, () => {
  const pages = ['/products', '/product/meshfront-indoor-gateway', '/categories', '/wishlist'];
  for (const path of pages) {
    test(`axe finds no violations on ${path}`, async ({ page }) => {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      const results = await new AxeBuilder({ page }).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      );
    });
  }
});
