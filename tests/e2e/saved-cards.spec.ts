/**
 * Saved cards, end to end against the real server and the Stripe stand-in (global-setup.ts): a customer's
 * first card checkout makes their Stripe customer, cards saved with it are listed under "Saved cards" on
 * the account and offered at checkout (brand, •••• last four, expiry, or a new card with "Save this card
 * for next time"), and Remove detaches the card at Stripe. Stripe.js itself is not reachable offline, so
 * the cards are saved the way Stripe would after a payment that asked to keep them: an intent with the
 * customer and `setup_future_usage`, confirmed on the stand-in through Stripe's own REST protocol.
 */
import { expect, type Page, test } from '@playwright/test';
import { E2E_STRIPE_SECRET_KEY } from './global-setup.ts';
import { expectNoAxeViolations, t } from './helpers.ts';

const STRIPE = `http://127.0.0.1:${process.env.E2E_STRIPE_PORT ?? '4396'}`;

/** A call to the Stripe stand-in with the shop's secret key, form-encoded as Stripe's SDKs send it. */
async function stripeApi(method: 'GET' | 'POST', path: string, params: Record<string, string> = {}) {
  const body = new URLSearchParams(params).toString();
  const response = await fetch(method === 'GET' ? `${STRIPE}${path}?${body}` : `${STRIPE}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${E2E_STRIPE_SECRET_KEY}`,
      ...(method === 'POST' ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    ...(method === 'POST' ? { body } : {}),
  });
  const json = (await response.json()) as Record<string, any>;
  expect(response.status, JSON.stringify(json)).toBe(200);
  return json;
}

/** A paid intent that asked Stripe to keep its card for the customer. */
const payAndSave = (customer: string, card: string) =>
  stripeApi('POST', '/v1/payment_intents', {
    amount: '1500',
    currency: 'eur',
    customer,
    payment_method: card,
    setup_future_usage: 'off_session',
    confirm: 'true',
  });

const account = (page: Page) => page.locator('[data-account-ready]');
const savedSection = (page: Page) =>
  page.locator('section', { has: page.getByRole('heading', { name: t('account.savedCards.title') }) });

async function register(page: Page) {
  const id = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  await page.goto('/my-account');
  await expect(account(page)).toBeVisible({ timeout: 30_000 });
  const form = page.locator('[data-register-form]');
  await form.getByLabel('Email', { exact: false }).first().fill(`e2e-cards-${id}@example.com`);
  await form.getByLabel(t('account.field.password'), { exact: false }).fill(`Mesh-${id}-pass!`);
  await form.getByRole('button', { name: t('account.register') }).click();
  await expect(account(page)).toHaveAttribute('data-account-ready', 'customer');
}

/** The account page's own answer to getSavedPaymentMethods (the viewer's Stripe customer and cards). */
async function openDetails(page: Page) {
  // Waiting starts once the new page is committed: an answer to the page before it has no body to read.
  await page.goto('/my-account?tab=details', { waitUntil: 'commit' });
  const answer = await page.waitForResponse(
    (r) =>
      new URL(r.url()).pathname === '/graphql' && (r.request().postData() ?? '').includes('getSavedPaymentMethods'),
  );
  const json = await answer.json();
  await expect(savedSection(page).locator('[data-saved-cards]')).not.toHaveAttribute('data-saved-cards', 'loading');
  return json.data.viewer as { stripeCustomerId: string | null };
}

test(
  'saved cards: listed on the account and at checkout, removed at Stripe',
  { tag: '@phone-too' },
  async ({ page }, info) => {
    test.setTimeout(120_000);
    await register(page);
    expect((await openDetails(page)).stripeCustomerId).toBeNull();
    await expect(savedSection(page)).toContainText(t('account.savedCards.empty'));

    // The first card checkout makes the customer at Stripe.
    await page.goto('/product/meshfront-sticker-pack');
    await page.evaluate(() => document.querySelector('[data-add-to-cart]')?.scrollIntoView({ block: 'center' }));
    await expect(page.locator('[data-add-to-cart]')).toBeEnabled();
    await page.locator('[data-add-to-cart]').click();
    await expect(page.getByRole('status').filter({ hasText: 'was added to your cart' })).toBeVisible();
    const intent = page.waitForResponse((r) => (r.request().postData() ?? '').includes('query getStripePaymentIntent'));
    await page.goto('/checkout');
    expect((await (await intent).json()).data.stripePaymentIntent.error).toBeNull();

    const { stripeCustomerId } = await openDetails(page);
    expect(stripeCustomerId).toMatch(/^cus_/);
    await payAndSave(stripeCustomerId!, 'pm_card_visa');
    await payAndSave(stripeCustomerId!, 'pm_card_mastercard');

    await openDetails(page);
    const section = savedSection(page);
    await expect(section.locator('[data-saved-card]')).toHaveText([
      t('checkout.card.saved.card', { brand: 'Mastercard', last4: '4444' }),
      t('checkout.card.saved.card', { brand: 'Visa', last4: '4242' }),
    ]);
    await expect(section.getByText(t('checkout.card.saved.expires', { month: '12', year: '34' }))).toHaveCount(2);
    await section.screenshot({ path: info.outputPath(`account-saved-cards-${info.project.name}.png`) });
    await expectNoAxeViolations(page, 'saved cards');

    // At checkout: the saved cards to choose from (the newest first), or a new card that can be kept.
    await page.goto('/checkout');
    const gateway = page.locator('[data-gateway="stripe"]');
    const card = gateway.getByRole('group', { name: t('checkout.card.saved.legend') });
    await expect(card.getByRole('radio')).toHaveCount(3);
    const mastercard = card.getByRole('radio', { name: /Mastercard •••• 4444/ });
    await expect(mastercard).toBeChecked();
    await expect(gateway.getByRole('checkbox', { name: t('checkout.card.saved.save') })).toHaveCount(0);
    await card.getByRole('radio', { name: t('checkout.card.saved.new') }).check();
    await expect(gateway.getByRole('checkbox', { name: t('checkout.card.saved.save') })).toBeVisible();
    await gateway.screenshot({ path: info.outputPath(`checkout-saved-cards-${info.project.name}.png`) });
    await expectNoAxeViolations(page, 'checkout card choice');

    // Remove: detached at Stripe, gone from the list.
    await openDetails(page);
    await savedSection(page)
      .getByRole('button', { name: t('account.savedCards.removeNamed', { brand: 'Visa', last4: '4242' }) })
      .click();
    await expect(savedSection(page).getByText(t('account.savedCards.removed'))).toBeVisible();
    await expect(savedSection(page).locator('[data-saved-card]')).toHaveText([
      t('checkout.card.saved.card', { brand: 'Mastercard', last4: '4444' }),
    ]);
    const left = await stripeApi('GET', `/v1/customers/${stripeCustomerId}/payment_methods`, { type: 'card' });
    expect(left.data.map((pm: { card: { last4: string } }) => pm.card.last4)).toEqual(['4444']);
  },
);
