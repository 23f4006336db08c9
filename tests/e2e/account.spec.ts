/**
 * The customer account, end to end against the real server: registering, logging out and in, the
 * account tabs (details, password, orders, downloads, wishlist), a forgotten password reset through the
 * e-mail link read from the mail outbox (<MESHFRONT_DATA_DIR>/mail), logging in with the local OpenID
 * Connect provider (global-setup.ts; playwright.config.ts configures the engine with OAUTH_PROVIDERS=mock
 * and PUBLIC_SITE_URL pointing here), and buying the downloadable OS image (paid in KDA against the
 * Chainweb stand-in: downloads are granted on paid orders only) and downloading a file until its limit.
 * Every screen is checked with axe.
 */
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { E2E_OAUTH_USER } from './global-setup.ts';
import {
  expectNoAxeViolations,
  fillGermanBillingAddress,
  localPath,
  readMail,
  startChain,
  t,
  waitForMail,
} from './helpers.ts';

let seq = 0;
function newShopper(tag: string) {
  const id = `${Date.now().toString(36)}${++seq}${Math.random().toString(36).slice(2, 6)}`;
  return { email: `e2e-${tag}-${id}@example.com`, password: `Mesh-${id}-pass!` };
}

const account = (page: Page) => page.locator('[data-account-ready]');
const loginForm = (page: Page) => page.locator('[data-login-form]');

async function openAccount(page: Page, query = '') {
  await page.goto(`/my-account${query}`);
  // The first session start of a fresh server also opens its database: allow for it.
  await expect(account(page)).toBeVisible({ timeout: 30_000 });
}

async function registerThroughForm(page: Page, shopper: { email: string; password: string }) {
  await openAccount(page);
  const form = page.locator('[data-register-form]');
  await form.getByLabel('Email', { exact: false }).first().fill(shopper.email);
  await form.getByLabel(t('account.field.password'), { exact: false }).fill(shopper.password);
  await form.getByRole('button', { name: t('account.register') }).click();
  await expect(page.getByRole('status').filter({ hasText: t('account.registered') })).toBeVisible();
  await expect(account(page)).toHaveAttribute('data-account-ready', 'customer');
}

async function logInThroughForm(page: Page, login: string, password: string) {
  await loginForm(page).getByLabel(t('account.field.usernameOrEmail')).fill(login);
  await loginForm(page).getByLabel(t('account.field.password')).fill(password);
  await loginForm(page)
    .getByRole('button', { name: t('account.login') })
    .click();
}

async function logOut(page: Page) {
  await page.locator('[data-logout]').click();
  await expect(account(page)).toHaveAttribute('data-account-ready', 'guest');
  await expect(page).toHaveURL(/\/my-account$/);
}

function tab(page: Page, id: string) {
  return page.getByRole('tab', { name: t(`account.tab.${id}`) });
}

test.describe('account: register, log out, log in, details and password', () => {
  test('a shopper registers, edits details, changes the password, logs out and back in', { tag: '@phone-too' }, async ({
    page,
  }) => {
    // A long journey (several logins, each a deliberately slow password hash on the server).
    test.setTimeout(180_000);
    const shopper = newShopper('acct');
    await openAccount(page);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
    await expect(page.getByRole('heading', { level: 1, name: t('account.title') })).toBeVisible();
    await expect(page.getByRole('link', { name: t('account.forgotPassword') })).toHaveAttribute(
      'href',
      '/my-account/lost-password',
    );
    await expectNoAxeViolations(page, 'guest');

    // Inline validation before anything is sent.
    await loginForm(page)
      .getByRole('button', { name: t('account.login') })
      .click();
    await expect(loginForm(page).getByText(t('account.error.required'))).toHaveCount(2);
    await expect(loginForm(page).getByLabel(t('account.field.usernameOrEmail'))).toBeFocused();

    // An unknown account: the spec's message in the form's alert.
    await logInThroughForm(page, shopper.email, shopper.password);
    await expect(loginForm(page).getByRole('alert')).toHaveText(t('account.error.unknownUsername'));

    await registerThroughForm(page, shopper);
    await expect(page.locator('[data-account-greeting]')).toHaveText(
      t('account.hello', { name: shopper.email.split('@')[0]! }),
    );
    await expect(tab(page, 'details')).toHaveAttribute('aria-selected', 'true');

    // The header knows the customer: the account icon shows the initial, the wishlist link goes to the account.
    const viewport = page.viewportSize();
    if (viewport && viewport.width >= 1024) {
      await expect(page.locator('header [data-account-link]')).toHaveAttribute('data-signed-in', '');
      await expect(page.locator('header [data-account-initial]')).toHaveText('E');
      await expect(page.locator('header [data-wishlist-link]')).toHaveAttribute('href', '/my-account?tab=wishlist');
    } else {
      await page.locator('[data-menu-toggle]').click();
      await expect(page.locator('#mobile-menu [data-account-name]')).toHaveText(shopper.email.split('@')[0]!);
      await expect(page.locator('#mobile-menu [data-wishlist-link]')).toHaveAttribute(
        'href',
        '/my-account?tab=wishlist',
      );
      await page.locator('#mobile-menu [data-panel-close]').click();
    }

    // My details: names and a billing address; the button reports progress and the result.
    const details = page.locator('[data-account-details]');
    await details.locator('#details-firstName').fill('Ada');
    await details.locator('#details-lastName').fill('Lovelace');
    await page.locator('#checkout-billing-country').selectOption('DE');
    await page.locator('#checkout-billing-firstName').fill('Ada');
    await page.locator('#checkout-billing-lastName').fill('Lovelace');
    await page.locator('#checkout-billing-address1').fill('Hauptstraße 1');
    await page.locator('#checkout-billing-city').fill('Berlin');
    await page.locator('#checkout-billing-postcode').fill('10115');
    const save = details.locator('button[type="submit"]');
    const hold = async (route: import('@playwright/test').Route) => {
      if ((route.request().postData() ?? '').includes('mutation UpdateCustomer'))
        await new Promise((r) => setTimeout(r, 500));
      await route.continue();
    };
    await page.route('**/graphql', hold);
    await save.click();
    await expect(save).toHaveText(t('account.details.updating'));
    await expect(save).toHaveText(t('account.details.updated'));
    await page.unroute('**/graphql', hold);
    await expect(page.locator('[data-account-greeting]')).toHaveText(t('account.hello', { name: 'Ada Lovelace' }));
    await expectNoAxeViolations(page, 'details');

    // A bad e-mail is refused before sending; the saved details come back after a reload.
    await details.locator('#details-email').fill('not-an-email');
    await save.click();
    await expect(details.getByText(t('account.error.email'))).toBeVisible();
    await page.reload();
    await expect(account(page)).toHaveAttribute('data-account-ready', 'customer');
    await expect(page.locator('#checkout-billing-city')).toHaveValue('Berlin');
    await expect(page.locator('#details-firstName')).toHaveValue('Ada');

    // "Download my data": one JSON file with the account as saved.
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-personal-data]').click()]);
    expect(download.suggestedFilename()).toMatch(/^meshfront-data-\d{4}-\d{2}-\d{2}\.json$/);
    const exported = JSON.parse(fs.readFileSync((await download.path())!, 'utf8'));
    expect(exported.account).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace' });
    expect(exported.addresses.billing.city).toBe('Berlin');
    await expect(page.getByText(t('account.data.downloaded'))).toBeVisible();

    // Tabs live in the URL: back and forward switch them.
    await tab(page, 'orders').click();
    await expect(page).toHaveURL(/\?tab=orders$/);
    await expect(page.locator('[data-orders-empty]')).toBeVisible();
    await tab(page, 'downloads').click();
    await expect(page).toHaveURL(/\?tab=downloads$/);
    await expect(page.locator('[data-downloads-empty]')).toBeVisible();
    await page.goBack();
    await expect(tab(page, 'orders')).toHaveAttribute('aria-selected', 'true');
    await page.goForward();
    await expect(tab(page, 'downloads')).toHaveAttribute('aria-selected', 'true');
    // Arrow keys move between tabs (ARIA tabs pattern).
    await tab(page, 'downloads').focus();
    await page.keyboard.press('ArrowRight');
    await expect(tab(page, 'wishlist')).toBeFocused();
    await expect(page).toHaveURL(/\?tab=wishlist$/);

    // Change password: a mismatch is refused with the spec's message, then the change goes through.
    await tab(page, 'password').click();
    const pw = page.locator('[data-account-password]');
    const newPassword = `${shopper.password}-2`;
    await pw.locator('#password-current').fill(shopper.password);
    await pw.locator('#password-password').fill(newPassword);
    await pw.locator('#password-confirm').fill(`${newPassword}x`);
    await pw.getByRole('button', { name: t('account.password.save') }).click();
    await expect(pw.getByRole('alert')).toHaveText(t('account.error.passwordMismatch'));
    await pw.locator('#password-confirm').fill(newPassword);
    await pw.getByRole('button', { name: t('account.password.save') }).click();
    await expect(pw.getByRole('status')).toHaveText(t('account.password.changed'));
    await expectNoAxeViolations(page, 'password');

    // Logging out on /my-account stays there and shows the login form.
    await logOut(page);
    await expect(page.getByRole('status').filter({ hasText: t('account.loggedOut') })).toBeVisible();
    expect(await page.evaluate(() => localStorage.getItem('meshfront:viewer'))).toBe('null');
    const cookies = (await page.context().cookies()).map((c) => c.name);
    expect(cookies).not.toContain('meshfront-auth');
    expect(cookies).not.toContain('meshfront-refresh');

    // The old password no longer works; the new one does, with 'Logging you in...' while it runs.
    await logInThroughForm(page, shopper.email, shopper.password);
    await expect(loginForm(page).getByRole('alert')).toHaveText(t('account.error.wrongPassword'));
    const slowLogin = async (route: import('@playwright/test').Route) => {
      if ((route.request().postData() ?? '').includes('mutation login')) await new Promise((r) => setTimeout(r, 600));
      await route.continue();
    };
    await page.route('**/graphql', slowLogin);
    await logInThroughForm(page, shopper.email, newPassword);
    await expect(loginForm(page).getByRole('button', { name: t('account.loggingIn') })).toBeDisabled();
    await expect(account(page)).toHaveAttribute('data-account-ready', 'customer');
    await page.unroute('**/graphql', slowLogin);
    await expect(page.locator('[data-account-greeting]')).toHaveText(t('account.hello', { name: 'Ada Lovelace' }));
  });

  test('the login survives its short-lived auth token: an expired token is refreshed on the next visit', async ({
    page,
  }) => {
    const shopper = newShopper('refresh');
    await registerThroughForm(page, shopper);
    // Make the stored auth token unusable, as if its 300 s had passed.
    await page.context().clearCookies({ name: 'meshfront-auth' });
    await page.evaluate(() => localStorage.removeItem('meshfront:auth'));
    const refreshed = page.waitForRequest((r) => (r.postData() ?? '').includes('mutation refreshToken'));
    await openAccount(page, '?tab=orders');
    await refreshed;
    await expect(account(page)).toHaveAttribute('data-account-ready', 'customer');
    await expect(page.locator('[data-orders-empty]')).toBeVisible();
  });
});

test.describe('account: wishlist', () => {
  test('the guest wishlist joins the account on registration and is kept on the server', async ({ page }) => {
    test.setTimeout(120_000);
    await page.goto('/product/meshfront-os');
    const save = page.getByRole('button', { name: t('wishlist.save') });
    await save.scrollIntoViewIfNeeded();
    // The button hydrates on the first interaction: click until the saved state shows.
    const saved = page.getByRole('button', { name: t('wishlist.saved') });
    await expect(async () => {
      if ((await saved.count()) === 0) await save.click();
      await expect(saved).toHaveAttribute('aria-pressed', 'true', { timeout: 2_000 });
    }).toPass({ timeout: 30_000 });

    await registerThroughForm(page, newShopper('wish'));
    await tab(page, 'wishlist').click();
    const list = page.locator('[data-account-area] [role="tabpanel"]');
    await expect(list.getByRole('link', { name: /Meshfront OS/ })).toBeVisible();
    await expectNoAxeViolations(page, 'wishlist');

    // The browser's copy is gone: the account's list comes back from the server.
    await page.evaluate(() => localStorage.removeItem('meshfront:wishlist'));
    await openAccount(page, '?tab=wishlist');
    await expect(list.getByRole('link', { name: /Meshfront OS/ })).toBeVisible();
    // Removing it here removes it on the server too.
    const removed = page.waitForResponse(
      (r) => (r.request().postData() ?? '').includes('mutation removeFromWishlist') && r.ok(),
    );
    await list.getByRole('button', { name: t('wishlist.removeShort') }).click();
    await removed;
    await page.evaluate(() => localStorage.removeItem('meshfront:wishlist'));
    await openAccount(page, '?tab=wishlist');
    await expect(list.getByRole('heading', { name: t('wishlist.empty.title') })).toBeVisible();
    await expect(list.getByRole('link', { name: /Meshfront OS/ })).toHaveCount(0);
  });
});

test.describe('account: forgotten password', () => {
  test('a shopper resets a forgotten password with the link from the e-mail; the link works once', async ({ page }) => {
    const shopper = newShopper('reset');
    await registerThroughForm(page, shopper);
    await logOut(page);

    await page.getByRole('link', { name: t('account.forgotPassword') }).click();
    await expect(page).toHaveURL(/\/my-account\/lost-password$/);
    await expect(page.getByRole('heading', { level: 1, name: t('account.lost.pageTitle') })).toBeVisible();
    await expectNoAxeViolations(page, 'lost-password');
    const request = page.locator('[data-lost-request]');
    // An unknown address gets the same answer as a known one.
    await request.getByLabel(t('account.field.usernameOrEmail')).fill(`nobody-${shopper.email}`);
    await request.getByRole('button', { name: t('account.lost.send') }).click();
    await expect(request.getByRole('status')).toHaveText(t('account.lost.sent'));
    await request.getByLabel(t('account.field.usernameOrEmail')).fill(shopper.email);
    await request.getByRole('button', { name: t('account.lost.send') }).click();
    await expect(request.getByRole('status')).toHaveText(t('account.lost.sent'));

    const mail = await waitForMail({ to: shopper.email, subject: /password/i });
    const link = mail.links.find((l) => l.includes('/my-account/lost-password?key='));
    expect(link, 'the reset link').toBeTruthy();
    await page.goto(localPath(link!));
    const reset = page.locator('[data-reset-form]');
    await expect(reset).toBeVisible();
    await expectNoAxeViolations(page, 'reset');
    const newPassword = `${shopper.password}-reset`;
    await reset.locator('#reset-password').fill(newPassword);
    await reset.locator('#reset-confirm').fill('something-else-1');
    await reset.getByRole('button', { name: t('account.reset.save') }).click();
    await expect(reset.getByRole('alert')).toHaveText(t('account.error.passwordMismatch'));
    await reset.locator('#reset-confirm').fill(newPassword);
    await reset.getByRole('button', { name: t('account.reset.save') }).click();
    await expect(page.locator('[data-reset-done]').getByRole('status')).toHaveText(t('account.reset.done'));

    // The link is single use: opening it again ends in the invalid-link state with a way to ask again.
    await page.goto(localPath(link!));
    await page.locator('#reset-password').fill(`${newPassword}-again`);
    await page.locator('#reset-confirm').fill(`${newPassword}-again`);
    await page.locator('[data-reset-form] button[type="submit"]').click();
    const invalid = page.locator('[data-reset-invalid]');
    await expect(invalid.getByRole('alert')).toHaveText(t('account.reset.invalid'));
    await expect(invalid.locator('[data-lost-request]')).toBeVisible();
    await expectNoAxeViolations(page, 'invalid link');
    // A mangled link is invalid at once.
    await page.goto('/my-account/lost-password?key=&login=x');
    await expect(page.locator('[data-reset-invalid]')).toBeVisible();

    await openAccount(page);
    await logInThroughForm(page, shopper.email, newPassword);
    await expect(account(page)).toHaveAttribute('data-account-ready', 'customer');
  });
});

test.describe('account: deleting the account', () => {
  test('a customer deletes the account with the password: a wrong one deletes nothing, then the login ends and the address is free', async ({
    page,
  }) => {
    const shopper = newShopper('delete');
    await registerThroughForm(page, shopper);
    await openAccount(page, '?tab=details');
    await page.locator('[data-delete-account]').click();
    const form = page.locator('[data-delete-account-form]');
    await expect(form).toBeVisible();
    await expectNoAxeViolations(page, 'delete account');

    // Nothing happens without the tick, nor with a wrong password (said by the engine, nothing deleted).
    await form.getByLabel(t('account.delete.password')).fill('not-my-password');
    await form.locator('[data-delete-account-submit]').click();
    await expect(form.getByRole('alert')).toHaveText(t('account.delete.confirmRequired'));
    await form.getByLabel(t('account.delete.confirm')).check();
    await form.locator('[data-delete-account-submit]').click();
    await expect(form.getByRole('alert')).toHaveText(t('engine.account.erase.passwordWrong'));
    await expect(account(page)).toHaveAttribute('data-account-ready', 'customer');

    await form.getByLabel(t('account.delete.password')).fill(shopper.password);
    await form.locator('[data-delete-account-submit]').click();
    await expect(account(page)).toHaveAttribute('data-account-ready', 'guest');
    await expect(page.getByText(t('account.delete.done'))).toBeVisible();
    const cookies = (await page.context().cookies()).map((c) => c.name);
    expect(cookies).not.toContain('meshfront-auth');
    expect(cookies).not.toContain('meshfront-refresh');
    const mail = await waitForMail({ to: shopper.email, subject: /account was deleted/ });
    expect(mail.text).toContain('free again');

    // The account is gone: its login is refused, and the address registers anew.
    await logInThroughForm(page, shopper.email, shopper.password);
    await expect(loginForm(page).getByRole('alert')).toHaveText(t('account.error.unknownUsername'));
    await registerThroughForm(page, shopper);
  });
});

test.describe('account: external login provider', () => {
  test('a shopper logs in through the OpenID Connect provider and lands in the account', async ({ page }) => {
    await openAccount(page);
    const button = page.getByRole('link', { name: t('account.continueWith', { name: 'Meshfront ID' }) });
    await expect(button).toBeVisible();
    await button.click();
    // The provider answers at once; the callback page completes the login and goes to the account.
    await expect(page).toHaveURL(/\/my-account$/);
    await expect(account(page)).toHaveAttribute('data-account-ready', 'customer');
    await expect(page.locator('[data-account-greeting]')).toHaveText(t('account.hello', { name: E2E_OAUTH_USER.name }));
    await expect(page.locator('#details-email')).toHaveValue(E2E_OAUTH_USER.email);
    await logOut(page);
  });

  test('a forged or replayed provider response is refused with the reason and a way back', async ({ page }) => {
    await page.goto('/oauth/login/mock?code=forged-code&state=forged-state');
    const failed = page.locator('[data-oauth-failed]');
    await expect(failed.getByRole('alert')).toHaveText(
      'The state returned from the Meshfront ID response does not match.',
    );
    await expect(page).toHaveURL(/\/oauth\/login\/mock$/);
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', /noindex/);
    await expectNoAxeViolations(page, 'oauth failure');
    await failed.getByRole('link', { name: t('account.oauth.back') }).click();
    await expect(page).toHaveURL(/\/my-account$/);
    // A provider that reports an error (the shopper cancelled).
    await page.goto('/oauth/login/mock?error=access_denied');
    await expect(page.locator('[data-oauth-failed]').getByRole('alert')).toHaveText(t('account.oauth.cancelled'));
  });
});

test.describe('account: deleting an account without a password', () => {
  test('a customer who logs in through the provider deletes the account with the e-mailed link', async ({ page }) => {
    await openAccount(page);
    await page.getByRole('link', { name: t('account.continueWith', { name: 'Meshfront ID' }) }).click();
    await expect(account(page)).toHaveAttribute('data-account-ready', 'customer');
    await openAccount(page, '?tab=details');
    await page.locator('[data-delete-account]').click();
    const subject = /Confirm the deletion/;
    const before = (await readMail({ to: E2E_OAUTH_USER.email, subject })).length;
    await page.locator('[data-delete-account-link]').click();
    await expect(page.locator('[data-delete-account-form]').getByRole('status')).toHaveText(
      t('account.delete.linkSent'),
    );
    let link = '';
    await expect
      .poll(async () => {
        const mails = await readMail({ to: E2E_OAUTH_USER.email, subject });
        const newest = mails.sort((a, b) => a.date.localeCompare(b.date)).at(-1);
        link = mails.length > before ? (/https?:\/\/\S+delete-account=\S+/.exec(newest!.text)?.[0] ?? '') : '';
        return link;
      })
      .not.toBe('');

    // The link opens the details tab, which asks once more (no password field) before deleting.
    await page.goto(localPath(link));
    await expect(account(page)).toHaveAttribute('data-account-ready', 'customer');
    const form = page.locator('[data-delete-account-form]');
    await expect(form.getByText(t('account.delete.fromLink'))).toBeVisible();
    await expect(form.getByLabel(t('account.delete.password'))).toHaveCount(0);
    await expect(page).not.toHaveURL(/delete-account=/);
    await form.getByLabel(t('account.delete.confirm')).check();
    await form.locator('[data-delete-account-submit]').click();
    await expect(account(page)).toHaveAttribute('data-account-ready', 'guest');
    await expect(page.getByText(t('account.delete.done'))).toBeVisible();
    await waitForMail({ to: E2E_OAUTH_USER.email, subject: /account was deleted/ });
  });
});

test.describe('account: downloads', () => {
  test('a customer buys the OS image, pays in KDA, finds the files in the account and downloads one until its limit', async ({
    page,
  }) => {
    test.setTimeout(240_000);
    const shopper = newShopper('dl');
    await registerThroughForm(page, shopper);

    // The OS image: virtual and downloadable, 5 downloads per file (content/catalog/products/meshfront-os.json).
    await page.goto('/product/meshfront-os');
    await page.evaluate(() => document.querySelector('[data-add-to-cart]')?.scrollIntoView({ block: 'center' }));
    await expect(page.locator('[data-add-to-cart]')).toBeEnabled();
    await page.locator('[data-add-to-cart]').click();
    await expect(page.locator('[data-cart-badge]')).toHaveText('1');

    await page.goto('/checkout');
    const form = page.locator('[data-checkout-form]');
    await expect(form).toBeVisible();
    await fillContact(page, shopper.email);
    const kda = form.locator('input[name="paymentMethod"][value="kda"]');
    await expect(kda, 'the engine must offer KDA (playwright.config.ts sets KDA_EUR_RATE)').toBeVisible();
    const chain = await startChain(Number(process.env.E2E_CHAINWEB_PORT ?? 4481));
    try {
      await kda.check();
      await form.locator('[data-place-order]').click();
      await expect(page).toHaveURL(/\/checkout\/order-received\/\d+\?key=/);
      await expect(page.locator('[data-crypto-state="waiting"]')).toBeVisible();
      const address = (await page.locator('[data-crypto-address]').textContent())?.trim() ?? '';
      const amount = (await page.locator('[data-crypto-amount]').textContent())?.trim().split(/\s+/)[0] ?? '';
      chain.standIn.transfer(address, amount);
      chain.standIn.mineBlocks(10);
      await expect(page.locator('[data-crypto-state="paid"]')).toBeVisible({ timeout: 60_000 });
    } finally {
      await chain.stop();
    }

    // The order is in the history with its status, total and date, linking to its summary.
    await openAccount(page, '?tab=orders');
    const row = page.locator('[data-order-row]').first();
    await expect(row.locator('[data-order-status]')).toHaveAttribute('data-order-status', 'COMPLETED');
    await expect(row).toContainText(t('order.statusName.COMPLETED'));
    await expectNoAxeViolations(page, 'orders');

    await tab(page, 'downloads').click();
    const guide = page.locator('[data-download]').filter({ hasText: 'Meshfront OS flashing guide' });
    await expect(page.locator('[data-download]')).toHaveCount(3);
    await expect(guide.locator('[data-download-remaining]')).toHaveText('5');
    await expectNoAxeViolations(page, 'downloads');
    const button = guide.getByRole('link', {
      name: t('account.downloads.downloadNamed', { name: 'Meshfront OS flashing guide' }),
    });
    const firstUrl = await button.getAttribute('href');
    for (let left = 4; left >= 0; left--) {
      const download = page.waitForEvent('download');
      await button.click();
      const file = await download;
      expect(file.suggestedFilename()).toBe('meshfront-os-flashing-guide.txt');
      expect(fs.readFileSync((await file.path())!, 'utf8')).toMatch(/Meshfront OS/i);
      if (left > 0) await expect(guide.locator('[data-download-remaining]')).toHaveText(String(left));
    }
    // Used up: the button gives way to the reason, and the engine refuses the link with the same message.
    await expect(guide.locator('[data-download-refused]')).toHaveText(t('account.downloads.limitReached'));
    await expect(guide).toHaveAttribute('data-download-state', 'exhausted');
    const refused = await page.request.get(localPath(firstUrl!));
    expect(refused.status()).toBe(403);
    expect(await refused.text()).toBe('Sorry, you have reached your download limit for this file');
    // The other files keep their own count.
    await expect(
      page.locator('[data-download]').filter({ hasText: 'SHA-256' }).locator('[data-download-remaining]'),
    ).toHaveText('5');
  });
});

/** Names and e-mail (all-virtual carts ask for no address); fills the address too if the form shows it. */
async function fillContact(page: Page, email: string) {
  if (await page.locator('#checkout-billing-country').isVisible()) await fillGermanBillingAddress(page);
  await page.locator('#checkout-billing-firstName').fill('Dee');
  await page.locator('#checkout-billing-lastName').fill('Loader');
  await page.locator('#checkout-billing-email').fill(email);
}
