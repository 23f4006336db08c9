/**
 * The guest wishlist's "move to cart": a simple product goes straight into the cart (off the list, cart
 * drawer opens); a variable product opens its page so the shopper can pick a variation. Products are
 * saved from their pages with the "Add to wishlist" button, as a shopper would. Seed catalog
 * (content/catalog).
 */
import { test, expect, type Page } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';

const SIMPLE = { slug: 'meshfront-enamel-mug', name: /Enamel Camp Mug/i };
const VARIABLE = { slug: 'meshfront-t-shirt', name: /T-Shirt/i };

/** Saves a product from its page; the button hydrates when idle, so click until it says it is saved. */
async function saveFromProductPage(page: Page, slug: string) {
  await page.goto(`/product/${slug}`);
  const save = page.locator('button[aria-pressed]').filter({ hasText: /Add to wishlist|In your wishlist/ });
  await expect(async () => {
    if ((await save.getAttribute('aria-pressed')) !== 'true') await save.click();
    await expect(save).toHaveAttribute('aria-pressed', 'true', { timeout: 1_500 });
  }).toPass({ timeout: 20_000 });
  await expect(save).toHaveText('In your wishlist');
}

test('move to cart: a simple product goes into the cart and leaves the wishlist; a variable one opens its page', {
  tag: '@phone-too',
}, async ({ page }) => {
  await saveFromProductPage(page, SIMPLE.slug);
  await saveFromProductPage(page, VARIABLE.slug);

  await page.goto('/wishlist');
  const list = page.locator('main ul').filter({ has: page.locator('[data-wishlist-move]') });
  await expect(list.locator('li')).toHaveCount(2);
  const axe = await new AxeBuilder({ page }).analyze();
  expect(axe.violations.map((v) => v.id)).toEqual([]);

  // Simple: straight into the cart, off the list, the drawer opens with it.
  await list
    .locator('li')
    .filter({ hasText: SIMPLE.name })
    .getByRole('button', { name: /^Move to cart\b/ })
    .click();
  const drawer = page.locator('#cart-panel');
  await expect(drawer).toBeVisible();
  await expect(drawer.locator('[data-cart-line]').filter({ hasText: SIMPLE.name })).toHaveCount(1);
  await expect(page.locator('[data-cart-badge]')).toHaveText('1');
  await expect(page.getByRole('status').filter({ hasText: 'is now in your cart.' })).toBeVisible();
  await expect(list.locator('li')).toHaveCount(1);
  await expect(list.locator('li')).toContainText(VARIABLE.name);
  await page.screenshot({ path: test.info().outputPath('wishlist-moved.png') });
  // The list is kept in the browser: a reload shows the same.
  await page.reload();
  await expect(page.locator('[data-wishlist-move]')).toHaveCount(1);

  // Variable: the product page, to choose colour and size; it stays in the wishlist until then.
  await page
    .locator('li')
    .filter({ hasText: VARIABLE.name })
    .getByRole('button', { name: /^Move to cart\b/ })
    .click();
  await expect(page).toHaveURL(new RegExp(`/product/${VARIABLE.slug}/?$`));
  // Nothing was added: the cart still holds the mug alone (the session starts on the first key press).
  await page.waitForLoadState('load');
  await page.keyboard.press('Shift');
  await expect(page.locator('[data-cart-badge]')).toHaveText('1');
  await page.goto('/wishlist');
  await expect(page.locator('[data-wishlist-move]')).toHaveCount(1);
});
