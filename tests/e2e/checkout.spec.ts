/**
 * Buying, end to end: cart drawer, coupons, shipping, checkout with cash on delivery, KDA and (as far as
 * a browser can go offline) card, the order pages and the order lookup. Written against the contract
 * (WooGraphQL's operations) and the seed catalog (content/catalog).
 *
 * The KDA test needs the engine pointed at a Chainweb stand-in (tests/fixtures/chainweb-server.ts): start
 * the site with CHAINWEB_URL=http://127.0.0.1:${E2E_CHAINWEB_PORT ?? 4481}, KDA_EUR_RATE set (the KDA
 * gateway is listed only then), KADENA_CONFIRMATIONS of at most 10 and a short KADENA_POLL_INTERVAL_MS
 * (e.g. 1000). The test starts the stand-in behind a proxy on that port. The card test needs the `stripe`
 * gateway (STRIPE_SECRET_KEY on the engine, PUBLIC_STRIPE_PUBLISHABLE_KEY at build); Stripe's own script
 * (js.stripe.com) is blocked, as it is offline — the PaymentIntent path beyond that is covered by the API
 * tests. playwright.config.ts and scripts/test.mjs set all of this up.
 */
import { test, expect, type Page, type Request, type Route } from '@playwright/test';
import AxeBuilder from '@axe-core/playwright';
import { fillGermanBillingAddress, startChain } from './helpers.ts';

const SIMPLE = { slug: 'meshfront-enamel-mug', name: /Enamel Camp Mug/i };
const VARIABLE = { slug: 'meshfront-t-shirt', name: /T-Shirt/i };
/** Virtual and downloadable: nothing to ship. */
const VIRTUAL = { slug: 'meshfront-os', name: /Meshfront OS/i };
const THANK_YOU = 'Thank you for your order. We will send you an email with the order details.';
const NOT_FOUND = 'We could not find your order. Please try again later.';

const drawer = (page: Page) => page.locator('#cart-panel');
const badge = (page: Page) => page.locator('[data-cart-badge]');

/** Adds a product from its page; `count` is the cart's item count expected afterwards. */
async function addFromProductPage(page: Page, slug: string, count: number) {
  await page.goto(`/product/${slug}`);
  const button = page.locator('[data-add-to-cart]');
  // On a phone the button sits below the gallery: it hydrates when it scrolls into view, as a shopper's would.
  // Scroll by selector, not by element handle: hydration may swap the server-rendered node meanwhile.
  await page.evaluate(() => document.querySelector('[data-add-to-cart]')?.scrollIntoView({ block: 'center' }));
  await expect(button).toBeEnabled();
  // Hold the mutation a moment so the in-flight state is observable.
  const hold = async (route: Route) => {
    if ((route.request().postData() ?? '').includes('mutation addToCart')) await new Promise((r) => setTimeout(r, 600));
    await route.continue();
  };
  await page.route('**/graphql', hold);
  await button.click();
  await expect(button).toHaveText('Adding...');
  await expect(button).toBeDisabled();
  await expect(page.getByRole('status').filter({ hasText: 'was added to your cart' })).toBeVisible();
  await expect(button).toHaveText('Add to cart');
  await page.unroute('**/graphql', hold);
  await expect(badge(page)).toHaveText(String(count));
}

async function openCart(page: Page) {
  await page.locator('[data-cart-toggle]').click();
  await expect(drawer(page)).toBeVisible();
  await expect(drawer(page).locator('[data-cart-drawer]')).toBeVisible();
}

async function fillBilling(page: Page, email: string) {
  await fillGermanBillingAddress(page);
  await page.locator('#checkout-billing-firstName').fill('Ada');
  await page.locator('#checkout-billing-lastName').fill('Lovelace');
  await page.locator('#checkout-billing-email').fill(email);
}

/** Waits until the cart has settled (no mutation in flight). */
async function settled(page: Page) {
  await expect(drawer(page).locator('[data-cart-drawer]')).toHaveAttribute('aria-busy', 'false');
}

function uniqueEmail(tag: string) {
  return `e2e-${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 7)}@example.com`;
}

/** The gateway ids the checkout offers (the engine's paymentGateways), once the page has them. */
async function offeredGateways(page: Page): Promise<string[]> {
  const radios = page.locator('input[name="paymentMethod"]');
  await expect(radios.first()).toBeAttached();
  return radios.evaluateAll((inputs) => inputs.map((input) => (input as HTMLInputElement).value));
}

test.describe('cart drawer, session start and order pages (no purchase)', () => {
  test('content pages load no cart code and call no API before the first interaction; opening the cart hydrates the drawer', {
    tag: '@phone-too',
  }, async ({ page }) => {
    const scripts: string[] = [];
    const api: Request[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
      if (new URL(r.url()).pathname === '/graphql') api.push(r);
    });
    await page.goto('/support');
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((u) => /CartDrawer|react-dom|client\.[\w-]+\.js/.test(u))).toEqual([]);
    expect(api).toEqual([]);

    await page.locator('[data-cart-toggle]').click();
    await expect(drawer(page)).toBeVisible();
    await expect.poll(() => scripts.some((u) => /CartDrawer/.test(u))).toBe(true);
    // The session starts with one getCart.
    await expect
      .poll(() => api.filter((r) => (r.postData() ?? '').includes('query getCart')).length)
      .toBeGreaterThanOrEqual(1);
    // The shell's static empty state gives way to the drawer's own states.
    await expect(drawer(page).locator('[data-cart-empty]')).toBeHidden();
  });

  test('the checkout starts the session at once (no interaction needed)', async ({ page }) => {
    const getCart = page.waitForRequest(
      (r) => new URL(r.url()).pathname === '/graphql' && (r.postData() ?? '').includes('query getCart'),
    );
    await page.goto('/checkout');
    await getCart;
    await expect(page.getByRole('heading', { level: 1, name: 'Checkout' })).toBeVisible();
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
  });

  test('an order page with a wrong key shows the neutral not-found message', async ({ page }) => {
    await page.goto('/checkout/order-received/999999?key=wc_order_wrong');
    await expect(page.getByText(NOT_FOUND)).toBeVisible();
    await page.goto('/de/order-summary/999999');
    await expect(
      page.getByText('Wir konnten deine Bestellung nicht finden. Bitte versuche es später erneut.'),
    ).toBeVisible();
  });

  test('the checkout and the order lookup have no axe violations', { tag: '@phone-too' }, async ({ page }) => {
    for (const path of ['/checkout', '/order-summary', '/fr/order-summary']) {
      await page.goto(path);
      await expect(
        page.locator('[data-checkout-empty], [data-checkout-form], [data-order-lookup]').first(),
      ).toBeVisible();
      const results = await new AxeBuilder({ page }).analyze();
      expect(
        results.violations.map((v) => `${path} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
      ).toEqual([]);
    }
  });

  test('the order lookup validates its fields inline', async ({ page }) => {
    await page.goto('/order-summary');
    const form = page.locator('[data-order-lookup]');
    await form.getByRole('button', { name: 'Find my order' }).click();
    await expect(form.getByText('This field is required.')).toHaveCount(2);
    await expect(form.getByLabel('Order number')).toBeFocused();
    await form.getByLabel('Order number').fill('123');
    await form.getByLabel('Billing email').fill('not-an-email');
    await form.getByRole('button', { name: 'Find my order' }).click();
    await expect(form.getByText('Please enter a valid email address.')).toBeVisible();
  });
});

/** The shipping rate radios of the first package, in the drawer or the checkout review. */
const rateRadio = (scope: ReturnType<Page['locator']>, id: string) =>
  scope.locator(`input[type="radio"][name*="-0"][value="${id}"]`);

test.describe('the country, the shipping choice and the order page', () => {
  test('an English visitor sees the same country and total in the drawer and the checkout, and checks out to Germany without a state', async ({
    page,
  }) => {
    await addFromProductPage(page, VARIABLE.slug, 1);
    await openCart(page);
    await settled(page);
    const drawerTotal = (await drawer(page).locator('[data-cart-totals] [data-total="total"] dd').textContent()) ?? '';
    await expect(rateRadio(drawer(page), 'flat_rate:1')).toBeChecked();

    await drawer(page).locator('[data-cart-checkout]').click();
    await expect(page).toHaveURL(/\/checkout\/?$/);
    const form = page.locator('[data-checkout-form]');
    // The shop ships from Germany: the English page starts there too, as the drawer's estimate did.
    await expect(page.locator('#checkout-billing-country')).toHaveValue('DE');
    await expect(page.locator('#checkout-billing-state')).toHaveCount(0);
    await expect(rateRadio(form, 'flat_rate:1')).toBeChecked();
    await expect(form.locator('[data-cart-totals] [data-total="total"] dd')).toHaveText(drawerTotal);

    await page.locator('#checkout-billing-firstName').fill('Ada');
    await page.locator('#checkout-billing-lastName').fill('Lovelace');
    await page.locator('#checkout-billing-address1').fill('Invalidenstraße 1');
    await page.locator('#checkout-billing-city').fill('Berlin');
    await page.locator('#checkout-billing-postcode').fill('10115');
    await page.locator('#checkout-billing-email').fill(uniqueEmail('germany'));
    await form.locator('input[name="paymentMethod"][value="cod"]').check();
    await form.locator('[data-place-order]').click();

    await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\?key=/);
    const billing = page.locator('section[aria-labelledby="order-billing"] address');
    await expect(billing).toContainText('10115 Berlin');
    await expect(billing).toContainText('Germany');
    await expect(billing).not.toContainText('DE-');
  });

  test('free shipping is chosen once the cart reaches the free-shipping amount; the order page adds up with the discount as a row', async ({
    page,
  }) => {
    await addFromProductPage(page, VARIABLE.slug, 1);
    await openCart(page);
    const line = drawer(page).locator('[data-cart-line]').first();
    await line.getByRole('textbox').fill('3');
    await line.getByRole('textbox').press('Enter');
    await settled(page);
    await expect(badge(page)).toHaveText('3');
    // 3 × €25.00 = €75.00, over the €50.00 of free shipping within Germany.
    await expect(rateRadio(drawer(page), 'free_shipping:2')).toBeChecked();
    await expect(drawer(page).locator('[data-cart-totals] [data-total="shipping"] dd')).toHaveText('€0.00');

    await drawer(page).getByLabel('Coupon code').fill('welcome10');
    await drawer(page).getByRole('button', { name: 'Apply' }).click();
    await expect(drawer(page).locator('[data-coupon="welcome10"]')).toBeVisible();
    await settled(page);
    await expect(rateRadio(drawer(page), 'free_shipping:2')).toBeChecked();

    await drawer(page).locator('[data-cart-checkout]').click();
    const form = page.locator('[data-checkout-form]');
    await expect(rateRadio(form, 'free_shipping:2')).toBeChecked();
    await fillBilling(page, uniqueEmail('free-shipping'));
    await form.locator('input[name="paymentMethod"][value="cod"]').check();
    await form.locator('[data-place-order]').click();

    await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\?key=/);
    const totals = page.locator('[data-order-totals]');
    // The line shows its amount before the discount: the same as the subtotal, the discount a row below.
    await expect(page.locator('[data-order-line] [data-line-amount]')).toHaveText(
      (await totals.locator('[data-total="subtotal"] dd').textContent()) ?? '',
    );
    await expect(totals.locator('[data-total="discount"] dd')).toHaveText(/^-€\d/);
    await expect(totals.locator('[data-total="shipping"] dd')).toHaveText('€0.00');
  });

  test('a returning customer finds the address of the last order in the checkout, and the drawer estimates for it', async ({
    page,
  }) => {
    test.setTimeout(120_000);
    const email = uniqueEmail('returning');
    const password = `Mesh-${Date.now().toString(36)}-Pass9`;
    await page.goto('/my-account');
    const register = page.locator('[data-register-form]');
    await register.getByLabel('Email', { exact: false }).first().fill(email);
    await register.getByLabel('Password', { exact: false }).fill(password);
    await register.getByRole('button', { name: 'Create account' }).click();
    await expect(page.locator('[data-account-ready]')).toHaveAttribute('data-account-ready', 'customer', {
      timeout: 30_000,
    });

    // The first order goes to Virginia: the state is required there, and named as the US names it.
    await addFromProductPage(page, SIMPLE.slug, 1);
    await page.goto('/checkout');
    const form = page.locator('[data-checkout-form]');
    await page.locator('#checkout-billing-country').selectOption('US');
    await expect(page.locator('select#checkout-billing-state')).toBeVisible();
    await expect(page.locator('label[for="checkout-billing-state"]')).toHaveText(/^State \*$/);
    await expect(page.locator('label[for="checkout-billing-postcode"]')).toHaveText(/^ZIP Code/);
    await page.locator('#checkout-billing-firstName').fill('Grace');
    await page.locator('#checkout-billing-lastName').fill('Hopper');
    await page.locator('#checkout-billing-address1').fill('1000 N Glebe Rd');
    await page.locator('#checkout-billing-city').fill('Arlington');
    await page.locator('#checkout-billing-postcode').fill('22201');
    await form.locator('input[name="paymentMethod"][value="cod"]').check();
    await form.locator('[data-place-order]').click();
    await expect(page.locator('[data-field-error="billing.state"]')).toHaveText('This field is required.');
    await page.locator('select#checkout-billing-state').selectOption('VA');
    await expect(rateRadio(form, 'flat_rate:6')).toBeChecked();
    await form.locator('[data-place-order]').click();
    await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\?key=/);
    await expect(page.locator('section[aria-labelledby="order-billing"] address')).toContainText('Arlington, VA 22201');

    // Another day: logged out, a guest cart, then logged in again (the guest cart becomes the customer's).
    await page.goto('/my-account');
    await page.locator('[data-logout]').click();
    await expect(page.locator('[data-account-ready]')).toHaveAttribute('data-account-ready', 'guest');
    await addFromProductPage(page, SIMPLE.slug, 1);
    await page.goto('/my-account');
    const login = page.locator('[data-login-form]');
    await login.getByLabel('Username or email').fill(email);
    await login.getByLabel('Password').fill(password);
    await login.getByRole('button', { name: 'Log in' }).click();
    await expect(page.locator('[data-account-ready]')).toHaveAttribute('data-account-ready', 'customer');

    await openCart(page);
    await settled(page);
    await expect(rateRadio(drawer(page), 'flat_rate:6')).toBeChecked();
    await page.goto('/checkout');
    await expect(page.locator('#checkout-billing-country')).toHaveValue('US');
    await expect(page.locator('#checkout-billing-address1')).toHaveValue('1000 N Glebe Rd');
    await expect(page.locator('#checkout-billing-city')).toHaveValue('Arlington');
    await expect(page.locator('select#checkout-billing-state')).toHaveValue('VA');
    await expect(page.locator('#checkout-billing-postcode')).toHaveValue('22201');
    await expect(rateRadio(form, 'flat_rate:6')).toBeChecked();
  });
});

test.describe('buying (needs AddToCartButton mounted on /product/[slug])', () => {
  test('a guest adds a simple and a variable product, edits the cart, uses a coupon, picks shipping, pays cash on delivery and sees the order', {
    tag: '@phone-too',
  }, async ({ page }) => {
    // The whole journey (four product pages, cart edits, checkout, two order pages, the lookup) in one
    // test: more than the default minute when the machine is shared.
    test.setTimeout(120_000);
    await addFromProductPage(page, SIMPLE.slug, 1);
    await addFromProductPage(page, VARIABLE.slug, 2);
    await openCart(page);

    const lines = drawer(page).locator('[data-cart-line]');
    await expect(lines).toHaveCount(2);
    await expect(lines.filter({ hasText: VARIABLE.name })).toContainText(/Colour|Color/i);

    // Quantity stepper: + on the mug, then type 3, then − back to 2.
    const mug = lines.filter({ hasText: SIMPLE.name });
    await mug.getByRole('button', { name: /Increase the quantity/ }).click();
    await settled(page);
    await expect(mug.getByRole('textbox')).toHaveValue('2');
    await expect(badge(page)).toHaveText('3');
    await mug.getByRole('textbox').fill('3');
    await mug.getByRole('textbox').press('Enter');
    await settled(page);
    await expect(badge(page)).toHaveText('4');
    await mug.getByRole('button', { name: /Decrease the quantity/ }).click();
    await settled(page);
    await expect(badge(page)).toHaveText('3');

    // Coupon: apply welcome10 (10% off), then remove it.
    const totals = drawer(page).locator('[data-cart-totals]');
    const totalBefore = await totals.locator('[data-total="total"] dd').textContent();
    await drawer(page).getByLabel('Coupon code').fill('welcome10');
    await drawer(page).getByRole('button', { name: 'Apply' }).click();
    await expect(drawer(page).locator('[data-coupon="welcome10"]')).toBeVisible();
    await expect(totals.locator('[data-total="discount"]')).toBeVisible();
    await expect(totals.locator('[data-total="total"] dd')).not.toHaveText(totalBefore ?? '');
    await drawer(page).getByRole('button', { name: 'Remove coupon WELCOME10' }).click();
    await expect(drawer(page).locator('[data-coupon="welcome10"]')).toHaveCount(0);
    await expect(totals.locator('[data-total="total"] dd')).toHaveText(totalBefore ?? '');

    // A coupon that does not exist: the engine's message shows under the field.
    await drawer(page).getByLabel('Coupon code').fill('no-such-coupon');
    await drawer(page).getByRole('button', { name: 'Apply' }).click();
    await expect(
      drawer(page)
        .getByRole('alert')
        .filter({ hasText: /no-such-coupon|does not exist/i }),
    ).toBeVisible();

    // Removing a line.
    await addFromProductPage(page, 'meshfront-sticker-pack', 4);
    await openCart(page);
    await drawer(page)
      .locator('[data-cart-line]')
      .filter({ hasText: /Sticker/i })
      .getByRole('button', { name: 'Remove', exact: false })
      .last()
      .click();
    await settled(page);
    await expect(drawer(page).locator('[data-cart-line]')).toHaveCount(2);

    // Checkout.
    await drawer(page).locator('[data-cart-checkout]').click();
    await expect(page).toHaveURL(/\/checkout\/?$/);
    const form = page.locator('[data-checkout-form]');
    await expect(form).toBeVisible();

    // Inline validation before anything is sent. Cash on delivery first: the checkout preselects card, and
    // the order button waits for Stripe's script, which these tests keep offline.
    await form.locator('input[name="paymentMethod"][value="cod"]').check();
    await form.locator('[data-place-order]').click();
    await expect(page.locator('[data-field-error="billing.firstName"]')).toHaveText('This field is required.');
    await expect(page.locator('#checkout-billing-firstName')).toBeFocused();
    await page.locator('#checkout-billing-email').fill('ada@');
    await form.locator('[data-place-order]').click();
    await expect(page.locator('[data-field-error="billing.email"]')).toHaveText('Please enter a valid email address.');

    const email = uniqueEmail('cod');
    await fillBilling(page, email);
    await expect(page.locator('[data-field-error]')).toHaveCount(0);
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);

    // Shipping: rates follow the country; pick one that is not chosen yet when there is a choice.
    const rates = form.locator('input[type="radio"][name*="-0"]');
    await expect(rates.first()).toBeVisible();
    if ((await rates.count()) > 1) {
      const unchecked = form.locator('input[type="radio"][name*="-0"]:not(:checked)').first();
      const value = await unchecked.getAttribute('value');
      await unchecked.check();
      await expect(form.locator(`input[type="radio"][value="${value}"]`)).toBeChecked();
    }

    await form.locator('input[name="paymentMethod"][value="cod"]').check();
    await page.locator('#checkout-customerNote').fill('Please ring twice.');
    await form.locator('[data-place-order]').click();

    await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\?key=/);
    await expect(page.getByText(THANK_YOU)).toBeVisible();
    await expect(page.locator('[data-order-line]')).toHaveCount(2);
    await expect(page.getByText('Please ring twice.')).toBeVisible();
    await expect(page.locator('[data-order-status]')).toHaveAttribute('data-order-status', /PROCESSING|ON_HOLD/);
    await expect(badge(page)).toBeHidden();
    const orderNumber = (await page.locator('[data-order-number]').textContent())?.trim() ?? '';

    // The lookup: a wrong e-mail and an unknown number get the same answer; the right pair opens the order.
    await page.goto('/order-summary');
    const lookup = page.locator('[data-order-lookup]');
    // The button is enabled once the form's island runs (a click before would reload the bare form).
    await expect(lookup.getByRole('button', { name: 'Find my order' })).toBeEnabled();
    await lookup.getByLabel('Order number').fill(orderNumber);
    await lookup.getByLabel('Billing email').fill(uniqueEmail('wrong'));
    await lookup.getByRole('button', { name: 'Find my order' }).click();
    const miss = await page.locator('[data-lookup-message]').filter({ hasText: /./ }).textContent();
    await lookup.getByLabel('Order number').fill('987654321');
    await lookup.getByLabel('Billing email').fill(email);
    await lookup.getByRole('button', { name: 'Find my order' }).click();
    await expect(page.locator('[data-lookup-message]')).toHaveText(miss ?? '');
    await lookup.getByLabel('Order number').fill(orderNumber);
    await lookup.getByRole('button', { name: 'Find my order' }).click();
    await expect(page).toHaveURL(/\/order-summary\/\d+\?key=/);
    await expect(page.getByText(THANK_YOU)).toBeVisible();
  });

  test('with nothing to ship (the OS image) the checkout asks only for names and e-mail', {
    tag: '@phone-too',
  }, async ({ page }) => {
    // playwright.config.ts and the build set PUBLIC_CHECKOUT_HIDE_BILLING_FOR_VIRTUAL=true.
    await addFromProductPage(page, VIRTUAL.slug, 1);
    await page.goto('/checkout');
    const form = page.locator('[data-checkout-form]');
    await expect(form).toBeVisible();
    await expect(page.locator('[data-billing-hidden]')).toBeVisible();
    for (const field of ['country', 'address1', 'address2', 'city', 'postcode', 'state', 'company'])
      await expect(page.locator(`#checkout-billing-${field}`)).toHaveCount(0);
    // Nothing to ship: no shipping address either.
    await expect(page.getByLabel('Ship to a different address?')).toHaveCount(0);

    // Only names and e-mail are required (cash on delivery: card, preselected, would wait for Stripe's
    // script, offline here).
    await form.locator('input[name="paymentMethod"][value="cod"]').check();
    await form.locator('[data-place-order]').click();
    await expect(page.locator('[data-field-error]')).toHaveCount(3);
    for (const field of ['billing.firstName', 'billing.lastName', 'billing.email'])
      await expect(page.locator(`[data-field-error="${field}"]`)).toHaveText('This field is required.');
    await page.locator('#checkout-billing-firstName').fill('Grace');
    await page.locator('#checkout-billing-lastName').fill('Hopper');
    await page.locator('#checkout-billing-email').fill(uniqueEmail('virtual'));
    const axe = await new AxeBuilder({ page }).analyze();
    expect(axe.violations.map((v) => v.id)).toEqual([]);
    await page.screenshot({ path: test.info().outputPath('checkout-virtual.png'), fullPage: true });

    await form.locator('input[name="paymentMethod"][value="cod"]').check();
    await form.locator('[data-place-order]').click();
    await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\?key=/);
    await expect(page.getByText(THANK_YOU)).toBeVisible();
    await expect(page.locator('[data-order-line]')).toHaveCount(1);
    // Cash on delivery with a downloadable item waits on hold (WooCommerce's rule).
    await expect(page.locator('[data-order-status]')).toHaveAttribute('data-order-status', 'ON_HOLD');
  });

  test('a guest creates an account at checkout and arrives at the order logged in; a taken username is refused', async ({
    page,
  }) => {
    const username = `e2e${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
    const password = `Mesh-${username}-Pass9`;
    await addFromProductPage(page, SIMPLE.slug, 1);
    await page.goto('/checkout');
    const form = page.locator('[data-checkout-form]');
    await fillBilling(page, uniqueEmail('account'));
    await form.getByLabel('Create an account').check();
    await form.getByLabel('Username').fill('a b');
    await form.getByLabel('Password').fill('short');
    await form.locator('input[name="paymentMethod"][value="cod"]').check();
    await form.locator('[data-place-order]').click();
    await expect(page.locator('[data-field-error="account.username"]')).toHaveText(
      'Use 3 to 60 letters, digits or . _ @ + -',
    );
    await expect(page.locator('[data-field-error="account.password"]')).toHaveText(
      'The password needs at least 8 characters.',
    );
    await form.getByLabel('Username').fill(username);
    await form.getByLabel('Password').fill(password);
    await form.locator('[data-place-order]').click();

    await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\?key=/);
    await expect(page.getByText(THANK_YOU)).toBeVisible();
    // Logged in: the viewer is the new account and the login's auth token is kept.
    await expect
      .poll(() => page.evaluate(() => JSON.parse(localStorage.getItem('meshfront:viewer') ?? 'null')?.username ?? null))
      .toBe(username);
    expect((await page.context().cookies()).some((c) => c.name === 'meshfront-auth' && c.value.length > 20)).toBe(true);

    // Another guest (this browser, forgotten) asking for the same username gets the engine's message, and no order.
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await addFromProductPage(page, SIMPLE.slug, 1);
    await page.goto('/checkout');
    await fillBilling(page, uniqueEmail('taken'));
    await form.getByLabel('Create an account').check();
    await form.getByLabel('Username').fill(username);
    await form.getByLabel('Password').fill(`Other-${password}`);
    await form.locator('input[name="paymentMethod"][value="cod"]').check();
    await form.locator('[data-place-order]').click();
    await expect(page.locator('[data-checkout-error]')).toHaveText(
      'An account is already registered with that username. Please choose another.',
    );
    await expect(page).toHaveURL(/\/checkout\/?$/);
    await expect(badge(page)).toHaveText('1');
  });

  test('a guest pays with KDA and watches the order turn paid as the chain confirms', async ({ page }) => {
    await addFromProductPage(page, SIMPLE.slug, 1);
    await page.goto('/checkout');
    // playwright.config.ts starts the site with KDA_EUR_RATE and CHAINWEB_URL (see the top of this file).
    expect(await offeredGateways(page), 'the engine must offer KDA').toContain('kda');
    const chain = await startChain(Number(process.env.E2E_CHAINWEB_PORT ?? 4481));
    try {
      await fillBilling(page, uniqueEmail('kda'));
      await page.locator('input[name="paymentMethod"][value="kda"]').check();
      await page.locator('[data-place-order]').click();
      await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\?key=/);

      await expect(page.locator('[data-crypto-state="waiting"]')).toBeVisible();
      await expect(page.locator('[data-crypto-qr]')).toBeVisible();
      await expect(page.locator('[data-crypto-countdown]')).toHaveText(/^\d{1,2}(:\d{2}){1,2}$/);
      const account = (await page.locator('[data-crypto-address]').textContent())?.trim() ?? '';
      const amount = (await page.locator('[data-crypto-amount]').textContent())?.trim().split(/\s+/)[0] ?? '';
      expect(account).toMatch(/^k:[0-9a-f]{64}$/);
      expect(amount).toMatch(/^\d+(\.\d+)?$/);

      // Sent but not confirmed: the unconfirmed bar fills, the order still waits (the page polls every 10 s).
      chain.standIn.transfer(account, amount);
      await expect(page.locator('[data-crypto-progress="unconfirmed"] [role="progressbar"]')).toHaveAttribute(
        'aria-valuenow',
        '100',
        { timeout: 40_000 },
      );
      await expect(page.locator('[data-crypto-state="waiting"]')).toBeVisible();
      // Confirmations: the order turns paid.
      chain.standIn.mineBlocks(10);
      await expect(page.locator('[data-crypto-state="paid"]')).toBeVisible({ timeout: 40_000 });
      await expect(page.locator('[data-order-status]')).toHaveAttribute('data-order-status', /PROCESSING|COMPLETED/);
    } finally {
      await chain.stop();
    }
  });

  test('card: the checkout starts on card when the shop offers it; offline Stripe says so and the order cannot be placed', async ({
    page,
  }) => {
    await page.route('https://js.stripe.com/**', (route) => route.abort('internetdisconnected'));
    await addFromProductPage(page, SIMPLE.slug, 1);
    const intent = page.waitForRequest((r) => (r.postData() ?? '').includes('query getStripePaymentIntent'));
    await page.goto('/checkout');
    // playwright.config.ts gives the engine STRIPE_SECRET_KEY and the local Stripe stand-in.
    expect(await offeredGateways(page), 'the engine must offer card payments').toContain('stripe');
    const card = page.locator('input[name="paymentMethod"][value="stripe"]');
    // Card is preselected, not the next gateway in the shop's order (KDA).
    await expect(card).toBeChecked();
    await fillBilling(page, uniqueEmail('card'));
    await intent;
    const state = page.locator('[data-gateway="stripe"] [data-card-state]');
    await expect(state).toHaveAttribute('data-card-state', 'error');
    await expect(page.locator('[data-place-order]')).toBeDisabled();
  });
});
