// Contact form (modal and /contact page) and newsletter sign-up, against the real server: the bot check
// runs against the local stand-ins from global-setup.ts, mail lands in the server's outbox
// (<MESHFRONT_DATA_DIR>/mail) and the tests follow the links in it. No axe violations on any step.
import { expect, test, type Page, type Request } from '@playwright/test';
import { choosePrivacy, expectNoAxeViolations, localPath, readMail, t, waitForMail } from './helpers.ts';

let seq = 0;
const uniqueEmail = (name: string) =>
  `${name}.${Date.now().toString(36)}.${++seq}.${Math.random().toString(36).slice(2, 6)}@example.com`;

function modal(page: Page) {
  return page.locator('#contact-modal');
}

/** How long the form's island may take to hydrate on a cold, busy test server. */
const HYDRATION_TIMEOUT = 30_000;

/**
 * Waits until React owns the contact form. Its markup is prebuilt, so the form is visible before its
 * code has loaded (client:visible); typing into it then does not reach React's state, and a click on
 * Send is a native submit (a GET of the page with the fields in the query string) instead of the
 * island's submit: no spinner, no request. That is how the spinner test flaked when the island's
 * chunk arrived late. Astro drops the island's `ssr` attribute once hydrateRoot has run; from then on
 * React handles events on the form (it hydrates synchronously for a discrete event if need be).
 */
async function formHydrated(page: Page, variant: 'modal' | 'page') {
  const island = page.locator('astro-island', { has: page.locator(`form[data-contact-form="${variant}"]`) });
  await expect(island).toHaveCount(1);
  await expect(island).not.toHaveAttribute('ssr', { timeout: HYDRATION_TIMEOUT });
}

async function openModal(page: Page) {
  await page.locator('footer [data-contact-open]').click();
  await expect(modal(page)).toBeVisible();
  // The island hydrates on first open (when the dialog shows the form).
  await expect(modal(page).locator('form[data-contact-form="modal"]')).toBeVisible();
  await formHydrated(page, 'modal');
}

async function fillForm(
  scope: ReturnType<Page['locator']>,
  values: { firstName?: string; lastName?: string; email: string; phone?: string; message?: string },
) {
  await scope.getByLabel(t('contact.firstName')).fill(values.firstName ?? 'Ana');
  await scope.getByLabel(t('contact.lastName')).fill(values.lastName ?? 'Lima');
  await scope.getByLabel(t('contact.email'), { exact: true }).fill(values.email);
  await scope.getByLabel(t('contact.phone')).fill(values.phone ?? '+55 11 5555-0100');
  await scope
    .getByLabel(t('contact.message'))
    .fill(values.message ?? 'My gateway blinks red after flashing the OS image. What should I check?');
}

const alertBanner = (page: Page) => page.locator('#alert-banner');

/**
 * The server runs reCAPTCHA here, which loads only with the visitor's consent: accept it first, as a
 * visitor would, in the footer's privacy settings (tests/e2e/consent.spec.ts covers asking and declining).
 */
async function acceptThirdParties(page: Page) {
  await page.goto('/about');
  await choosePrivacy(page, 'accept');
}

test.describe('contact modal', () => {
  test.beforeEach(async ({ page }) => acceptThirdParties(page));

  test('loads no form code before it opens, clears on every opening, and sends a valid message', {
    tag: '@phone-too',
  }, async ({ page }) => {
    const scripts: string[] = [];
    page.on('request', (r: Request) => {
      if (r.resourceType() === 'script') scripts.push(r.url());
    });
    await page.goto('/about');
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((u) => /ContactForm|recaptcha/i.test(u))).toEqual([]);

    await openModal(page);
    expect(scripts.some((u) => /ContactForm/.test(u))).toBe(true);
    const form = modal(page);
    await expect(form.getByLabel(t('contact.message'))).toHaveCSS('height', '185px');
    await expect(form.getByText(/protected by reCAPTCHA/)).toBeVisible();
    await expect(form.getByRole('link', { name: t('contact.recaptcha.privacy') })).toHaveAttribute(
      'href',
      'https://policies.google.com/privacy',
    );
    await expectNoAxeViolations(page);

    // Typed text does not survive closing and reopening.
    await fillForm(form, { email: 'someone@example.com' });
    await page.keyboard.press('Escape');
    await expect(modal(page)).toBeHidden();
    await openModal(page);
    for (const label of ['contact.firstName', 'contact.lastName', 'contact.phone', 'contact.message'])
      await expect(form.getByLabel(t(label))).toHaveValue('');
    await expect(form.getByLabel(t('contact.email'), { exact: true })).toHaveValue('');

    const email = uniqueEmail('modal');
    await fillForm(form, { email, message: `Hello from the modal (${email}).` });
    await form.getByRole('button', { name: t('contact.send') }).click();
    await expect(modal(page)).toBeHidden();
    await expect(alertBanner(page)).toHaveAttribute('data-type', 'success');
    await expect(alertBanner(page)).toContainText(/thank you/i);

    // The script was asked for a token for action 'submit', loaded with the site key and hl=id.
    expect(await page.evaluate(() => (window as unknown as { __e2eRecaptchaSrc: string }).__e2eRecaptchaSrc)).toMatch(
      /render=e2e-site-key&hl=id$/,
    );
    expect(
      await page.evaluate(
        () => (window as unknown as { __e2eRecaptchaCalls: { action: string }[] }).__e2eRecaptchaCalls.at(-1)?.action,
      ),
    ).toBe('submit');

    const mail = await waitForMail({ to: 'support@meshfront.example', subject: /Contact form: Ana Lima/ });
    const mine = (await readMail({ subject: /Contact form/ })).find((m) => m.replyTo === email);
    expect(mine, 'the mail to support has the visitor as Reply-To').toBeDefined();
    expect(mine!.text).toContain(`Hello from the modal (${email}).`);
    expect(mail.to).toEqual(['support@meshfront.example']);
  });

  test('stops at an invalid e-mail address with an inline message and sends nothing', async ({ page }) => {
    let posted = false;
    page.on('request', (r) => {
      if (r.url().includes('/api/contact-form/create')) posted = true;
    });
    await page.goto('/');
    await openModal(page);
    const form = modal(page);
    await fillForm(form, { email: 'ana@' });
    await form.getByRole('button', { name: t('contact.send') }).click();
    const emailInput = form.getByLabel(t('contact.email'), { exact: true });
    await expect(form.getByText(t('contact.invalidEmail'))).toBeVisible();
    await expect(emailInput).toHaveAttribute('aria-invalid', 'true');
    await expect(emailInput).toBeFocused();
    await expect(modal(page)).toBeVisible();
    expect(posted).toBe(false);
    await expectNoAxeViolations(page);
  });

  test('shows the server’s message when the bot check fails, and can send again', async ({ page }) => {
    await page.goto('/');
    await openModal(page);
    await page.evaluate(() => ((window as unknown as { __e2eRecaptchaToken: string }).__e2eRecaptchaToken = 'fail'));
    const form = modal(page);
    await fillForm(form, { email: uniqueEmail('bot') });
    const button = form.getByRole('button', { name: t('contact.send') });
    await button.click();
    await expect(alertBanner(page)).toHaveAttribute('data-type', 'danger');
    await expect(alertBanner(page)).toContainText(/^Bot check failed/);
    await expect(form.getByRole('alert')).toContainText(/Bot check failed/);
    await expect(modal(page)).toBeVisible();
    await expect(button).toBeEnabled();

    await page.evaluate(() => ((window as unknown as { __e2eRecaptchaToken: string }).__e2eRecaptchaToken = ''));
    await button.click();
    await expect(modal(page)).toBeHidden();
    await expect(alertBanner(page)).toHaveAttribute('data-type', 'success');
  });

  test('shows a spinner while sending and “Something went wrong” when the server fails', async ({ page }) => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/contact-form/create', async (route) => {
      await released;
      await route.fulfill({ status: 500, contentType: 'text/html', body: '<h1>Internal Server Error</h1>' });
    });
    await page.goto('/');
    await openModal(page);
    const form = modal(page);
    await fillForm(form, { email: uniqueEmail('down') });
    await form.getByRole('button', { name: t('contact.send') }).click();
    const busy = form.getByRole('button', { name: t('contact.sending') });
    await expect(busy).toBeDisabled();
    await expect(form.locator('form')).toHaveAttribute('aria-busy', 'true');
    release();
    await expect(alertBanner(page)).toHaveAttribute('data-type', 'danger');
    await expect(alertBanner(page)).toContainText(t('contact.somethingWentWrong'));
    await expect(form.getByRole('button', { name: t('contact.send') })).toBeEnabled();
    await expect(modal(page)).toBeVisible();
  });
});

test.describe('contact page', () => {
  test.beforeEach(async ({ page }) => acceptThirdParties(page));

  test('sends a message from /contact and clears the form', { tag: '@phone-too' }, async ({ page }) => {
    await page.goto('/contact');
    await expect(page.getByRole('heading', { level: 1, name: t('contact.page.title') })).toBeVisible();
    const form = page.locator('form[data-contact-form="page"]');
    await formHydrated(page, 'page');
    await expectNoAxeViolations(page);
    const email = uniqueEmail('page');
    await fillForm(form, { email });
    await form.getByRole('button', { name: t('contact.send') }).click();
    await expect(alertBanner(page)).toHaveAttribute('data-type', 'success');
    await expect(form.getByLabel(t('contact.email'), { exact: true })).toHaveValue('');
    await expect
      .poll(async () => (await readMail({ subject: /Contact form/ })).some((m) => m.replyTo === email))
      .toBe(true);
  });
});

test.describe('contact form before its script has run', () => {
  /** The island's chunk (component-url …/ContactForm.<hash>.js): aborting it keeps the form plain prebuilt HTML. */
  const CONTACT_CHUNK = /\/_astro\/ContactForm\.[^/]*\.js(\?.*)?$/;

  function privateValues() {
    const tag = Math.random().toString(36).slice(2, 8);
    return {
      firstName: `Quirin${tag}`,
      lastName: `Privatlast${tag}`,
      email: uniqueEmail(`leak${tag}`),
      phone: `+49 30 555 ${Math.floor(1000 + Math.random() * 8999)}`,
      message: `Private question ${tag}: my address is Hauptstrasse 1`,
    };
  }

  /** Entered values found in a URL, raw, percent-encoded or form-encoded ('+' for spaces). */
  function leakedInto(url: string, values: Record<string, string>): string[] {
    const lower = url.toLowerCase();
    let decoded = lower;
    try {
      decoded = decodeURIComponent(lower.replace(/\+/g, ' '));
    } catch {
      // A malformed escape: the raw URL is still checked.
    }
    return Object.values(values).filter((value) => {
      const v = value.toLowerCase();
      return (
        [v, encodeURIComponent(v), encodeURIComponent(v).replace(/%20/g, '+')].some((form) => lower.includes(form)) ||
        decoded.includes(v)
      );
    });
  }

  /** Blocks the island's chunk; resolves once the browser has tried (and failed) to load it. */
  async function blockContactChunk(page: Page) {
    let blocked = 0;
    await page.route(CONTACT_CHUNK, (route) => {
      blocked += 1;
      return route.abort();
    });
    return { blocked: () => blocked };
  }

  /** Click Send and press Enter in a field: with the button inactive until hydration, neither leaves the page. */
  async function trySubmitting(page: Page, scope: ReturnType<Page['locator']>) {
    const send = scope.getByRole('button', { name: t('contact.send') });
    await expect(send).toBeDisabled();
    await expect(send).toHaveAccessibleDescription(t('contact.preparing'));
    await send.click({ force: true });
    await scope.getByLabel(t('contact.email'), { exact: true }).press('Enter');
    // A native submit would be a navigation right away; give it time to start.
    await page.waitForTimeout(750);
  }

  test('the /contact form sends nothing into the URL, keeps what was typed, and a forced native submit is a POST that stores nothing', async ({
    page,
  }) => {
    const chunk = await blockContactChunk(page);
    const documents: { url: string; method: string }[] = [];
    page.on('request', (r) => {
      if (r.resourceType() === 'document') documents.push({ url: r.url(), method: r.method() });
    });
    await page.goto('/contact');
    const form = page.locator('form[data-contact-form="page"]');
    await form.scrollIntoViewIfNeeded();
    await expect
      .poll(chunk.blocked, { message: 'the browser tried to load the blocked ContactForm chunk' })
      .toBeGreaterThan(0);
    // Still the prebuilt HTML: Astro removes `ssr` only once the island has hydrated.
    await expect(page.locator('astro-island', { has: form })).toHaveAttribute('ssr', '');
    await expect(form).toHaveAttribute('method', 'post');

    const values = privateValues();
    await fillForm(form, values);
    const loaded = documents.length;
    await trySubmitting(page, form);
    expect(new URL(page.url()).pathname).toMatch(/^\/contact\/?$/);
    expect(leakedInto(page.url(), values)).toEqual([]);
    expect(documents.length, 'no navigation after Send or Enter').toBe(loaded);
    // Nothing typed was lost.
    await expect(form.getByLabel(t('contact.message'))).toHaveValue(values.message);

    // Even a native submit that bypasses the button (a script, an extension) goes out as a POST with the
    // fields in the body, and the answer is a page saying it was not sent.
    await form.evaluate((f) => (f as HTMLFormElement).requestSubmit());
    await expect(page.getByRole('heading', { level: 1, name: t('contactFallback.title') })).toBeVisible();
    await expect(page.getByRole('link', { name: t('contactFallback.back') })).toHaveAttribute('href', '/contact');
    expect(documents.at(-1)).toEqual({ url: page.url(), method: 'POST' });
    for (const { url } of documents) expect(leakedInto(url, values)).toEqual([]);
    expect(await page.content()).not.toContain(values.lastName);
    await expectNoAxeViolations(page);
    // Not processed: no contact mail from this address.
    await page.waitForTimeout(500);
    expect((await readMail({ subject: /Contact form/ })).some((m) => m.replyTo === values.email)).toBe(false);
  });

  test('the contact modal sends nothing into the URL before its script has run', async ({ page }) => {
    const chunk = await blockContactChunk(page);
    await page.goto('/about');
    const before = page.url();
    await page.locator('footer [data-contact-open]').click();
    await expect(modal(page)).toBeVisible();
    const form = modal(page).locator('form[data-contact-form="modal"]');
    await expect(form).toBeVisible();
    await expect
      .poll(chunk.blocked, { message: 'the browser tried to load the blocked ContactForm chunk' })
      .toBeGreaterThan(0);
    const values = privateValues();
    await fillForm(form, values);
    await trySubmitting(page, form);
    expect(page.url()).toBe(before);
    expect(leakedInto(page.url(), values)).toEqual([]);
    await expect(form.getByLabel(t('contact.email'), { exact: true })).toHaveValue(values.email);
  });

  test('a form-encoded POST gets the “not sent” page in the form’s language and is not processed', async ({
    request,
    baseURL,
  }) => {
    const values = privateValues();
    const origin = new URL(baseURL!).origin;
    const answer = await request.post('/api/contact-form/create', {
      headers: { origin, referer: `${origin}/de/contact` },
      form: values,
      maxRedirects: 0,
    });
    expect(answer.status()).toBe(400);
    expect(answer.headers()['content-type']).toContain('text/html');
    expect(answer.headers()['cache-control']).toBe('no-store');
    const html = await answer.text();
    expect(html).toContain('lang="de-DE"');
    expect(html).toContain('Deine Nachricht wurde nicht gesendet');
    expect(html).toContain('href="/de/contact"');
    for (const value of Object.values(values)) expect(html).not.toContain(value);
    // From another site, the origin check refuses it before the route.
    const forged = await request.post('/api/contact-form/create', {
      headers: { origin: 'https://evil.example' },
      form: values,
    });
    expect(forged.status()).toBe(403);
  });
});

test.describe('newsletter', () => {
  test('signs up in the footer, confirms from the mail, and unsubscribes from the welcome mail', async ({ page }) => {
    test.setTimeout(120_000); // five pages and four axe scans
    await page.goto('/');
    const signup = page.locator('form[data-newsletter-form]');
    const input = signup.getByLabel(t('newsletter.emailLabel'));

    await input.fill('not-an-address');
    await signup.getByRole('button', { name: t('newsletter.submit') }).click();
    await expect(signup.getByText(t('newsletter.invalidEmail'))).toBeVisible();
    await expect(input).toHaveAttribute('aria-invalid', 'true');

    const email = uniqueEmail('news');
    await input.fill(email);
    await signup.getByRole('button', { name: t('newsletter.submit') }).click();
    await expect(signup.getByText(t('newsletter.success'))).toBeVisible();
    await expect(input).toHaveValue('');
    await expectNoAxeViolations(page);

    const confirmation = await waitForMail({ to: email, subject: /Confirm your subscription/ });
    const confirmLink = confirmation.links.find((l) => l.includes('/api/newsletter/confirm?token='))!;
    await page.goto(localPath(confirmLink));
    await expect(page).toHaveURL(/\/newsletter\/confirmed\/?$/);
    await expect(page.getByRole('heading', { level: 1, name: t('newsletter.confirmed.title') })).toBeVisible();
    await expectNoAxeViolations(page);

    // The link is single-use.
    await page.goto(localPath(confirmLink));
    await expect(page).toHaveURL(/\/newsletter\/invalid\/?$/);
    await expect(page.getByRole('heading', { level: 1, name: t('newsletter.invalid.title') })).toBeVisible();

    const welcome = await waitForMail({ to: email, subject: /Welcome/ });
    const unsubscribeLink = welcome.links.find((l) => l.includes('/api/newsletter/unsubscribe?token='))!;
    await page.goto(localPath(unsubscribeLink));
    await expect(page).toHaveURL(/\/newsletter\/unsubscribe\?token=/);
    await expectNoAxeViolations(page);
    await page.getByRole('button', { name: t('newsletter.unsubscribe.button') }).click();
    await expect(page).toHaveURL(/\/newsletter\/unsubscribed\/?$/);
    await expect(page.getByRole('heading', { level: 1, name: t('newsletter.unsubscribed.title') })).toBeVisible();
  });

  test('a mailbox provider unsubscribes with one click; cross-site form posts are refused', async ({
    page,
    request,
  }) => {
    await page.goto('/');
    const email = uniqueEmail('oneclick');
    const signup = page.locator('form[data-newsletter-form]');
    await signup.locator('input[name="email"]').fill(email);
    await signup.locator('button[type="submit"]').click();
    await expect(signup.locator('[data-newsletter-feedback]')).toHaveAttribute('data-state', 'ok');
    const confirmation = await waitForMail({ to: email, subject: /Confirm your subscription/ });
    await page.goto(localPath(confirmation.links.find((l) => l.includes('/api/newsletter/confirm'))!));
    await expect(page).toHaveURL(/\/newsletter\/confirmed\/?$/);

    const welcome = await waitForMail({ to: email, subject: /Welcome/ });
    expect(welcome.headers['List-Unsubscribe-Post']).toBe('List-Unsubscribe=One-Click');
    const unsubscribeLink = localPath(welcome.links.find((l) => l.includes('/api/newsletter/unsubscribe?token='))!);
    // RFC 8058: the provider's server POSTs the form body to the List-Unsubscribe URL, with no Origin header.
    const oneClick = await request.post(unsubscribeLink, {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      data: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status()).toBe(200);
    expect(await oneClick.text()).toBe('You have been unsubscribed.');

    // Any other form-encoded POST from a foreign origin is still refused before it reaches a route.
    const forged = await request.post('/api/newsletter/subscribe', {
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.example' },
      data: `email=${encodeURIComponent(uniqueEmail('forged'))}`,
    });
    expect(forged.status()).toBe(403);
  });

  test('a German sign-up lands on the German confirmation page', async ({ page }) => {
    await page.goto('/de/');
    const signup = page.locator('form[data-newsletter-form]');
    const email = uniqueEmail('neu');
    await signup.locator('input[name="email"]').fill(email);
    await signup.locator('button[type="submit"]').click();
    await expect(signup.locator('[data-newsletter-feedback]')).toHaveAttribute('data-state', 'ok');
    // The confirmation mail is German too (the sign-up keeps the form's language).
    const confirmation = await waitForMail({ to: email, subject: /Bestätige deine Anmeldung zum Newsletter/ });
    await page.goto(localPath(confirmation.links.find((l) => l.includes('/api/newsletter/confirm'))!));
    await expect(page).toHaveURL(/\/de\/newsletter\/confirmed\/?$/);
    await expect(page.locator('html')).toHaveAttribute('lang', 'de-DE');
  });
});
