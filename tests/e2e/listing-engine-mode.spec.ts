/**
 * The product listing in engine mode, as a shopper uses it: category filter, price sort, next page,
 * search, back button and reload, with every list coming from the engine (getProducts) page by page.
 *
 * Engine mode is what a catalog above ENGINE_THRESHOLD (src/lib/catalog/engine-query.ts, 500 products)
 * gets: the static page ships only its own page of products and the island asks the engine for every
 * change. The seeded test catalog has 45 products, so the build prebuilds the listings in local mode.
 * Instead of a second build, the test serves each listing page with the island's props switched to
 * what listingIslandData (src/pages/[...locale]/products/_lib/catalog-data.ts) gives a large catalog:
 * only this page's products, the attribute facets passed in, and `engineThreshold: 0` (the island's
 * own prop for the seam), so the island takes its engine path. No build setting is needed, so the test
 * runs in the normal `npx playwright test` / `npm test` run against the one build. Everything else — the static HTML, the island code, the engine — is the
 * real build. The test fails loudly if the island or its props cannot be found, and it waits for the
 * island's getProducts requests, which local mode never makes, so it cannot pass in local mode.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test, expect, type Page, type Request, type Route } from '@playwright/test';
import { attributeFacets, priceBounds } from '../../src/lib/catalog/filters.ts';
import { PRODUCTS_PER_PAGE } from '../../src/lib/catalog/list.ts';
import type { CatalogProduct } from '../../src/lib/catalog/types.ts';

const HYDRATION_TIMEOUT = 30_000;

/** Seed catalog (content/catalog/products): names, categories and text, the oracle for "only that category". */
interface SeedProduct {
  name: string;
  categories?: string[];
  shortDescription?: string;
  description?: string;
  status?: string;
  visibility?: string;
}
const seed: SeedProduct[] = fs
  .readdirSync(path.resolve('content/catalog/products'))
  .filter((file) => file.endsWith('.json'))
  .map((file) => JSON.parse(fs.readFileSync(path.resolve('content/catalog/products', file), 'utf8')) as SeedProduct)
  .filter((p) => (p.status ?? 'publish') === 'publish' && (p.visibility ?? 'visible') === 'visible');
const seedByName = new Map(seed.map((p) => [p.name, p]));
/** Category slug → its parent's slug (content/catalog/categories.json). */
const parentOf = new Map(
  (
    JSON.parse(fs.readFileSync(path.resolve('content/catalog/categories.json'), 'utf8')) as {
      slug: string;
      parent?: string;
    }[]
  ).map((c) => [c.slug, c.parent]),
);
/**
 * In one of `slugs` or below it: the engine, like WooGraphQL's categoryIn (a WordPress tax query with
 * include_children), lists a subcategory's products under its parent too.
 */
function inCategoryTree(product: SeedProduct, slugs: string[]): boolean {
  return (product.categories ?? []).some((slug) => {
    for (let s: string | undefined = slug; s; s = parentOf.get(s)) if (slugs.includes(s)) return true;
    return false;
  });
}

/** Two categories together have more products than one page holds, so there is a next page. */
const CATEGORIES = ['accessories', 'swag'];
const SEARCH = 'cable';

const decodeAttr = (s: string) =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const encodeAttr = (s: string) =>
  s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** Astro's island prop encoding: [0, primitive | {key: encoded}] and [1, [encoded, …]] for arrays. */
type Encoded = [number, unknown];
function fromAstro([type, value]: Encoded): unknown {
  if (type === 1) return (value as Encoded[]).map(fromAstro);
  if (type !== 0) throw new Error(`Unexpected Astro prop type ${type}; the engine-mode rewrite needs updating.`);
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fromAstro(v as Encoded)]));
  return value;
}
function toAstro(value: unknown): Encoded {
  if (Array.isArray(value)) return [1, value.map(toAstro)];
  if (value && typeof value === 'object')
    return [0, Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toAstro(v)]))];
  return [0, value];
}

/**
 * The listing HTML with the island's props as a large catalog's build has them: only this page's
 * products, the attribute facets passed in (the page can no longer collect them from the whole list; a
 * real engine-mode build passes getAllTerms' — here the ones the static HTML was rendered with, so
 * hydration matches), the whole listing's price range (likewise), and a threshold the listing is above.
 */
function engineModeHtml(html: string): string {
  const island = /(<astro-island\b[^>]*component-url="[^"]*ProductList[^"]*"[^>]*\bprops=")([^"]*)(")/;
  const match = island.exec(html);
  if (!match)
    throw new Error('The listing page has no ProductList island with props; the engine-mode rewrite needs updating.');
  const encoded = JSON.parse(decodeAttr(match[2]!)) as Record<string, Encoded>;
  const props = Object.fromEntries(Object.entries(encoded).map(([k, v]) => [k, fromAstro(v)])) as {
    products?: CatalogProduct[];
    initialPage?: number;
    attributeTaxonomies?: string[];
    [key: string]: unknown;
  };
  if (!Array.isArray(props.products))
    throw new Error('The ProductList island has no products prop; the engine-mode rewrite needs updating.');
  const from = ((props.initialPage ?? 1) - 1) * PRODUCTS_PER_PAGE;
  props.facets ??= attributeFacets(props.products, props.attributeTaxonomies ?? []);
  // Likewise the whole listing's price range, which the static HTML's price placeholders show.
  if (props.priceRange === undefined) props.priceRange = priceBounds(props.products);
  props.products = props.products.slice(from, from + PRODUCTS_PER_PAGE);
  props.engineThreshold = 0;
  const out = JSON.stringify(Object.fromEntries(Object.entries(props).map(([k, v]) => [k, toAstro(v)])));
  return html.replace(
    island,
    (_all, before: string, _props: string, after: string) => `${before}${encodeAttr(out)}${after}`,
  );
}

/** Every listing document (/products, /products/page/n) is served in engine mode. */
async function serveListingsInEngineMode(page: Page): Promise<void> {
  await page.route(/\/products(\/page\/\d+)?\/?(\?.*)?$/, async (route: Route) => {
    if (route.request().resourceType() !== 'document') return route.fallback();
    const response = await route.fetch();
    const headers = { ...response.headers() };
    // The body is handed over decoded and rewritten.
    delete headers['content-encoding'];
    delete headers['content-length'];
    await route.fulfill({ response, headers, body: engineModeHtml(await response.text()) });
  });
}

interface EngineCall {
  variables: {
    first?: number;
    where?: { categoryIn?: string[]; search?: string; orderby?: { field: string; order: string }[] };
  };
  nodes: { name: string }[];
  found: number;
}

function isGetProducts(request: Request): boolean {
  if (!request.url().includes('/graphql') || request.method() !== 'POST') return false;
  const body = request.postDataJSON() as { operationName?: string; query?: string } | null;
  return body?.operationName === 'getProducts' || /query\s+getProducts\b/.test(body?.query ?? '');
}

/** Runs `action` and returns the island's getProducts call whose variables satisfy `wanted` (earlier ones may be superseded). */
async function engineAnswer(
  page: Page,
  wanted: (variables: EngineCall['variables']) => boolean,
  action: () => Promise<unknown>,
): Promise<EngineCall> {
  const response = page
    .waitForResponse(
      (r) =>
        isGetProducts(r.request()) &&
        wanted((r.request().postDataJSON() as { variables: EngineCall['variables'] }).variables ?? {}),
      { timeout: 20_000 },
    )
    .catch((error: Error) => {
      throw new Error(
        `The listing island did not ask the engine (getProducts) for this step; is it in engine mode? ${error.message}`,
      );
    });
  await action();
  const r = await response;
  expect(r.ok()).toBe(true);
  const body = (await r.json()) as { data: { products: { nodes: { name: string }[]; found: number } } };
  return {
    variables: (r.request().postDataJSON() as { variables: EngineCall['variables'] }).variables,
    nodes: body.data.products.nodes,
    found: body.data.products.found,
  };
}

const cards = (page: Page) => page.locator('main ul > li > article');
const showing = (page: Page) => page.getByText(/^Showing \d+ to \d+ of \d+$/);
const cardNames = (page: Page) => cards(page).locator('h3').allTextContents();

/** The price the engine sorts ascending by: the card's current price, the lowest end of a range. */
async function cardLowPrices(page: Page): Promise<number[]> {
  const texts = await cards(page).locator('p > span.font-semibold').allTextContents();
  return texts.map((text) =>
    Math.min(...[...text.matchAll(/(\d+(?:[.,]\d{2})?)/g)].map((m) => Number(m[1]!.replace(',', '.')))),
  );
}

/** The price the engine sorts descending by: the highest end of a card's range. */
async function cardHighPrices(page: Page): Promise<number[]> {
  const texts = await cards(page).locator('p > span.font-semibold').allTextContents();
  return texts.map((text) =>
    Math.max(...[...text.matchAll(/(\d+(?:[.,]\d{2})?)/g)].map((m) => Number(m[1]!.replace(',', '.')))),
  );
}

function expectAscending(values: number[]) {
  expect(values).toEqual([...values].sort((a, b) => a - b));
}

async function listingReady(page: Page) {
  await page.mouse.move(1, 1);
  await expect(page.locator('[data-catalog-ready]')).toBeAttached({ timeout: HYDRATION_TIMEOUT });
}

async function openFilters(page: Page) {
  const toggle = page.getByRole('button', { name: 'Filters', exact: true });
  if ((await toggle.isVisible()) && (await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
}

const sameSet = (a: string[] | undefined, b: string[]) => [...(a ?? [])].sort().join(',') === [...b].sort().join(',');

test.describe('product listing in engine mode', () => {
  test('category, price sort, next page, search, back and reload: the cards are the engine’s answer', async ({
    page,
  }) => {
    const inCategories = seed.filter((p) => inCategoryTree(p, CATEGORIES)).map((p) => p.name);
    expect(inCategories.length, 'the seed must give the two categories more than one page').toBeGreaterThan(
      PRODUCTS_PER_PAGE,
    );

    await serveListingsInEngineMode(page);
    // The rewritten props must match the static HTML, as a real engine-mode build's do: React reports a
    // hydration mismatch as a console error.
    const consoleErrors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') consoleErrors.push(m.text());
    });
    page.on('pageerror', (e) => consoleErrors.push(e.message));
    let engineCalls = 0;
    page.on('request', (r) => {
      if (isGetProducts(r)) engineCalls++;
    });
    await page.goto('/products');
    await listingReady(page);
    // The prebuilt first page stands until the shopper changes something: no engine request yet.
    await expect(cards(page)).toHaveCount(PRODUCTS_PER_PAGE);
    expect(engineCalls).toBe(0);

    // Category: two of them; the engine is asked for the first page of both.
    await openFilters(page);
    const group = page.getByRole('group', { name: 'Category' });
    await group.getByLabel(/^Accessories/).check();
    const byCategory = await engineAnswer(
      page,
      (v) => sameSet(v.where?.categoryIn, CATEGORIES),
      async () => {
        await openFilters(page);
        await group.getByLabel(/^Swag/).check();
      },
    );
    await expect(page).toHaveURL(/\/products\?filter=category\[accessories,swag\]$/);
    expect(byCategory.variables.first).toBe(PRODUCTS_PER_PAGE);
    expect(byCategory.found).toBe(inCategories.length);
    await expect(showing(page)).toHaveText(`Showing 1 to ${PRODUCTS_PER_PAGE} of ${inCategories.length}`);
    await expect.poll(() => cardNames(page)).toEqual(byCategory.nodes.map((n) => n.name));

    // Price, low to high: the engine sorts, the cards follow its order.
    const sorted = await engineAnswer(
      page,
      (v) =>
        sameSet(v.where?.categoryIn, CATEGORIES) &&
        v.where?.orderby?.[0]?.field === 'PRICE' &&
        v.where.orderby[0].order === 'ASC',
      () => page.getByLabel('Sort by').selectOption({ label: 'Price: low to high' }),
    );
    await expect(page).toHaveURL(/\/products\?filter=category\[accessories,swag\]&orderby=price&order=ASC$/);
    await expect.poll(() => cardNames(page)).toEqual(sorted.nodes.slice(0, PRODUCTS_PER_PAGE).map((n) => n.name));
    const firstPage = await cardNames(page);
    const firstPrices = await cardLowPrices(page);
    expectAscending(firstPrices);
    for (const name of firstPage) expect(inCategories, `${name} is in ${CATEGORIES.join(' or ')}`).toContain(name);

    // Next page: the engine is asked for two pages' worth, the island shows the second.
    const nextPage = await engineAnswer(
      page,
      (v) => v.first === 2 * PRODUCTS_PER_PAGE && v.where?.orderby?.[0]?.field === 'PRICE',
      () => page.getByRole('navigation', { name: 'Pagination' }).getByRole('link', { name: 'Next' }).click(),
    );
    await expect(page).toHaveURL(/\/products\/page\/2\?filter=category\[accessories,swag\]&orderby=price&order=ASC$/);
    await expect(showing(page)).toHaveText(
      `Showing ${PRODUCTS_PER_PAGE + 1} to ${inCategories.length} of ${inCategories.length}`,
    );
    await expect.poll(() => cardNames(page)).toEqual(nextPage.nodes.slice(PRODUCTS_PER_PAGE).map((n) => n.name));
    await expect(page.getByRole('link', { name: 'Page 2' })).toHaveAttribute('aria-current', 'page');
    const secondPage = await cardNames(page);
    const secondPrices = await cardLowPrices(page);
    expectAscending(secondPrices);
    expect(Math.min(...secondPrices)).toBeGreaterThanOrEqual(Math.max(...firstPrices));
    // Both pages together are exactly the two categories, each product once.
    expect([...firstPage, ...secondPage].sort()).toEqual([...inCategories].sort());

    // Search within the filtered, sorted list: back to page 1, filter and sort kept.
    const matching = inCategories.filter((name) => {
      const p = seedByName.get(name)!;
      return `${p.name} ${p.shortDescription ?? ''} ${p.description ?? ''}`.toLowerCase().includes(SEARCH);
    });
    expect(matching.length, `some of the two categories mention "${SEARCH}"`).toBeGreaterThan(1);
    await openFilters(page);
    const search = page.getByRole('main').getByRole('search', { name: 'Search products' });
    await search.getByLabel('Search products').fill(SEARCH);
    const searched = await engineAnswer(
      page,
      (v) =>
        v.where?.search === SEARCH &&
        sameSet(v.where?.categoryIn, CATEGORIES) &&
        v.where?.orderby?.[0]?.field === 'PRICE',
      () => search.getByRole('button', { name: 'Search' }).click(),
    );
    await expect(page).toHaveURL(
      /\/products\?filter=category\[accessories,swag\]&orderby=price&order=ASC&search=cable$/,
    );
    expect(searched.variables.first).toBe(PRODUCTS_PER_PAGE);
    await expect(showing(page)).toHaveText(`Showing 1 to ${matching.length} of ${matching.length}`);
    await expect.poll(() => cardNames(page)).toEqual(searched.nodes.map((n) => n.name));
    expect((await cardNames(page)).sort()).toEqual([...matching].sort());
    expectAscending(await cardLowPrices(page));

    // Back: the second page of the unsearched list again, asked of the engine again.
    const back = await engineAnswer(
      page,
      (v) => v.first === 2 * PRODUCTS_PER_PAGE && !v.where?.search,
      () => page.goBack(),
    );
    await expect(page).toHaveURL(/\/products\/page\/2\?filter=category\[accessories,swag\]&orderby=price&order=ASC$/);
    await expect.poll(() => cardNames(page)).toEqual(back.nodes.slice(PRODUCTS_PER_PAGE).map((n) => n.name));
    expect(await cardNames(page)).toEqual(secondPage);

    // The URL is the state: a reload of the prebuilt page 2 (engine mode again) shows the same cards.
    const reloaded = await engineAnswer(
      page,
      (v) => v.first === 2 * PRODUCTS_PER_PAGE && sameSet(v.where?.categoryIn, CATEGORIES),
      () => page.reload(),
    );
    await listingReady(page);
    await expect(showing(page)).toHaveText(
      `Showing ${PRODUCTS_PER_PAGE + 1} to ${inCategories.length} of ${inCategories.length}`,
    );
    await expect.poll(() => cardNames(page)).toEqual(reloaded.nodes.slice(PRODUCTS_PER_PAGE).map((n) => n.name));
    expect(await cardNames(page)).toEqual(secondPage);
    expect(consoleErrors).toEqual([]);
  });
  test('both modes and the category page agree: Accessories includes its subcategories, price sorts by the cheapest (ascending) and dearest (descending) price', async ({
    page,
    context,
  }) => {
    const accessories = seed
      .filter((p) => inCategoryTree(p, ['accessories']))
      .map((p) => p.name)
      .sort();
    expect(
      seed.some((p) => inCategoryTree(p, ['accessories']) && !(p.categories ?? []).includes('accessories')),
      'the seed has a product filed only under a subcategory of accessories',
    ).toBe(true);
    const local = await context.newPage();

    // Engine mode, straight from a URL with the filter (the island hydrates at once and asks the engine).
    await serveListingsInEngineMode(page);
    const engine = await engineAnswer(
      page,
      (v) => sameSet(v.where?.categoryIn, ['accessories']),
      () => page.goto('/products?filter=category[accessories]'),
    );
    expect(engine.found).toBe(accessories.length);
    await expect(showing(page)).toHaveText(`Showing 1 to ${accessories.length} of ${accessories.length}`);
    expect([...(await cardNames(page))].sort()).toEqual(accessories);

    // Local mode: the same URL, filtered in the browser.
    await local.goto('/products?filter=category[accessories]');
    await listingReady(local);
    await expect(showing(local)).toHaveText(`Showing 1 to ${accessories.length} of ${accessories.length}`);
    await expect.poll(async () => [...(await cardNames(local))].sort()).toEqual(accessories);

    // The prebuilt category page, before any script.
    await local.goto('/product-category/accessories');
    await expect(local.getByText(`${accessories.length} products`, { exact: true })).toBeVisible();
    expect([...(await cardNames(local))].sort()).toEqual(accessories);

    // Price sorts over two categories with variable products (swag): the same price sequence in both modes
    // (names may differ only among equal prices).
    for (const order of ['ASC', 'DESC'] as const) {
      const url = `/products?filter=category[accessories,swag]&orderby=price&order=${order}`;
      const prices = order === 'ASC' ? cardLowPrices : cardHighPrices;
      await engineAnswer(
        page,
        (v) => v.where?.orderby?.[0]?.field === 'PRICE' && v.where.orderby[0].order === order,
        () => page.goto(url),
      );
      await expect(cards(page)).toHaveCount(PRODUCTS_PER_PAGE);
      const engineNames = await cardNames(page);
      const enginePrices = await prices(page);
      expect(enginePrices).toEqual(
        order === 'ASC' ? [...enginePrices].sort((a, b) => a - b) : [...enginePrices].sort((a, b) => b - a),
      );
      await local.goto(url);
      await listingReady(local);
      await expect.poll(async () => (await prices(local)).join(' ')).toBe(enginePrices.join(' '));
      // The same products too, except where equal prices straddle the page end (tie order is not specified).
      const boundary = enginePrices.at(-1);
      const clearOf = (names: string[]) => names.filter((_, i) => enginePrices[i] !== boundary).sort();
      expect(clearOf(await cardNames(local))).toEqual(clearOf(engineNames));
    }
  });
});
