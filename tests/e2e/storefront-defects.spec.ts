/**
 * What a shopper trips over in the storefront, checked where they meet it: focus kept inside the open
 * cart panel and mobile menu, focus kept on "Add to cart", the coupon alert clear of the panel's header,
 * the order history readable on a phone, the SKU following the chosen variation, the sale badge of a
 * variable product with some variations on sale, the header search staying in a category, the optional
 * username at checkout, card as the default payment, and counted strings in the singular ("1 item").
 */
import { expect, test, type Page, type Route } from '@playwright/test';
import { fillGermanBillingAddress } from './helpers.ts';

const MUG = 'meshfront-enamel-mug';
/** Four variations, only US915 on sale (content/catalog/products/meshfront-outdoor-gateway.json). */
const OUTDOOR_GATEWAY = 'meshfront-outdoor-gateway';

const cartPanel = (page: Page) => page.locator('#cart-panel');
const cartToggle = (page: Page) => page.locator('[data-cart-toggle]');

/** Adds the mug from its page and waits until the add has finished. */
async function addMug(page: Page) {
  await page.goto(`/product/${MUG}`);
  // On a phone the button sits below the gallery: scroll to it as a shopper would (it hydrates on interaction).
  await page.evaluate(() => document.querySelector('[data-add-to-cart]')?.scrollIntoView({ block: 'center' }));
  const button = page.locator('[data-add-to-cart]');
  await expect(button).toBeEnabled();
  // Hold the mutation a moment, so the in-flight state is really there while focus is checked.
  const hold = async (route: Route) => {
    if ((route.request().postData() ?? '').includes('mutation addToCart')) await new Promise((r) => setTimeout(r, 500));
    await route.continue();
  };
  await page.route('**/graphql', hold);
  await button.click();
  await expect(button).toHaveText('Adding...');
  await expect(button, 'focus stays on the button while adding').toBeFocused();
  await expect(page.getByRole('status').filter({ hasText: 'was added to your cart' })).toBeVisible();
  await expect(button).toHaveText('Add to cart');
  await page.unroute('**/graphql', hold);
  await expect(page.locator('[data-cart-badge]')).toHaveText('1');
  return button;
}

/** Presses `key` `times` times; after each press the focused element must be inside `selector`. */
async function expectFocusStaysIn(page: Page, selector: string, key: 'Tab' | 'Shift+Tab', times: number) {
  const visited = new Set<string>();
  for (let i = 0; i < times; i++) {
    await page.keyboard.press(key);
    const where = await page.evaluate((sel) => {
      const active = document.activeElement;
      const inside = Boolean(active && document.querySelector(sel)?.contains(active));
      return { inside, what: active ? `${active.tagName}:${active.textContent?.trim().slice(0, 30)}` : 'none' };
    }, selector);
    expect(where.inside, `${key} #${i + 1} moved focus out of ${selector} to ${where.what}`).toBe(true);
    visited.add(where.what);
  }
  return visited;
}

test.describe('storefront defects', () => {
  test('"Add to cart" keeps focus; the cart panel keeps Tab inside, Escape closes it and focus returns; counts read "1 item"', {
    tag: '@phone-too',
  }, async ({ page }) => {
    const button = await addMug(page);
    await expect(button, 'focus is still on "Add to cart" after the add').toBeFocused();

    // The header's label for the count is in the singular.
    await expect(cartToggle(page)).toHaveAttribute('title', '1 item in your cart');

    await cartToggle(page).focus();
    await page.keyboard.press('Enter');
    await expect(cartPanel(page)).toHaveAttribute('data-open', '');
    await expect(cartPanel(page).locator('[data-cart-drawer]')).toBeVisible();
    await expect(cartPanel(page).getByRole('status').filter({ hasText: 'in your cart' })).toHaveText(
      '1 item in your cart',
    );
    await expect(cartPanel(page).locator('[data-panel-close]')).toBeFocused();
    // The page behind is out of reach while the panel is open.
    await expect(page.locator('#site-header')).toHaveAttribute('inert', '');
    await expect(page.locator('#main')).toHaveAttribute('inert', '');

    const forward = await expectFocusStaysIn(page, '#cart-panel', 'Tab', 14);
    // Tab went round: the close button came back after the last control.
    expect([...forward].some((w) => w.startsWith('BUTTON:'))).toBe(true);
    await expectFocusStaysIn(page, '#cart-panel', 'Shift+Tab', 14);

    await page.keyboard.press('Escape');
    await expect(cartPanel(page)).not.toHaveAttribute('data-open', '');
    await expect(cartToggle(page), 'focus returns to the button that opened the panel').toBeFocused();
    await expect(page.locator('#site-header')).not.toHaveAttribute('inert', '');
  });

  test('the mobile menu keeps Tab inside, Escape closes it and focus returns to the menu button', {
    tag: '@phone-only',
  }, async ({ page }) => {
    await page.goto('/about');
    const toggle = page.locator('[data-menu-toggle]');
    await toggle.focus();
    await page.keyboard.press('Enter');
    const menu = page.locator('#mobile-menu');
    await expect(menu).toHaveAttribute('data-open', '');
    await expect(menu.locator('[data-panel-close]')).toBeFocused();
    await expect(page.locator('#main')).toHaveAttribute('inert', '');
    await expectFocusStaysIn(page, '#mobile-menu', 'Tab', 12);
    await expectFocusStaysIn(page, '#mobile-menu', 'Shift+Tab', 12);
    await page.keyboard.press('Escape');
    await expect(menu).not.toHaveAttribute('data-open', '');
    await expect(toggle).toBeFocused();
  });

  test("a refused coupon's alert leaves the cart panel's header and close button uncovered", {
    tag: '@phone-too',
  }, async ({ page }) => {
    await addMug(page);
    await cartToggle(page).click();
    const panel = cartPanel(page);
    await expect(panel.locator('[data-cart-drawer]')).toBeVisible();
    await panel.getByLabel('Coupon code').fill('no-such-coupon');
    await panel.getByRole('button', { name: 'Apply' }).click();
    await expect(panel.getByRole('alert')).toBeVisible();
    const banner = page.locator('#alert-banner');
    await expect(banner).toHaveAttribute('data-shown', '');
    await expect(banner).toHaveAttribute('data-type', 'danger');
    // Wait for the slide-in to end before measuring.
    await expect(async () => {
      const head = (await panel.locator('#cart-panel-title').boundingBox())!;
      const close = (await panel.locator('[data-panel-close]').boundingBox())!;
      const alert = (await banner.boundingBox())!;
      const headerBottom = Math.max(head.y + head.height, close.y + close.height);
      expect(alert.y, 'the alert starts below the panel header').toBeGreaterThanOrEqual(headerBottom);
    }).toPass();
    // The close button is what a tap on it reaches.
    const reachable = await panel.locator('[data-panel-close]').evaluate((button) => {
      const r = button.getBoundingClientRect();
      const hit = document.elementFromPoint(r.x + r.width / 2, r.y + r.height / 2);
      return Boolean(hit && button.contains(hit));
    });
    expect(reachable).toBe(true);
  });

  test('the SKU follows the chosen variation; a variable product with one variation on sale has a sale badge', async ({
    page,
  }) => {
    await page.goto('/product-category/outdoor-gateways');
    const card = page.locator('article').filter({ has: page.locator(`a[href="/product/${OUTDOOR_GATEWAY}"]`) });
    await expect(card.locator('[data-sale-badge]')).toHaveText('Sale!');

    await page.goto(`/product/${OUTDOOR_GATEWAY}`);
    await expect(page.locator('[data-product-sale-badge]')).toHaveText('Sale!');
    const sku = page.locator('[data-product-sku]');
    // The page opens on the default variation (EU868).
    await expect(sku).toHaveText('SKU: MF-GW-OUT-EU868');
    await page.locator('label[for$="us915"]').click();
    await expect(sku).toHaveText('SKU: MF-GW-OUT-US915');
    // The chosen variation is the one on sale: its price carries the percent.
    await expect(page.locator('[data-live-stock] [data-sale-badge]')).toHaveText('-7%');
    await page.locator('label[for$="as923"]').click();
    await expect(sku).toHaveText('SKU: MF-GW-OUT-AS923');
  });

  test('the header search on a category page searches within that category', async ({ page }) => {
    await page.goto('/product-category/gateways');
    const heading = await page.locator('h1').textContent();
    await page.locator('#header-search-input').fill('outdoor');
    await page.locator('#header-search-input').press('Enter');
    await expect(page).toHaveURL(/\/product-category\/gateways\?search=outdoor$/);
    await expect(page.locator('h1')).toHaveText(heading ?? '');
    const links = page.locator('article a[href^="/product/"]');
    await expect(page.locator(`article a[href="/product/${OUTDOOR_GATEWAY}"]`)).toBeVisible();
    // Outdoor products of other categories are not in this category's results.
    const found = await links.evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(found).not.toContain('/product/outdoor-ethernet-cable-cat6');
    expect(found).not.toContain('/product/ip67-outdoor-enclosure');
  });

  test('checkout starts on card, creates an account without a username, and the order history fits a phone', {
    tag: '@phone-too',
  }, async ({ page }) => {
    test.setTimeout(120_000);
    const local = `e2e-nameless-${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const email = `${local}@example.com`;
    await page.route('https://js.stripe.com/**', (route) => route.abort('internetdisconnected'));
    await addMug(page);
    await page.goto('/checkout');
    const form = page.locator('[data-checkout-form]');
    await expect(form.locator('input[name="paymentMethod"][value="stripe"]')).toBeChecked();
    await fillGermanBillingAddress(page);
    await page.locator('#checkout-billing-firstName').fill('Ada');
    await page.locator('#checkout-billing-lastName').fill('Lovelace');
    await page.locator('#checkout-billing-email').fill(email);
    await form.getByLabel('Create an account').check();
    await expect(form.getByLabel('Username (optional)')).toHaveValue('');
    await form.getByLabel('Password').fill(`Str0ng-Mesh-${Math.random().toString(36).slice(2, 8)}-Pass9`);
    await form.locator('input[name="paymentMethod"][value="cod"]').check();
    await form.locator('[data-place-order]').click();
    await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\?key=/);
    // Logged in as the account the engine named after the e-mail address.
    await expect
      .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('meshfront:viewer') ?? 'null')?.username ?? null))
      .toBe(local);

    await page.goto('/my-account?tab=orders');
    const row = page.locator('[data-order-row]').first();
    await expect(row).toBeVisible({ timeout: 30_000 });
    const total = row.locator('[data-order-total]');
    await expect(total).toBeVisible();
    const width = page.viewportSize()!.width;
    for (const cell of [total, row.locator('[data-order-status]'), row.locator('th a')]) {
      const box = (await cell.boundingBox())!;
      expect(box.x, 'starts on screen').toBeGreaterThanOrEqual(0);
      expect(box.x + box.width, 'ends on screen').toBeLessThanOrEqual(width);
    }
    // Nothing to scroll sideways to.
    const overflow = await page
      .locator('[data-orders]')
      .evaluate((table) => (table.parentElement?.scrollWidth ?? 0) - (table.parentElement?.clientWidth ?? 0));
    expect(overflow).toBeLessThanOrEqual(0);
  });
});
