/**
 * Cookies and third parties only where needed, with consent. The server runs the contact form's bot
 * check with reCAPTCHA (playwright.config.ts: RECAPTCHA_SECRET and a local stand-in for Google's script
 * on 127.0.0.1:E2E_RECAPTCHA_PORT), the consent-bound service; Stripe.js (https://js.stripe.com, blocked
 * here as it is offline) is the strictly necessary one for card payments. Any request to an origin
 * other than the shop's counts as a third-party request.
 */
import { expect, test, type Page } from '@playwright/test';
import { STORAGE_ENTRIES, entryNames } from '../../src/lib/privacy/cookies-and-processors.ts';
import { choosePrivacy, expectNoAxeViolations, t } from './helpers.ts';

/** Every request this page makes to another origin than the shop's. */
function watchThirdParties(page: Page, baseURL: string) {
  const own = new URL(baseURL).origin;
  const seen: string[] = [];
  page.on('request', (r) => {
    const url = new URL(r.url());
    if (url.protocol.startsWith('http') && url.origin !== own) seen.push(r.url());
  });
  return seen;
}

const isRecaptcha = (url: string) => /\/recaptcha\/api\.js/.test(url);
const privacyDialog = (page: Page) => page.getByRole('dialog', { name: t('privacy.settings.title') });
const contactForm = (page: Page) => page.locator('form[data-contact-form="page"]');

/** Waits until React owns the /contact form (Astro drops `ssr` once the island has hydrated). */
async function formHydrated(page: Page) {
  await expect(page.locator('astro-island', { has: contactForm(page) })).not.toHaveAttribute('ssr', {
    timeout: 30_000,
  });
}

test.describe('consent', () => {
  test('the contact form asks before reCAPTCHA loads, loads it only after Accept, and the choice survives a reload', {
    tag: '@phone-too',
  }, async ({ page, baseURL }) => {
    const thirdParty = watchThirdParties(page, baseURL!);
    await page.goto('/contact');
    await contactForm(page).scrollIntoViewIfNeeded();
    await formHydrated(page);
    await page.waitForLoadState('networkidle');
    expect(thirdParty, 'no third party before the form is used').toEqual([]);
    await expect(privacyDialog(page)).toBeHidden();

    // Starting to use the form opens the privacy settings; nothing from Google yet.
    const firstName = contactForm(page).getByLabel(t('contact.firstName'));
    await firstName.click();
    const dialog = privacyDialog(page);
    await expect(dialog).toBeVisible();
    await expect(dialog.getByRole('heading', { name: t('privacy.settings.title') })).toBeFocused();
    await expect(dialog).toContainText('Google reCAPTCHA');
    await expect(dialog.getByRole('link', { name: t('privacy.settings.details') })).toHaveAttribute(
      'href',
      '/policies/cookies',
    );
    // The two choices are equally prominent: same size, same colours, neither preselected.
    const accept = dialog.getByRole('button', { name: t('privacy.settings.accept'), exact: true });
    const necessary = dialog.getByRole('button', { name: t('privacy.settings.necessary'), exact: true });
    const look = (b: typeof accept) =>
      b.evaluate((el) => {
        const s = getComputedStyle(el);
        const r = el.getBoundingClientRect();
        return {
          bg: s.backgroundColor,
          color: s.color,
          size: s.fontSize,
          weight: s.fontWeight,
          h: Math.round(r.height),
          w: Math.round(r.width),
        };
      });
    expect(await look(accept)).toEqual(await look(necessary));
    await expectNoAxeViolations(page, 'privacy settings');
    await page.waitForTimeout(500);
    expect(thirdParty.filter(isRecaptcha), 'no reCAPTCHA while the visitor decides').toEqual([]);
    expect(await page.evaluate(() => localStorage.getItem('meshfront:consent'))).toBeNull();

    // Keyboard: Tab reaches the choices, Enter chooses.
    await accept.focus();
    await page.keyboard.press('Enter');
    await expect(dialog).toBeHidden();
    await expect(firstName).toBeFocused();
    await expect.poll(() => thirdParty.filter(isRecaptcha).length, { message: 'reCAPTCHA loads after Accept' }).toBe(1);
    await expect(contactForm(page).getByText(/protected by reCAPTCHA/)).toBeVisible();
    expect(JSON.parse((await page.evaluate(() => localStorage.getItem('meshfront:consent')))!)).toMatchObject({
      v: 1,
      choice: 'all',
      services: ['google-recaptcha'],
    });

    // A reload keeps the choice: no question, and the script loads as the form is used.
    thirdParty.length = 0;
    await page.reload();
    await contactForm(page).scrollIntoViewIfNeeded();
    await formHydrated(page);
    await page.waitForLoadState('networkidle');
    expect(thirdParty).toEqual([]);
    await contactForm(page).getByLabel(t('contact.firstName')).click();
    await expect.poll(() => thirdParty.filter(isRecaptcha).length).toBe(1);
    await expect(privacyDialog(page)).toBeHidden();
  });

  test('“Only necessary” keeps reCAPTCHA away and the form still sends with the shop’s own check; the footer’s Privacy settings change it later', {
    tag: '@phone-too',
  }, async ({ page, baseURL }) => {
    const thirdParty = watchThirdParties(page, baseURL!);
    await page.goto('/contact');
    await contactForm(page).scrollIntoViewIfNeeded();
    await formHydrated(page);
    await contactForm(page).getByLabel(t('contact.firstName')).click();
    await privacyDialog(page)
      .getByRole('button', { name: t('privacy.settings.necessary'), exact: true })
      .click();
    await expect(privacyDialog(page)).toBeHidden();

    // The first-party ALTCHA check takes reCAPTCHA's place; no Google notice.
    const form = contactForm(page);
    await expect(form.locator('altcha-widget')).toBeAttached();
    await expect(form.getByText(/protected by reCAPTCHA/)).toHaveCount(0);
    const email = `no-consent.${Date.now().toString(36)}@example.com`;
    await form.getByLabel(t('contact.firstName')).fill('Ana');
    await form.getByLabel(t('contact.lastName')).fill('Lima');
    await form.getByLabel(t('contact.email'), { exact: true }).fill(email);
    await form.getByLabel(t('contact.message')).fill('Sent without reCAPTCHA, with the shop’s own check.');
    const sent = page.waitForResponse((r) => r.url().endsWith('/api/contact-form/create'), { timeout: 60_000 });
    await form.getByRole('button', { name: t('contact.send') }).click();
    expect((await sent).status()).toBe(200);
    await expect(form.getByLabel(t('contact.message'))).toHaveValue('');
    expect(thirdParty, 'nothing third-party after “Only necessary”').toEqual([]);

    // Still so after a reload: no question when the form is used again.
    await page.reload();
    await contactForm(page).scrollIntoViewIfNeeded();
    await formHydrated(page);
    await contactForm(page).getByLabel(t('contact.firstName')).click();
    await expect(contactForm(page).locator('altcha-widget')).toBeAttached();
    await page.waitForTimeout(500);
    await expect(privacyDialog(page)).toBeHidden();
    expect(thirdParty).toEqual([]);

    // Changed later from the footer: the dialog says what was chosen, Accept switches to reCAPTCHA.
    await choosePrivacy(page, 'accept', t('privacy.settings.current.necessary'));
    await expect(contactForm(page).getByText(/protected by reCAPTCHA/)).toBeVisible();
    await expect.poll(() => thirdParty.filter(isRecaptcha).length).toBe(1);
  });

  test('closing the dialog decides nothing; Escape closes it and focus goes back', async ({ page, baseURL }) => {
    const thirdParty = watchThirdParties(page, baseURL!);
    await page.goto('/about');
    const opener = page.locator('footer [data-privacy-settings]');
    await opener.click();
    await expect(privacyDialog(page)).toBeVisible();
    await expect(privacyDialog(page)).toContainText(t('privacy.settings.current.none'));
    await page.keyboard.press('Escape');
    await expect(privacyDialog(page)).toBeHidden();
    await expect(opener).toBeFocused();
    await opener.click();
    await privacyDialog(page)
      .getByRole('button', { name: t('privacy.settings.close') })
      .click();
    await expect(privacyDialog(page)).toBeHidden();
    expect(await page.evaluate(() => localStorage.getItem('meshfront:consent'))).toBeNull();
    expect(thirdParty).toEqual([]);
  });

  test('pages without a consent-bound service ask nothing, talk to no third party and set only strictly necessary cookies', async ({
    page,
    context,
    baseURL,
  }) => {
    const thirdParty = watchThirdParties(page, baseURL!);
    for (const path of ['/', '/products', '/product/meshfront-enamel-mug', '/support', '/policies/cookies']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await expect(privacyDialog(page)).toBeHidden();
    }
    expect(thirdParty).toEqual([]);
    const necessary = new Set(
      STORAGE_ENTRIES.filter((e) => e.category === 'strictly-necessary' && e.party === 'meshfront').flatMap(entryNames),
    );
    const cookies = (await context.cookies()).map((c) => c.name);
    expect(cookies.filter((name) => !necessary.has(name))).toEqual([]);
    const stored = await page.evaluate(() => [...Object.keys(localStorage), ...Object.keys(sessionStorage)]);
    expect(stored.filter((name) => !necessary.has(name))).toEqual([]);
  });

  test('the cookie policy and the privacy policy print their tables from the code’s list, in every language', async ({
    page,
  }) => {
    await page.goto('/policies/cookies');
    const cookies = page.locator('[data-privacy-table="cookies"]');
    for (const entry of STORAGE_ENTRIES)
      await expect(cookies.locator(`tr[data-name="${entry.name}"]`), entry.name).toHaveCount(1);
    await expect(page.getByRole('heading', { name: t('privacy.table.cookiesHeading') })).toBeVisible();
    await expectNoAxeViolations(page, 'cookie policy');

    await page.goto('/de/policies/privacy-policy');
    const services = page.locator('[data-privacy-table="processors"]');
    await expect(services.locator('tr[data-service]')).toHaveCount(6);
    await expect(services.locator('tr[data-service="vies"]')).toContainText('Europäische Kommission');
    await expect(page.getByRole('heading', { name: 'Dienste, die personenbezogene Daten erhalten' })).toBeVisible();
  });
});

test.describe('Stripe.js', () => {
  test('is requested on the checkout with card payment, and on no page before it', async ({ page, baseURL }) => {
    const stripe: string[] = [];
    await page.route('https://js.stripe.com/**', (route) => {
      stripe.push(route.request().url());
      return route.abort('internetdisconnected');
    });
    const thirdParty = watchThirdParties(page, baseURL!);
    await page.goto('/product/meshfront-enamel-mug');
    await page.evaluate(() => document.querySelector('[data-add-to-cart]')?.scrollIntoView({ block: 'center' }));
    const add = page.locator('[data-add-to-cart]');
    await expect(add).toBeEnabled();
    await add.click();
    await expect(page.getByRole('status').filter({ hasText: 'was added to your cart' })).toBeVisible();
    await page.goto('/products');
    await page.waitForLoadState('networkidle');
    expect(thirdParty, 'no third party while shopping').toEqual([]);

    await page.goto('/checkout');
    const card = page.locator('input[name="paymentMethod"][value="stripe"]');
    await expect(card).toBeChecked();
    await expect
      .poll(() => stripe.length, { message: 'Stripe.js is requested for the card payment' })
      .toBeGreaterThan(0);
    // Only Stripe, and no question: it serves the payment the shopper chose (strictly necessary).
    expect(thirdParty.filter((u) => !u.startsWith('https://js.stripe.com/'))).toEqual([]);
    await expect(privacyDialog(page)).toBeHidden();
  });
});
