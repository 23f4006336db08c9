/**
 * Variation choices by their term names, never the slugs they are keyed on: the fibreglass antenna's
 * default choice (pa_frequency-band "eu868", pa_gain "5-8-dbi") reads "EU868" and "5.8 dBi" in the cart
 * drawer, the checkout's review, the order page and the confirmation mail, with the attribute names in
 * the shopper's language (content/catalog/attributes.json).
 */
import { test, expect, type Page } from '@playwright/test';
import { fillGermanBillingAddress, waitForMail } from './helpers.ts';

const SLUGS = /5-8-dbi|eu868/;

async function choicesShown(page: Page, where: string, expected: string) {
  const line = page.locator(`${where} [data-line-choices]`).first();
  await expect(line).toHaveText(expected);
  await expect(page.locator(where)).not.toContainText(SLUGS);
}

test('a German shopper sees "Frequenzband: EU868 · Antennengewinn: 5.8 dBi" from the drawer to the mail', async ({
  page,
}) => {
  const expected = 'Frequenzband: EU868 · Antennengewinn: 5.8 dBi';
  await page.goto('/de/product/meshfront-fiberglass-antenna');
  await page.evaluate(() => document.querySelector('[data-add-to-cart]')?.scrollIntoView({ block: 'center' }));
  const button = page.locator('[data-add-to-cart]');
  await expect(button).toBeEnabled();
  await button.click();
  await expect(page.locator('[data-cart-badge]')).toHaveText('1');

  await page.locator('[data-cart-toggle]').click();
  const drawer = page.locator('#cart-panel');
  await expect(drawer.locator('[data-cart-drawer]')).toBeVisible();
  await choicesShown(page, '#cart-panel', expected);

  await page.goto('/de/checkout');
  const form = page.locator('[data-checkout-form]');
  await choicesShown(page, '[data-checkout-form]', expected);
  await fillGermanBillingAddress(page);
  const email = `e2e-variation-names-${Date.now()}@example.com`;
  await page.locator('#checkout-billing-firstName').fill('Ada');
  await page.locator('#checkout-billing-lastName').fill('Lovelace');
  await page.locator('#checkout-billing-email').fill(email);
  await form.locator('input[name="paymentMethod"][value="cod"]').check();
  await form.locator('[data-place-order]').click();

  await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\?key=/);
  await choicesShown(page, '[data-order-line]', expected);

  const mail = await waitForMail({ to: email, subject: /./ });
  expect(mail.text).toContain('EU868, 5.8 dBi');
  expect(mail.text).not.toMatch(SLUGS);
});
