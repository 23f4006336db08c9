/**
 * The catalog in the page's language: the prebuilt German and French product pages carry the translated
 * name, description, attribute names and term names (seeded from content/catalog), never the English
 * "Color / Black" or a term's slug; the English page keeps the English texts under the same slug.
 */
import { test, expect } from '@playwright/test';

test('the German product page shows "Farbe" and German colour names, not "Color / Black"', async ({ page }) => {
  await page.goto('/de/product/meshfront-hoodie/');
  const main = page.locator('main');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Meshfront Kapuzenpullover');
  await expect(main.getByText('Schwerer Fleece aus 330 g/m² Bio-Baumwolle', { exact: false }).first()).toBeVisible();
  const colour = main.getByRole('group', { name: /^Farbe/ });
  await expect(colour).toBeVisible();
  await expect(colour.getByText('Schwarz', { exact: true })).toBeVisible();
  await expect(main.getByRole('group', { name: /^Größe/ })).toBeVisible();
  await expect(main.getByText(/\bColor\b/)).toHaveCount(0);
  await expect(main.getByText('Black', { exact: true })).toHaveCount(0);
});

test('the French product page is French and the English one stays English under the same slug', async ({ page }) => {
  await page.goto('/fr/product/meshfront-hoodie/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Sweat à capuche Meshfront');
  await expect(page.locator('main').getByRole('group', { name: /^Couleur/ })).toBeVisible();
  await page.goto('/product/meshfront-hoodie/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Meshfront Hoodie');
  await expect(page.locator('main').getByRole('group', { name: /^Color/ })).toBeVisible();
});

test('the German category page lists German product and category names', async ({ page }) => {
  await page.goto('/de/product-category/swag/');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('Merchandise');
  await expect(page.locator('main').getByText('Meshfront Kapuzenpullover').first()).toBeVisible();
});
