/**
 * The invoice in the browser. A German visitor buys the enamel mug with cash on delivery: the order is
 * processing at once (it is on its way), so it has its invoice, and the order page offers it as a download.
 * The PDF that arrives is an attachment named after the invoice's number, a PDF by its type and its
 * bytes, and says "Rechnung" with the order's number and the total the page shows. Somebody without the
 * order key sees neither the order nor a link to its invoice.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { fillGermanBillingAddress } from './helpers.ts';

const MUG = 'meshfront-enamel-mug';
const NOT_FOUND_DE = 'Wir konnten deine Bestellung nicht finden. Bitte versuche es später erneut.';

const uniqueEmail = (tag: string) => `e2e-${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
/** Any run of white space (the no-break space of "18,90 €" too) as one space. */
const flat = (s: string) => s.replace(/\s+/g, ' ').trim();

/** The invoice links of an order page. */
const invoiceLinks = (page: Page) => page.locator('a[href^="/api/invoices/"]');

async function buyMugWithCashOnDelivery(page: Page): Promise<void> {
  await page.goto(`/de/product/${MUG}`);
  const button = page.locator('[data-add-to-cart]');
  await page.evaluate(() => document.querySelector('[data-add-to-cart]')?.scrollIntoView({ block: 'center' }));
  await expect(button).toBeEnabled();
  await button.click();
  await expect(page.locator('[data-cart-badge]')).toHaveText('1');

  await page.goto('/de/checkout');
  const form = page.locator('[data-checkout-form]');
  await expect(form).toBeVisible();
  await fillGermanBillingAddress(page);
  await page.locator('#checkout-billing-firstName').fill('Grete');
  await page.locator('#checkout-billing-lastName').fill('Müller');
  await page.locator('#checkout-billing-email').fill(uniqueEmail('invoice'));
  await form.locator('input[name="paymentMethod"][value="cod"]').check();
  await form.locator('[data-place-order]').click();
  await expect(page).toHaveURL(/\/de\/checkout\/order-received\/\d+\?key=/);
}

test('a German visitor who pays cash on delivery downloads the invoice from the order page; without the order key there is no link', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  await buyMugWithCashOnDelivery(page);
  // Cash on delivery with goods to ship: processing at once, and so invoiced.
  await expect(page.locator('[data-order-status]')).toHaveAttribute('data-order-status', 'PROCESSING');
  const orderNumber = flat((await page.locator('[data-order-number]').textContent()) ?? '');
  const total = flat((await page.locator('[data-order-totals] [data-total="total"] dd').textContent()) ?? '');
  expect(orderNumber).toMatch(/^\d+$/);
  expect(total).toMatch(/^\d+,\d{2} €$/);

  const link = page.getByRole('link', { name: /^Rechnung \S+ herunterladen$/ });
  await expect(link).toBeVisible();
  await expect(invoiceLinks(page)).toHaveCount(1);
  const invoiceNumber = /^Rechnung (\S+) herunterladen$/.exec(flat((await link.textContent()) ?? ''))![1]!;
  expect(invoiceNumber).toMatch(/^\d{4}-\d{6}$/);

  // The download as the browser gets it: its name, and bytes that are a PDF.
  const [download] = await Promise.all([page.waitForEvent('download'), link.click()]);
  expect(download.suggestedFilename()).toBe(`Rechnung-${invoiceNumber}.pdf`);
  const file = test.info().outputPath(download.suggestedFilename());
  await download.saveAs(file);
  expect(fs.readFileSync(file).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  // Its type: Playwright shows no response (and lets no route see the request) for a download, so the
  // link the browser followed is asked again with the page's cookies (it stays valid for an hour).
  expect(new URL(download.url()).pathname).toBe(await link.getAttribute('href'));
  const answer = await page.request.get(download.url());
  expect(answer.status()).toBe(200);
  expect(answer.headers()['content-type']).toBe('application/pdf');
  expect(answer.headers()['content-disposition']).toBe(`attachment; filename="Rechnung-${invoiceNumber}.pdf"`);
  expect((await answer.body()).subarray(0, 5).toString('latin1')).toBe('%PDF-');

  const text = flat(execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' }));
  expect(text).toContain('Rechnung');
  expect(text).toContain(`Rechnungsnummer ${invoiceNumber}`);
  expect(text).toContain(`Bestellnummer ${orderNumber}`);
  expect(text).toContain(`Gesamtbetrag ${total}`);

  // Somebody else (no cookies, no order key): the order page finds nothing, and offers no invoice.
  const orderId = /\/order-received\/(\d+)/.exec(page.url())![1]!;
  const stranger = await browser.newContext();
  try {
    const other = await stranger.newPage();
    for (const path of [
      `/de/checkout/order-received/${orderId}`,
      `/de/checkout/order-received/${orderId}?key=wc_order_wrong`,
      `/de/order-summary/${orderId}`,
    ]) {
      await other.goto(path);
      await expect(other.getByText(NOT_FOUND_DE)).toBeVisible();
      await expect(invoiceLinks(other)).toHaveCount(0);
    }
  } finally {
    await stranger.close();
  }
});
