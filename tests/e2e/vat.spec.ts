/**
 * Prices with VAT as an EU shop shows them, for a German visitor: the listing and the product page show
 * the gross price with "inkl. MwSt., zzgl. Versandkosten" (the shipping costs linking to the shipping
 * policy), the structured data says the price includes VAT, and the drawer and the checkout show the same
 * gross amounts with the VAT the total includes, written as a German shopper reads euros ("14,00 €"). The
 * seed catalog's enamel mug costs €14.00 including 19% VAT; below €50 the domestic flat rate is
 * €4.12 + 19% = €4.90.
 */
import { expect, test, type Page } from '@playwright/test';

const MUG = 'meshfront-enamel-mug';
const NOTE = 'inkl. MwSt., zzgl. Versandkosten';

async function addMugToCart(page: Page) {
  await page.goto(`/de/product/${MUG}`);
  const button = page.locator('[data-add-to-cart]');
  await page.evaluate(() => document.querySelector('[data-add-to-cart]')?.scrollIntoView({ block: 'center' }));
  await expect(button).toBeEnabled();
  await button.click();
  await expect(page.locator('[data-cart-badge]')).toHaveText('1');
}

test.describe('a German visitor sees gross prices with the VAT note', () => {
  test('on the listing and the product page, with structured data that says VAT is included', async ({ page }) => {
    await page.goto('/de/products');
    const note = page.locator('[data-tax-note]').first();
    await expect(note).toHaveText(NOTE);
    await expect(note.locator('a')).toHaveAttribute('href', '/de/policies/shipping');

    await page.goto(`/de/product/${MUG}`);
    await expect(page.locator('[data-live-stock] [data-tax-note]')).toHaveText(NOTE);
    await expect(page.locator('[data-live-stock]')).toContainText('14,00 €');
    const jsonLd = JSON.parse((await page.locator('script[type="application/ld+json"]').first().textContent()) ?? '{}');
    expect(jsonLd.offers).toMatchObject({
      price: '14.00',
      priceCurrency: 'EUR',
      priceSpecification: { price: '14.00', valueAddedTaxIncluded: true },
    });
  });

  test('in the drawer and at checkout: the same gross amounts and the VAT the total includes', async ({ page }) => {
    await addMugToCart(page);
    await page.locator('[data-cart-toggle]').click();
    const drawer = page.locator('#cart-panel [data-cart-drawer]');
    await expect(drawer).toBeVisible();
    await expect(drawer.locator('[data-line-total]')).toHaveText('14,00 €');
    const totals = drawer.locator('[data-cart-totals]');
    await expect(totals.locator('[data-total="subtotal"] dd')).toHaveText('14,00 €');
    await expect(totals.locator('[data-total="shipping"] dd')).toHaveText('4,90 €');
    await expect(totals.locator('[data-total="total"] dd')).toHaveText('18,90 €');
    await expect(totals.locator('[data-total="includedTax"] dd')).toHaveText('inkl. 3,02 € MwSt.');
    await expect(totals.locator('[data-total="tax"]')).toHaveCount(0);

    await drawer.locator('[data-cart-checkout]').click();
    await expect(page).toHaveURL(/\/de\/checkout\/?$/);
    const review = page.locator('[data-checkout-form] [data-cart-totals]');
    await expect(review.locator('[data-total="total"] dd')).toHaveText('18,90 €');
    await expect(review.locator('[data-total="includedTax"] dd')).toHaveText('inkl. 3,02 € MwSt.');
    // Businesses can give their VAT ID with the billing address (an EU country).
    await expect(page.locator('#checkout-billing-vatId')).toBeVisible();
  });
});
