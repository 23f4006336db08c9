/**
 * A headless WooGraphQL storefront on another origin, in a real browser: our own small client
 * (tests/fixtures/headless-client/) shows the engine's products with their images as the API gives them,
 * keeps its cart across a reload and buys as a guest with cash on delivery. Its documents are registered
 * as an operator registers a storefront's (TRUSTED_CLIENT_DOCUMENTS_DIR, playwright.config.ts) and its
 * origins are in CORS_ORIGINS; the engine runs with trusted documents only.
 *
 * - On `localhost` (the engine's own site, another port) the client keeps its session either way: with the
 *   `woocommerce-session` header it reads and sends back, or with the engine's cookie alone.
 * - On `127.0.0.1` (another site) only the header works (the cookie is SameSite=Lax), and the images need
 *   `/media` to be `Cross-Origin-Resource-Policy: cross-origin`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page, type Request } from '@playwright/test';
import { startHeadlessClient, type HeadlessClient } from '../fixtures/headless-client/server.ts';

const ENGINE = `http://localhost:${Number(process.env.E2E_PORT ?? 4399)}`;
const CLIENT_PORT = Number(process.env.E2E_HEADLESS_CLIENT_PORT ?? 4394);
const THANK_YOU = 'Thank you for your order. We will send you an email with the order details.';
/** The shop's own order lookup, as its storefront sends it (a trusted document of the engine). */
const LOOKUP_ORDER = fs.readFileSync(path.resolve('src/graphql/operations/lookupOrder.graphql'), 'utf8');

let client: HeadlessClient;
test.beforeAll(async () => {
  client = await startHeadlessClient({ port: CLIENT_PORT, engineUrl: ENGINE });
});
test.afterAll(async () => {
  await client?.close();
});

type Host = 'localhost' | '127.0.0.1';
type Mode = 'header' | 'cookie';

/** The client's calls to the engine's /graphql, with the headers the browser really sent. */
function recordEngineCalls(page: Page): Request[] {
  const calls: Request[] = [];
  page.on('request', (request) => {
    if (request.method() === 'POST' && request.url() === `${ENGINE}/graphql`) calls.push(request);
  });
  return calls;
}

async function sentHeaders(calls: Request[]) {
  return Promise.all(
    calls.map(async (call) => {
      const headers = await call.allHeaders();
      return {
        header: headers['woocommerce-session'] ?? null,
        cookie: /(?:^|;\s*)woocommerce-session=[\w.-]+/.test(headers.cookie ?? ''),
      };
    }),
  );
}

/** Opens the client's page and waits until it has asked the engine for the products and the cart. */
async function openClient(page: Page, host: Host, mode: Mode) {
  await page.goto(client.pageUrl(host, mode));
  await expect(page.locator('main')).toHaveAttribute('aria-busy', 'false');
  await expect(page.getByRole('alert')).toHaveText('');
}

/** Every product shows its image: an absolute URL on the engine's media, loaded by the browser. */
async function expectProductImagesLoad(page: Page) {
  const products = page.locator('[data-product]');
  await expect(products.first()).toBeVisible();
  const images = page.locator('[data-product] img');
  await expect(images).toHaveCount(await products.count());
  await expect
    .poll(() => images.evaluateAll((all) => all.every((img) => (img as HTMLImageElement).complete)))
    .toBe(true);
  const loaded = await images.evaluateAll((all) =>
    all.map((img) => ({
      src: img.getAttribute('src') ?? '',
      naturalWidth: (img as HTMLImageElement).naturalWidth,
    })),
  );
  for (const image of loaded) {
    expect(new URL(image.src).origin, image.src).toBe(ENGINE);
    expect(new URL(image.src).pathname, image.src).toMatch(/^\/media\//);
    expect(image.naturalWidth, image.src).toBeGreaterThan(0);
  }
}

/** Adds the first product listed; resolves with its name. */
async function addFirstProduct(page: Page): Promise<string> {
  const product = page.locator('[data-product]').first();
  const name = (await product.getByRole('heading').textContent())?.trim() ?? '';
  expect(name).not.toBe('');
  await expect(page.getByText('Your cart is empty.')).toBeVisible();
  await product.getByRole('button', { name: 'Add to cart' }).click();
  await expect(page.getByRole('status')).toHaveText(`${name} was added to your cart.`);
  await expectCartLine(page, name);
  return name;
}

async function expectCartLine(page: Page, name: string) {
  const lines = page.locator('#cart [data-cart-line]');
  await expect(lines).toHaveCount(1);
  await expect(lines).toContainText(`${name} × 1`);
  await expect(page.getByText('Your cart is empty.')).toBeHidden();
}

const uniqueEmail = (tag: string) =>
  `e2e-headless-${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;

/**
 * Checks out as a guest with cash on delivery and reads the confirmation; then asks the engine for the order
 * (the shop's order lookup, by number and e-mail) and opens the shop's own order page for it.
 */
async function checkOutAsGuest(page: Page, request: APIRequestContext, name: string, tag: string) {
  const email = uniqueEmail(tag);
  const form = page.locator('#checkout');
  await form.getByLabel('First name').fill('Ada');
  await form.getByLabel('Last name').fill('Lovelace');
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Street address').fill('Hauptstraße 1');
  await form.getByLabel('City').fill('Berlin');
  await form.getByLabel('Postcode').fill('10115');
  await form.getByLabel('Country').selectOption('DE');
  await expect(form.getByLabel('Cash on delivery')).toBeChecked();
  await form.getByRole('button', { name: 'Place order' }).click();

  const confirmation = page.locator('#confirmation');
  await expect(confirmation.getByRole('heading', { name: 'Thank you for your order' })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText('');
  const number = page.locator('#order-number');
  await expect(number).toHaveText(/^\d+$/);
  const orderNumber = (await number.textContent())?.trim() ?? '';
  const orderId = Number(await number.getAttribute('data-order-id'));
  await expect(page.locator('#order-payment')).toHaveText('Cash on delivery');
  await expect(page.locator('#order-status')).toHaveText(/^(PROCESSING|ON_HOLD)$/);
  await expect(page.locator('#order-total')).toHaveText(/^€\d+\.\d\d$/);
  const total = (await page.locator('#order-total').textContent())?.trim() ?? '';
  await expect(page.locator('#order-lines li')).toHaveText([`${name} × 1`]);
  // The session's cart is empty once the order is placed.
  await expect(page.getByText('Your cart is empty.')).toBeVisible();
  await expect(page.locator('#cart [data-cart-line]')).toHaveCount(0);

  const lookup = await request.post(`${ENGINE}/graphql`, {
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    data: { query: LOOKUP_ORDER, variables: { orderNumber, email } },
  });
  expect(lookup.status()).toBe(200);
  const body = await lookup.json();
  expect(body.errors).toBeUndefined();
  expect(body.data.lookupOrder.orderId).toBe(orderId);
  const orderKey = body.data.lookupOrder.orderKey as string;
  expect(orderKey).toBeTruthy();

  await page.goto(`${ENGINE}/checkout/order-received/${orderId}?key=${encodeURIComponent(orderKey)}`);
  await expect(page.getByText(THANK_YOU)).toBeVisible();
  await expect(page.locator('[data-order-number]')).toHaveText(orderNumber);
  await expect(page.locator('[data-order-line]')).toHaveCount(1);
  await expect(page.locator('[data-order-line]')).toContainText(name);
  await expect(page.getByText(total, { exact: true }).first()).toBeVisible();
}

test.describe('a headless storefront on another origin', () => {
  test('on the engine’s site, with the session cookie only: images load, the cart survives a reload, a guest buys with cash on delivery', async ({
    page,
    request,
  }) => {
    const calls = recordEngineCalls(page);
    await openClient(page, 'localhost', 'cookie');
    await expectProductImagesLoad(page);
    const name = await addFirstProduct(page);
    await page.reload();
    await expect(page.locator('main')).toHaveAttribute('aria-busy', 'false');
    await expectCartLine(page, name);

    // The client never sent the header: the cookie the engine set carried the session from the second call on.
    const sent = await sentHeaders(calls);
    expect(sent.length).toBeGreaterThanOrEqual(5);
    expect(sent.filter((s) => s.header !== null)).toEqual([]);
    expect(sent[0]?.cookie).toBe(false);
    expect(sent.slice(1).every((s) => s.cookie)).toBe(true);
    expect(await page.evaluate(() => localStorage.length)).toBe(0);

    await checkOutAsGuest(page, request, name, 'cookie');
  });

  test('on the engine’s site, with the woocommerce-session header: the token alone keeps the cart; a guest buys with cash on delivery', async ({
    page,
    request,
    context,
  }) => {
    const calls = recordEngineCalls(page);
    await openClient(page, 'localhost', 'header');
    await expectProductImagesLoad(page);
    const name = await addFirstProduct(page);
    // Without the cookie the stored token is all the client has.
    await context.clearCookies();
    const before = calls.length;
    await page.reload();
    await expect(page.locator('main')).toHaveAttribute('aria-busy', 'false');
    await expectCartLine(page, name);

    const sent = await sentHeaders(calls);
    expect(sent[0]?.header).toBeNull();
    for (const s of sent.slice(1)) expect(s.header).toMatch(/^Session [\w.-]+$/);
    expect(sent.slice(before).some((s) => s.cookie)).toBe(false);

    await checkOutAsGuest(page, request, name, 'header');
  });

  test('on another site, with the woocommerce-session header: images load cross-site, the stored token keeps the cart, a guest buys with cash on delivery', async ({
    page,
    request,
  }) => {
    const calls = recordEngineCalls(page);
    const media: string[] = [];
    page.on('response', async (response) => {
      if (new URL(response.url()).pathname.startsWith('/media/'))
        media.push((await response.allHeaders())['cross-origin-resource-policy'] ?? '');
    });
    await openClient(page, '127.0.0.1', 'header');
    await expectProductImagesLoad(page);
    expect(media.length).toBeGreaterThan(0);
    expect(new Set(media)).toEqual(new Set(['cross-origin']));

    const name = await addFirstProduct(page);
    const token = await page.evaluate(() => localStorage.getItem('headless-client:woocommerce-session'));
    expect(token).toMatch(/^[\w.-]+$/);
    await page.reload();
    await expect(page.locator('main')).toHaveAttribute('aria-busy', 'false');
    await expectCartLine(page, name);

    // Cross-site, the browser sends no session cookie with the client's calls: the header carries the session.
    const sent = await sentHeaders(calls);
    expect(sent.some((s) => s.cookie)).toBe(false);
    expect(sent[0]?.header).toBeNull();
    for (const s of sent.slice(1)) expect(s.header).toMatch(/^Session [\w.-]+$/);

    await checkOutAsGuest(page, request, name, 'cross-site');
  });
});
