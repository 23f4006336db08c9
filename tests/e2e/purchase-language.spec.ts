/**
 * A German and a Brazilian shopper buy a variable product as guests, paying cash on delivery, and read no
 * English on the way: the product page with its variation names, the cart drawer, the checkout with its
 * shipping and payment choices, the order page, and the confirmation mail. "English" is every phrase of
 * two words or more from locales/en_US.json whose translation differs (the storefront's strings and the
 * engine's: gateway and shipping names, errors, mail texts), plus the engine's default labels by name.
 */
import fs from 'node:fs';
import path from 'node:path';
import { test, expect, type Page } from '@playwright/test';
import { localPath, waitForMail } from './helpers.ts';

type Strings = Record<string, string>;
const load = (code: string) => JSON.parse(fs.readFileSync(path.resolve('locales', `${code}.json`), 'utf8')) as Strings;
const english = load('en_US');

/** The engine's own default labels, named here too so a gap in the strings files cannot hide them. */
const ENGINE_LABELS = [
  'Cash on delivery',
  'Pay with cash upon delivery',
  'Flat rate',
  'International flat rate',
  'Free shipping',
  'Local pickup',
  'incl. VAT',
  'Thank you for your order',
];

/**
 * The English phrases a page in `code` must not show: each English string's literal parts (placeholders
 * cut out) of two words or more, where the locale says something else.
 */
function englishPhrases(code: string): string[] {
  const local = load(code);
  const phrases = new Set<string>(ENGINE_LABELS.filter((p) => p.includes(' ')));
  for (const [key, value] of Object.entries(english)) {
    if (local[key] === value) continue;
    for (const part of value.split(/\{\w+\}/)) {
      const phrase = part.replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, '').replace(/\s+/g, ' ');
      // Two real words: "#{number}" or "(optional)" alone are not a sentence anybody reads as English.
      if ((phrase.match(/\p{L}{2,}/gu) ?? []).length >= 2) phrases.add(phrase);
    }
  }
  return [...phrases];
}

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** An amount as English writes euros ("€25.00", "€1,349.00"); German and Portuguese write "25,00". */
const ENGLISH_AMOUNT = /€\s?\d{1,3}(?:,\d{3})*\.\d\d(?!\d)/;

/** The English phrases and amounts found in `text`, each with a little of the text around it. */
function englishIn(text: string, phrases: string[]): string[] {
  const flat = text.replace(/\s+/g, ' ');
  const found: string[] = [];
  const amount = ENGLISH_AMOUNT.exec(flat);
  if (amount) found.push(`English amount in "…${flat.slice(Math.max(0, amount.index - 40), amount.index + 40)}…"`);
  for (const phrase of phrases) {
    const m = new RegExp(`(?<![\\p{L}\\p{N}])${escapeRegExp(phrase)}(?![\\p{L}\\p{N}])`, 'u').exec(flat);
    if (m) found.push(`"${phrase}" in "…${flat.slice(Math.max(0, m.index - 40), m.index + phrase.length + 40)}…"`);
  }
  return found;
}

const SHOPPERS = [
  {
    name: 'German',
    code: 'de_DE',
    prefix: '/de',
    subject: (n: string) => new RegExp(`^Deine Bestellung #${n} bei Meshfront ist eingegangen$`),
    address: { country: 'DE', state: null, address1: 'Hauptstraße 1', city: 'Berlin', postcode: '10115' },
    names: { firstName: 'Greta', lastName: 'Schmidt' },
  },
  {
    name: 'Brazilian',
    code: 'pt_BR',
    prefix: '/pt-br',
    subject: (n: string) => new RegExp(`^Recebemos seu pedido nº ${n} na Meshfront$`),
    address: {
      country: 'BR',
      state: 'SP',
      address1: 'Avenida Paulista, 1000',
      city: 'São Paulo',
      postcode: '01310-100',
    },
    names: { firstName: 'João', lastName: 'Silva' },
  },
] as const;

for (const shopper of SHOPPERS) {
  test(`a ${shopper.name} guest buys a T-shirt in a chosen colour and size with cash on delivery and reads no English, mail included`, {
    tag: '@phone-too',
  }, async ({ page }) => {
    test.setTimeout(120_000);
    const phrases = englishPhrases(shopper.code);
    // The check finds what it looks for: the engine's English names and a storefront sentence.
    const probe = englishIn(`Zahlung: Cash on delivery. €25.00 incl. VAT. ${english['cartPanel.empty']}`, phrases);
    for (const phrase of ['Cash on delivery', 'incl. VAT', english['cartPanel.empty']])
      expect(probe.join('\n')).toContain(`"${phrase}"`);
    expect(probe.join('\n')).toContain('English amount');
    expect(englishIn('25,00 € · € 1.349,00', phrases)).toEqual([]);
    const seen: string[] = [];
    const look = async (where: string, p: Page = page) => {
      // What the shopper reads: innerText leaves out hidden elements (a closed panel, a template), which
      // textContent would include.
      // biome-ignore lint/performance/useDomNodeTextContent: the rendered text is the point here
      const text = await p.evaluate(() => `${document.title}\n${document.body.innerText}`);
      seen.push(...englishIn(text, phrases).map((f) => `${where}: ${f}`));
    };

    // The product page: choose the second option of every attribute, so the variation's names show.
    await page.goto(`${shopper.prefix}/product/meshfront-t-shirt/`);
    await page.evaluate(() => document.querySelector('[data-add-to-cart]')?.scrollIntoView({ block: 'center' }));
    // The variation picker's groups: the fieldsets before the button (the review form's stars come after it).
    const groups = page.locator('xpath=//main//fieldset[following::*[@data-add-to-cart]]');
    await expect(groups.first()).toBeVisible();
    const add = page.locator('[data-add-to-cart]');
    // Enabled once the island has hydrated: a choice clicked before that would be lost.
    await expect(add).toBeEnabled();
    const chosen: string[] = [];
    for (let i = 0; i < (await groups.count()); i++) {
      const option = groups.nth(i).locator('label').nth(1);
      const name = ((await option.textContent()) ?? '').trim();
      chosen.push(name);
      await option.click();
      // The group's legend names the choice once the picker has taken it.
      await expect(groups.nth(i).locator('legend')).toContainText(name);
    }
    await look('product page, variation chosen');
    await add.click();
    await expect(page.locator('[data-cart-badge]')).toHaveText('1');
    await look('product page, added to the cart');

    // The drawer names the variation in the shopper's language.
    await page.locator('[data-cart-toggle]').click();
    const drawer = page.locator('#cart-panel');
    await expect(drawer.locator('[data-cart-drawer]')).toBeVisible();
    const line = drawer.locator('[data-cart-line]');
    await expect(line).toHaveCount(1);
    for (const name of chosen) await expect(line).toContainText(name);
    await expect(drawer.locator('[data-cart-drawer]')).toHaveAttribute('aria-busy', 'false');
    await look('cart drawer');

    await drawer.locator('[data-cart-checkout]').click();
    await expect(page).toHaveURL(new RegExp(`${shopper.prefix}/checkout/?$`));
    const form = page.locator('[data-checkout-form]');
    await expect(form).toBeVisible();
    await look('checkout, empty');

    // Cash on delivery (the shop starts on card, which cannot load offline), then sent empty: the field
    // errors are the shopper's language too.
    await form.locator('input[name="paymentMethod"][value="cod"]').check();
    await form.locator('[data-place-order]').click();
    await expect(page.locator('[data-field-error="billing.firstName"]')).toBeVisible();
    await look('checkout, errors');

    const email = `e2e-language-${shopper.code}-${Date.now()}@example.com`;
    const { address } = shopper;
    await page.locator('#checkout-billing-country').selectOption(address.country);
    // The state field becomes a list of the country's states once the country is chosen.
    if (address.state) await page.locator('select#checkout-billing-state').selectOption(address.state);
    await page.locator('#checkout-billing-address1').fill(address.address1);
    await page.locator('#checkout-billing-city').fill(address.city);
    await page.locator('#checkout-billing-postcode').fill(address.postcode);
    await page.locator('#checkout-billing-firstName').fill(shopper.names.firstName);
    await page.locator('#checkout-billing-lastName').fill(shopper.names.lastName);
    await page.locator('#checkout-billing-email').fill(email);
    await expect(form.locator('input[type="radio"][name*="-0"]').first()).toBeVisible();
    await expect(form.locator('input[name="paymentMethod"][value="cod"]')).toBeChecked();
    await expect(page.locator('[data-field-error]')).toHaveCount(0);
    await look('checkout, filled in');

    await form.locator('[data-place-order]').click();
    await expect(page).toHaveURL(new RegExp(`${shopper.prefix}/checkout/order-received/\\d+/?\\?key=`));
    const orderNumber = ((await page.locator('[data-order-number]').textContent()) ?? '').replace(/\D/g, '');
    expect(orderNumber).not.toBe('');
    await expect(page.locator('[data-order-line]')).toHaveCount(1);
    for (const name of chosen) await expect(page.locator('[data-order-line]')).toContainText(name);
    await look('order page');

    const mail = await waitForMail({ to: email, subject: shopper.subject(orderNumber) });
    for (const name of chosen) expect(mail.text).toContain(name);
    seen.push(...englishIn(`${mail.subject}\n${mail.text}`, phrases).map((f) => `confirmation mail: ${f}`));
    // The HTML part as a reader sees it: its text without the markup.
    const htmlText = (mail.html ?? '').replace(/<[^>]+>/g, ' ').replace(/&[a-z#0-9]+;/gi, ' ');
    seen.push(...englishIn(htmlText, phrases).map((f) => `confirmation mail (HTML): ${f}`));

    // The mail's link opens the order in the shopper's language.
    const orderLink = mail.links.find((l) => l.includes('/checkout/order-received/'));
    expect(orderLink && localPath(orderLink)).toMatch(
      new RegExp(`^${shopper.prefix}/checkout/order-received/${orderNumber}/`),
    );
    await page.goto(localPath(orderLink!));
    await expect(page.locator('[data-order-number]')).toContainText(orderNumber);
    await look('order page opened from the mail');

    expect(seen).toEqual([]);
  });
}
