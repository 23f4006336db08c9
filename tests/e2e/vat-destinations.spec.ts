/**
 * Prices by destination in the browser. A German visitor checks out without a state and gets free
 * shipping chosen at €75 (3 × the €25.00 T-shirt; free from €50 within Germany). A shopper who gives an
 * address in Switzerland (no EU VAT) sees the net price wherever the prebuilt pages showed the German one —
 * the listing, the product page and its structured data, the cart drawer — and the German price again
 * once the address is back in Germany. The seed catalog's enamel mug costs €14.00 including 19% VAT:
 * €11.76 without it.
 */
import { expect, test, type Locator, type Page } from '@playwright/test';

const MUG = 'meshfront-enamel-mug';
const SHIRT = 'meshfront-t-shirt';

const drawer = (page: Page) => page.locator('#cart-panel');
const rateRadio = (scope: Locator, id: string) => scope.locator(`input[type="radio"][name*="-0"][value="${id}"]`);
const uniqueEmail = (tag: string) => `e2e-${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;

async function addToCart(page: Page, path: string, count: number) {
  await page.goto(path);
  const button = page.locator('[data-add-to-cart]');
  await page.evaluate(() => document.querySelector('[data-add-to-cart]')?.scrollIntoView({ block: 'center' }));
  await expect(button).toBeEnabled();
  await button.click();
  await expect(page.locator('[data-cart-badge]')).toHaveText(String(count));
}

async function openCart(page: Page) {
  await page.locator('[data-cart-toggle]').click();
  await expect(drawer(page).locator('[data-cart-drawer]')).toBeVisible();
  await expect(drawer(page).locator('[data-cart-drawer]')).toHaveAttribute('aria-busy', 'false');
}

/** The product page's structured data: the Product's offers. */
async function offers(page: Page): Promise<Record<string, unknown>> {
  const texts = await page.locator('script[type="application/ld+json"]').allTextContents();
  const product = texts.map((t) => JSON.parse(t) as Record<string, unknown>).find((d) => d['@type'] === 'Product');
  return (product?.offers ?? {}) as Record<string, unknown>;
}

/** The listing card of the mug (its price line). */
const mugCard = (page: Page) => page.locator(`article:has(a[href$="/product/${MUG}"])`).first();

test('a German visitor gets free shipping chosen at €75 and checks out without a state', async ({ page }) => {
  await addToCart(page, `/de/product/${SHIRT}`, 1);
  await openCart(page);
  const line = drawer(page).locator('[data-cart-line]').first();
  await line.getByRole('textbox').fill('3');
  await line.getByRole('textbox').press('Enter');
  await expect(page.locator('[data-cart-badge]')).toHaveText('3');
  await expect(drawer(page).locator('[data-cart-drawer]')).toHaveAttribute('aria-busy', 'false');
  await expect(drawer(page).locator('[data-cart-totals] [data-total="subtotal"] dd')).toHaveText(/75[.,]00/);
  await expect(rateRadio(drawer(page), 'free_shipping:2')).toBeChecked();
  await expect(drawer(page).locator('[data-cart-totals] [data-total="shipping"] dd')).toHaveText(/0[.,]00/);
  const total = (await drawer(page).locator('[data-cart-totals] [data-total="total"] dd').textContent()) ?? '';

  await drawer(page).locator('[data-cart-checkout]').click();
  await expect(page).toHaveURL(/\/de\/checkout\/?$/);
  const form = page.locator('[data-checkout-form]');
  await expect(page.locator('#checkout-billing-country')).toHaveValue('DE');
  await expect(page.locator('#checkout-billing-state')).toHaveCount(0);
  await expect(rateRadio(form, 'free_shipping:2')).toBeChecked();
  await expect(form.locator('[data-cart-totals] [data-total="total"] dd')).toHaveText(total);
  await expect(form.locator('[data-cart-totals] [data-total="includedTax"] dd')).toContainText('MwSt.');
  await page.locator('#checkout-billing-firstName').fill('Grete');
  await page.locator('#checkout-billing-lastName').fill('Müller');
  await page.locator('#checkout-billing-address1').fill('Invalidenstraße 1');
  await page.locator('#checkout-billing-city').fill('Berlin');
  await page.locator('#checkout-billing-postcode').fill('10115');
  await page.locator('#checkout-billing-email').fill(uniqueEmail('de-free-shipping'));
  await form.locator('input[name="paymentMethod"][value="cod"]').check();
  await form.locator('[data-place-order]').click();
  await expect(page).toHaveURL(/\/de\/checkout\/order-received\/\d+\?key=/);
  await expect(page.locator('[data-order-totals] [data-total="shipping"] dd')).toHaveText(/0[.,]00/);
  await expect(page.locator('[data-order-totals] [data-total="total"] dd')).toHaveText(total);
});

test('a shopper with an address in Switzerland sees the net price on the listing, the product page, its structured data and in the drawer', async ({
  page,
}) => {
  test.setTimeout(90_000);
  // Prebuilt for every visitor: the German price.
  await page.goto(`/product/${MUG}`);
  await expect(page.locator('[data-live-stock]')).toContainText('€14.00');
  expect(await offers(page)).toMatchObject({ price: '14.00' });

  await addToCart(page, `/product/${MUG}`, 1);
  await page.goto('/checkout');
  await page.locator('#checkout-billing-country').selectOption('CH');
  const form = page.locator('[data-checkout-form]');
  await expect(form.locator('[data-cart-totals] [data-total="subtotal"] dd')).toHaveText('€11.76');

  await page.goto('/products');
  await expect(mugCard(page)).toContainText('€11.76');
  await expect(mugCard(page)).not.toContainText('€14.00');

  await page.goto(`/product/${MUG}`);
  await expect(page.locator('[data-live-stock]')).toContainText('€11.76');
  await expect.poll(async () => (await offers(page)).price).toBe('11.76');
  expect(await offers(page)).toMatchObject({ priceSpecification: { price: '11.76' } });

  await openCart(page);
  await expect(drawer(page).locator('[data-line-total]')).toHaveText('€11.76');
  await expect(drawer(page).locator('[data-cart-totals] [data-total="subtotal"] dd')).toHaveText('€11.76');

  // Back to Germany: the catalog's prices again.
  await page.goto('/checkout');
  await page.locator('#checkout-billing-country').selectOption('DE');
  await expect(form.locator('[data-cart-totals] [data-total="subtotal"] dd')).toHaveText('€14.00');
  await page.goto(`/product/${MUG}`);
  await page.locator('body').hover();
  await expect(page.locator('[data-live-stock]')).toContainText('€14.00');
  await expect.poll(async () => (await offers(page)).price).toBe('14.00');
});
