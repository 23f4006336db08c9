/**
 * The shop admin at /admin, end to end: only a shop manager gets in (a guest gets the login form, a
 * customer a refusal, never data); an operator lowers a product's price and raises its stock, publishes,
 * and a shopper then sees the new price in the static product page; an operator completes a
 * cash-on-delivery order and the customer's mail outbox has the e-mail; the admin pages are axe-clean.
 *
 * The shop manager and the customer are made before the web server starts (tests/e2e/admin-accounts.ts,
 * run by playwright.config.ts's webServer command). The publish runs a real `astro build` against the
 * server's own engine and data directory, so that test gets minutes.
 */
import path from 'node:path';
import { test, expect, type Browser, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { readOutbox, type OutboxMessage } from '../../src/server/mail/mailer.ts';
import { E2E_ADMIN, E2E_CUSTOMER } from './admin-accounts.ts';
import { fillGermanBillingAddress } from './helpers.ts';

test.describe.configure({ mode: 'serial' });

/** A product no other browser test buys or prices. */
const PRODUCT = { slug: 'meshfront-lanyard', name: 'Meshfront Lanyard' };
const outboxDir = path.resolve(process.env.MESHFRONT_DATA_DIR ?? 'var/e2e', 'mail');

async function logIn(page: Page, account: { username: string; password: string }, from = '/admin') {
  await page.goto(from);
  await expect(page).toHaveURL(/\/admin\/login\?/);
  await page.getByLabel('Username or e-mail').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

async function logInAsAdmin(page: Page, from = '/admin') {
  await logIn(page, E2E_ADMIN, from);
  await expect(page.getByRole('navigation', { name: 'Admin' })).toBeVisible();
}

function uniqueEmail(tag: string) {
  return `e2e-${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

/** "5.63" → "€5.63" as the shop writes it. */
const euro = (decimal: string) => `€${decimal}`;

/** A shopper's cash-on-delivery order of one PRODUCT, placed through the storefront checkout. */
async function placeCashOnDeliveryOrder(
  browser: Browser,
  tag: string,
): Promise<{ email: string; orderNumber: string }> {
  const shopper = await browser.newContext();
  const shop = await shopper.newPage();
  const email = uniqueEmail(tag);
  await shop.goto(`/product/${PRODUCT.slug}`);
  await shop.evaluate(() => document.querySelector('[data-add-to-cart]')?.scrollIntoView({ block: 'center' }));
  await expect(shop.locator('[data-add-to-cart]')).toBeEnabled();
  await shop.locator('[data-add-to-cart]').click();
  await expect(shop.getByRole('status').filter({ hasText: 'was added to your cart' })).toBeVisible();
  await shop.goto('/checkout');
  const form = shop.locator('[data-checkout-form]');
  await expect(form).toBeVisible();
  await fillGermanBillingAddress(shop);
  await shop.locator('#checkout-billing-firstName').fill('Grace');
  await shop.locator('#checkout-billing-lastName').fill('Hopper');
  await shop.locator('#checkout-billing-email').fill(email);
  await form.locator('input[name="paymentMethod"][value="cod"]').check();
  await form.locator('[data-place-order]').click();
  await expect(shop).toHaveURL(/\/checkout\/order-received\/\d+\?key=/);
  const orderNumber = ((await shop.locator('[data-order-number]').textContent()) ?? '').replace(/\D/g, '');
  expect(orderNumber).not.toBe('');
  await shopper.close();
  return { email, orderNumber };
}

/** The stock quantity the operator sees on PRODUCT's admin screen. */
async function adminStock(page: Page): Promise<number> {
  await page.goto('/admin/products?search=lanyard');
  await page.getByRole('link', { name: PRODUCT.name, exact: true }).click();
  return Number(await page.getByRole('textbox', { name: 'Stock quantity', exact: true }).inputValue());
}

test.describe('shop admin', () => {
  test('a guest gets the login form, a customer a refusal, never data; nothing is indexed or prebuilt', async ({
    page,
    request,
  }) => {
    for (const p of ['/admin', '/admin/orders', '/admin/export/contact-messages']) {
      const r = await request.get(p, { maxRedirects: 0 });
      expect(r.status(), p).toBe(303);
      expect(r.headers().location, p).toMatch(/^\/admin\/login\?next=/);
      expect(r.headers()['x-robots-tag'], p).toContain('noindex');
    }
    const login = await request.get('/admin/login');
    expect(login.status()).toBe(200);
    expect(login.headers()['x-robots-tag']).toContain('noindex');
    expect(login.headers()['cache-control']).toContain('no-store');
    // Not in the sitemap (and so never prebuilt into it).
    const index = await (await request.get('/sitemap-index.xml')).text();
    for (const loc of [...index.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => new URL(m[1]!).pathname)) {
      expect(await (await request.get(loc)).text()).not.toContain('/admin');
    }
    // A cross-site form post is refused before it reaches the page.
    const forged = await request.post('/admin/login', {
      form: { username: E2E_ADMIN.username, password: E2E_ADMIN.password },
      headers: { origin: 'https://evil.example' },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);

    await page.goto('/admin/orders');
    await expect(page).toHaveURL(/\/admin\/login\?next=%2Fadmin%2Forders/);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
    await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0);

    // A wrong password: a clear message, still the form.
    await page.getByLabel('Username or e-mail').fill(E2E_ADMIN.username);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Log in' }).click();
    await expect(page.getByRole('alert')).toHaveText('The username or password is wrong.');

    // A customer's right password opens nothing.
    await logIn(page, E2E_CUSTOMER, '/admin/orders');
    await expect(page.getByRole('alert')).toHaveText(
      'This account cannot use the shop admin. Log in with a shop manager’s account.',
    );
    await expect(page.getByRole('navigation', { name: 'Admin' })).toHaveCount(0);
    expect((await page.context().cookies()).some((c) => c.name === 'meshfront_admin')).toBe(false);
    await page.goto('/admin/orders');
    await expect(page).toHaveURL(/\/admin\/login\?/);
    await expect(page.locator('table')).toHaveCount(0);
  });

  test('an operator lowers a price and raises stock, publishes, and a shopper sees the new price on the static page', async ({
    page,
    browser,
    request,
  }) => {
    test.setTimeout(15 * 60_000);
    await logInAsAdmin(page);
    const cookie = (await page.context().cookies()).find((c) => c.name === 'meshfront_admin');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/admin' });

    await page.getByRole('link', { name: 'Products', exact: true }).click();
    await page.getByRole('searchbox', { name: 'Search' }).fill('lanyard');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('link', { name: PRODUCT.name, exact: true }).click();
    await expect(page.getByRole('heading', { level: 1, name: PRODUCT.name })).toBeVisible();

    // The shop's prices are entered including VAT (TAX_PRICES_INCLUDE_TAX): the inputs say so.
    await expect(page.locator('[data-price-entry-tax]').first()).toHaveText('Price (euros, including VAT)');
    const price = page.getByRole('textbox', { name: 'Regular price (incl. VAT)', exact: true });
    const stock = page.getByRole('textbox', { name: 'Stock quantity', exact: true });
    const oldCents = Math.round(Number(await price.inputValue()) * 100);
    const oldStock = Number(await stock.inputValue());
    expect(oldCents).toBeGreaterThan(100);
    const newCents = oldCents - 37;
    const newPrice = `${Math.floor(newCents / 100)}.${String(newCents % 100).padStart(2, '0')}`;
    const oldPrice = `${Math.floor(oldCents / 100)}.${String(oldCents % 100).padStart(2, '0')}`;

    // A typo is refused next to its field; nothing is saved.
    await price.fill('5,63');
    await page.getByRole('button', { name: 'Save price and stock' }).click();
    await expect(page.locator('[data-field-error="regularPrice"]')).toHaveText(
      'Regular price must be an amount in euros, like 12 or 12.50.',
    );
    await expect(page.getByRole('textbox', { name: 'Regular price (incl. VAT)', exact: true })).toHaveAttribute(
      'aria-invalid',
      'true',
    );

    await page.getByRole('textbox', { name: 'Regular price (incl. VAT)', exact: true }).fill(newPrice);
    await page.getByRole('textbox', { name: 'Stock quantity', exact: true }).fill(String(oldStock + 25));
    await page.getByRole('button', { name: 'Save price and stock' }).click();
    await expect(page.getByRole('status')).toHaveText('Saved.');
    await expect(page.getByRole('textbox', { name: 'Regular price (incl. VAT)', exact: true })).toHaveValue(newPrice);
    await expect(page.getByRole('textbox', { name: 'Stock quantity', exact: true })).toHaveValue(String(oldStock + 25));

    // The static page still has the old price until the site is published.
    const staticHtml = async () => (await request.get(`/product/${PRODUCT.slug}`)).text();
    expect(await staticHtml()).toContain(euro(oldPrice));
    expect(await staticHtml()).not.toContain(euro(newPrice));

    await page.getByRole('link', { name: 'Publish', exact: true }).click();
    await expect(page.locator('[data-publish-stale]')).toHaveAttribute('data-publish-stale', 'yes');
    await page.getByRole('button', { name: 'Publish now' }).click();
    await expect(page.getByRole('status').first()).toContainText('Publishing started');
    await expect(page.locator('[data-publish-state]')).toHaveAttribute('data-publish-state', 'running');
    // While it runs, the page shows the build's log tail (stored with each heartbeat).
    await expect(page.locator('[data-publish-log]')).toBeVisible();
    const publishPage = async () => (await page.request.get('/admin/publish')).text();
    // The build runs in the server (minutes on a loaded machine); the page reloads itself meanwhile.
    await expect
      .poll(async () => (await publishPage()).match(/data-publish-state="(\w+)"/)?.[1], {
        timeout: 12 * 60_000,
        // Under the server's 5 s keep-alive timeout: a request sent on a kept-alive connection just as the
        // server closes it is reset, and the test's HTTP client (unlike a browser) does not retry it.
        intervals: [3_000],
      })
      .not.toBe('running');
    // The open page follows by itself (it reloads while the publish runs) and ends on the result.
    await expect(page.locator('[data-publish-state]')).toHaveAttribute('data-publish-state', 'idle', {
      timeout: 30_000,
    });
    await expect(page.locator('[data-publish-stale]')).toHaveAttribute('data-publish-stale', 'no');
    await expect(page.locator('[data-publish-log]')).toContainText(/published build \S+ in \d+ s/);

    // The server switches to the new build once it has loaded it.
    await expect.poll(staticHtml, { timeout: 60_000 }).toContain(euro(newPrice));
    const shopper = await browser.newContext({ javaScriptEnabled: false });
    const shop = await shopper.newPage();
    await shop.goto(`/product/${PRODUCT.slug}`);
    await expect(shop.getByRole('heading', { level: 1, name: PRODUCT.name })).toBeVisible();
    await expect(shop.getByText(euro(newPrice), { exact: true }).first()).toBeVisible();
    await shopper.close();
  });

  test('an operator completes a cash-on-delivery order with a tracking number and the customer gets the e-mail', async ({
    page,
    browser,
  }) => {
    test.setTimeout(3 * 60_000);
    const { email, orderNumber } = await placeCashOnDeliveryOrder(browser, 'admin-cod');

    // The operator finds it by the customer's e-mail and completes it.
    await logInAsAdmin(page, `/admin/orders?customer=${encodeURIComponent(email)}`);
    await expect(page).toHaveURL(/\/admin\/orders\?customer=/);
    await expect(page.locator('[data-order-row]')).toHaveCount(1);
    await page.getByRole('link', { name: `#${orderNumber}` }).click();
    await expect(page.getByRole('heading', { level: 1, name: `Order #${orderNumber}` })).toBeVisible();
    await expect(page.locator('[data-order-status]')).toHaveAttribute('data-order-status', 'PROCESSING');

    const complete = page.locator('[data-order-action="complete"]');
    await complete.getByLabel('Tracking number').fill('JJD000390007');
    await complete.getByLabel('Carrier').fill('DHL');
    await complete.getByLabel('Tracking link').fill('ftp://tracking.example/JJD000390007');
    await complete.getByRole('button', { name: 'Mark as completed' }).click();
    await expect(page.locator('[data-field-error="trackingUrl"]')).toHaveText(
      'The tracking link must be a full address starting with https://.',
    );
    await expect(page.locator('[data-order-status]')).toHaveAttribute('data-order-status', 'PROCESSING');

    await complete.getByLabel('Tracking link').fill('https://tracking.example/JJD000390007');
    await complete.getByLabel('Note to the customer').fill('Packed with care.');
    await expect(complete.getByLabel(/E-mail the customer/)).toBeChecked();
    await complete.getByRole('button', { name: 'Mark as completed' }).click();
    await expect(page.getByRole('status')).toHaveText('The order was completed and the customer was e-mailed.');
    await expect(page.locator('[data-order-status]')).toHaveAttribute('data-order-status', 'COMPLETED');
    await expect(page.locator('[data-order-notes]')).toContainText('Tracking number: JJD000390007 (DHL)');
    await expect(page.locator('[data-order-action="complete"]')).toHaveCount(0);

    let mails: OutboxMessage[] = [];
    const filter = { dir: outboxDir, to: email, subject: `order #${orderNumber} is complete` };
    await expect
      .poll(
        async () => {
          mails = await readOutbox(filter);
          return mails.length;
        },
        { timeout: 20_000 },
      )
      .toBe(1);
    const mail = mails[0];
    expect(mail!.text).toContain(`Your order #${orderNumber} is complete`);
    expect(mail!.text).toContain('Tracking number: JJD000390007 (DHL)');
    expect(mail!.text).toContain('Packed with care.');
  });

  test('the admin pages have no axe violations', async ({ page }) => {
    test.setTimeout(6 * 60_000);
    await page.goto('/admin/login');
    const check = async (label: string) => {
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map((v) => `${label} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
    };
    await check('/admin/login');
    await logInAsAdmin(page);
    await check('/admin');
    for (const p of [
      '/admin/products',
      '/admin/products/new',
      '/admin/categories',
      '/admin/orders',
      '/admin/coupons',
      '/admin/coupons/new',
      '/admin/reviews',
      '/admin/messages',
      '/admin/subscribers',
      '/admin/customers',
      '/admin/publish',
    ]) {
      await page.goto(p);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await check(p);
    }
    // Screens with forms, including their error state.
    await page.goto('/admin/products');
    await page.locator('[data-product-row] a').first().click();
    await check('product');
    await page.goto('/admin/orders');
    await page.locator('[data-order-row] a').first().click();
    await check('order');
    await page.goto('/admin/coupons');
    await page.locator('[data-coupon-row] a').first().click();
    await check('coupon');
    await page.goto('/admin/categories');
    await page.locator('[data-category-row] a').first().click();
    await check('category');
    await page.goto('/admin/products/new');
    await page.getByRole('button', { name: 'Create product' }).click();
    await expect(page.locator('[data-field-error="name"]')).toHaveText('Name is required.');
    await check('product form with errors');
    await page.goto('/admin/coupons/new');
    await page.getByRole('button', { name: 'Create coupon' }).click();
    await expect(page.locator('[data-field-error="code"]')).toHaveText('Code is required.');
    await check('coupon form with errors');
  });

  test('contact messages and newsletter subscribers download as CSV, for the operator only', async ({
    page,
    request,
  }) => {
    await logInAsAdmin(page, '/admin/messages');
    const link = page.getByRole('link', { name: 'Download all as CSV' });
    await expect(link).toHaveAttribute('href', '/admin/export/contact-messages');
    const messages = await page.request.get('/admin/export/contact-messages');
    expect(messages.status()).toBe(200);
    expect(messages.headers()['content-type']).toContain('text/csv');
    expect(messages.headers()['content-disposition']).toMatch(
      /^attachment; filename="contact-messages-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    expect((await messages.text()).split('\r\n')[0]).toBe(
      '\uFEFFid,received_at,first_name,last_name,email,phone,locale,message,answered_at,mail_status',
    );
    const subscribers = await page.request.get('/admin/export/newsletter-subscribers?status=CONFIRMED');
    expect(subscribers.status()).toBe(200);
    expect((await subscribers.text()).split('\r\n')[0]).toBe(
      '\uFEFFid,email,status,locale,signed_up_at,confirmed_at,unsubscribed_at',
    );
    // The same URL without the operator's cookie is a redirect to the login, not a file.
    const guest = await request.get('/admin/export/newsletter-subscribers', { maxRedirects: 0 });
    expect(guest.status()).toBe(303);
    expect(await guest.text()).toBe('');
  });

  test('an operator finds a customer by e-mail, downloads their data and erases them on request; both are in the audit log', async ({
    page,
    browser,
  }) => {
    // A shopper registers on the storefront.
    const email = uniqueEmail('erase');
    const shopper = await browser.newContext();
    const shop = await shopper.newPage();
    await shop.goto('/my-account');
    const register = shop.locator('[data-register-form]');
    await register.getByLabel('Email', { exact: false }).first().fill(email);
    await register.getByLabel('Password', { exact: false }).fill('Shopper-erase-Pass-2026!');
    await register.getByRole('button', { name: 'Create account' }).click();
    await expect(shop.locator('[data-account-ready]')).toHaveAttribute('data-account-ready', 'customer');
    await shopper.close();

    await logInAsAdmin(page, '/admin/customers');
    await page.getByLabel("Customer's e-mail address").fill(email.toUpperCase());
    await page.getByRole('button', { name: 'Find' }).click();
    const found = page.locator('[data-customer]');
    await expect(found).toContainText(email);

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.locator('[data-customer-export]').click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^customer-\d+-data-\d{4}-\d{2}-\d{2}\.json$/);

    // The erasure needs the address typed again and the box ticked.
    const erase = page.locator('[data-customer-erase]');
    await erase.getByLabel("Type the customer's e-mail address again").fill(email);
    await erase.getByRole('button', { name: 'Erase the customer' }).click();
    await expect(page.getByText('Tick the box to confirm the erasure.')).toBeVisible();
    await expect(page.locator('[data-customer]')).toContainText(email);
    await page.locator('[data-customer-erase]').getByLabel("Type the customer's e-mail address again").fill(email);
    await page.locator('[data-customer-erase]').getByRole('checkbox').check();
    await page.locator('[data-customer-erase]').getByRole('button', { name: 'Erase the customer' }).click();
    await expect(page.getByText('The customer was erased', { exact: false })).toBeVisible();

    await page.getByLabel("Customer's e-mail address").fill(email);
    await page.getByRole('button', { name: 'Find' }).click();
    await expect(page.locator('[data-customer-none]')).toBeVisible();
    const entries = page.locator('[data-audit-entry]');
    await expect(entries).toHaveCount(2);
    await expect(entries.nth(0)).toContainText('Erased');
    await expect(entries.nth(1)).toContainText('Data exported');
    await expect(page.locator('main')).not.toContainText(email.split('@')[0]!);
    const [mail] = await readOutbox({ dir: outboxDir, to: email, subject: /account was deleted/ });
    expect(mail).toBeDefined();
  });

  test('an operator creates a product with an uploaded image and finds it in the product list', async ({ page }) => {
    const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 5)}`;
    const name = `E2E Field Kit ${tag}`;
    const sku = `E2E-KIT-${tag}`.toUpperCase();
    await logInAsAdmin(page, '/admin/products');
    await page.getByRole('link', { name: 'New product' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'New product' })).toBeVisible();

    // Without a name and with a typo in the price: refused next to the fields, what was typed kept.
    await page.getByRole('textbox', { name: 'SKU', exact: true }).fill(sku);
    await page.getByRole('textbox', { name: 'Regular price (incl. VAT)', exact: true }).fill('19,90');
    await page.getByRole('button', { name: 'Create product' }).click();
    await expect(page.locator('[data-field-error="name"]')).toHaveText('Name is required.');
    await expect(page.locator('[data-field-error="regularPrice"]')).toHaveText(
      'Regular price must be an amount in euros, like 12 or 12.50.',
    );
    await expect(page.getByRole('textbox', { name: 'SKU', exact: true })).toHaveValue(sku);

    await page.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
    await page
      .getByRole('textbox', { name: 'Short description', exact: true })
      .fill('Cables, ties and a torque wrench.');
    await page.getByRole('checkbox', { name: 'Accessories', exact: true }).check();
    await page.getByRole('textbox', { name: 'Regular price (incl. VAT)', exact: true }).fill('19.90');
    await page.getByRole('checkbox', { name: 'Track the stock quantity' }).check();
    await page.getByRole('textbox', { name: 'Stock quantity', exact: true }).fill('8');
    await page.getByRole('button', { name: 'Create product' }).click();
    await expect(page.getByRole('status')).toHaveText('The product was created.');
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible();

    // A 4×4 PNG (the image has to be decodable: the shop serves what the endpoint stored).
    const png = Buffer.from(
      'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAIAAAAmkwkpAAAAEElEQVR4nGP4z8AARwzEcQCukw/x0F8jngAAAABJRU5ErkJggg==',
      'base64',
    );
    await page
      .getByLabel('Image file')
      .setInputFiles({ name: `e2e-kit-${tag}.png`, mimeType: 'image/png', buffer: png });
    await page.getByRole('textbox', { name: 'Alt text', exact: true }).fill(`${name} in its case`);
    await page.getByRole('button', { name: 'Upload image' }).click();
    await expect(page.getByRole('status')).toHaveText('The image was uploaded and added to the product.');
    const image = page.locator('[data-product-images] img');
    await expect(image).toHaveAttribute('alt', `${name} in its case`);
    await expect(image).toHaveAttribute('src', new RegExp(`^/media/uploads/catalog/e2e-kit-${tag}-[0-9a-f]{8}\\.png$`));
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(4);
    await expect(page.locator('[data-product-images]').getByText('Main image')).toBeVisible();

    await page.getByRole('link', { name: 'Products', exact: true }).click();
    await page.getByRole('searchbox', { name: 'Search' }).fill(sku);
    await page.getByRole('button', { name: 'Filter' }).click();
    const row = page.locator(`[data-product-row="e2e-field-kit-${tag}"]`);
    await expect(row).toHaveCount(1);
    await expect(row.getByRole('link', { name, exact: true })).toBeVisible();
    await expect(row).toContainText(sku);
    await expect(row).toContainText('Draft');
    await expect(row).toContainText('€19.90');
  });

  test('an operator cancels an order and the product gets its stock back', async ({ page, browser }) => {
    test.setTimeout(3 * 60_000);
    await logInAsAdmin(page);
    const before = await adminStock(page);
    expect(before).toBeGreaterThan(0);

    const { email, orderNumber } = await placeCashOnDeliveryOrder(browser, 'admin-cancel');
    // The order took one unit.
    expect(await adminStock(page)).toBe(before - 1);

    await page.goto(`/admin/orders?customer=${encodeURIComponent(email)}`);
    await page.getByRole('link', { name: `#${orderNumber}` }).click();
    await expect(page.locator('[data-order-status]')).toHaveAttribute('data-order-status', 'PROCESSING');
    const cancel = page.locator('[data-order-action="cancel"]');
    // Not without the confirm box.
    await cancel.getByRole('button', { name: 'Cancel order' }).click();
    await expect(page.locator('[data-field-error="confirm"]')).toHaveText('Tick the box to confirm the cancellation.');
    await expect(page.locator('[data-order-status]')).toHaveAttribute('data-order-status', 'PROCESSING');

    await cancel.getByLabel('Reason (optional)').fill('Customer changed their mind.');
    await cancel.getByLabel(`Yes, cancel order #${orderNumber}`).check();
    await cancel.getByRole('button', { name: 'Cancel order' }).click();
    await expect(page.getByRole('status')).toHaveText('The order was cancelled and its stock returned.');
    await expect(page.locator('[data-order-status]')).toHaveAttribute('data-order-status', 'CANCELLED');
    await expect(page.locator('[data-order-action="cancel"]')).toHaveCount(0);

    expect(await adminStock(page)).toBe(before);
  });
});
