import { defineConfig, devices } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 4399);
// Bot-check stand-ins for the contact form, started by tests/e2e/global-setup.ts.
const recaptchaPort = Number(process.env.E2E_RECAPTCHA_PORT ?? 4397);
// The local OpenID Connect provider (oauth2-mock-server) the account tests log in with, also started by
// tests/e2e/global-setup.ts.
const oauthPort = Number(process.env.E2E_OAUTH_PORT ?? 4398);
// The headless storefront of tests/e2e/headless-client.spec.ts: on localhost (the engine's site) and on
// 127.0.0.1 (another site).
const headlessClientPort = Number(process.env.E2E_HEADLESS_CLIENT_PORT ?? 4394);
const chromiumArgs = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export default defineConfig({
  testDir: 'tests/e2e',
  globalSetup: './tests/e2e/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  // Two files at a time, on CI too: the tests mostly wait on the server and the browser, so a second worker
  // halves the browser run on a 2-core machine; tests that share server state keep to their own file.
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    baseURL: `http://localhost:${port}`,
    launchOptions: { executablePath: process.env.CHROME_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
    trace: 'retain-on-failure',
  },
  projects: [
    // Every test runs on the desktop. Tag a test @phone-too when its outcome can depend on the viewport
    // (layout, the phone menu and panels, the header's search toggle, the cart drawer, modals, sticky
    // elements, axe on a page whose layout changes, screenshots, or a branch on the project), and keep
    // the shopping flows a shopper must finish on a phone (add to cart, cash on delivery, account login)
    // tagged too. Flows that end the same on any screen (engine answers, mails, orders, admin, HTTP
    // checks) run once, on the desktop. @phone-only: the phone alone (the mobile menu).
    { name: 'desktop', grepInvert: /@phone-only/, use: { ...devices['Desktop Chrome'], channel: undefined } },
    { name: 'phone', grep: /@phone-too|@phone-only/, use: { ...devices['Pixel 7'], channel: undefined } },
  ],
  webServer: {
    // The admin test's shop manager and customer are made first: only the command line grants the role,
    // and the embedded database can be open in one process only (tests/e2e/admin-accounts.ts).
    command: `node node_modules/tsx/dist/cli.mjs tests/e2e/admin-accounts.ts && node scripts/serve.mjs`,
    url: `http://localhost:${port}/`,
    env: {
      // `node scripts/serve.mjs` serves in production mode by default; the stand-ins below (Stripe over
      // plain http, no webhook secret) are development settings that production refuses.
      NODE_ENV: 'development',
      // …but the GraphQL rules stay production's, so the browser tests prove every storefront operation
      // is a trusted document and nothing relies on introspection.
      TRUSTED_DOCUMENTS_ONLY: 'true',
      GRAPHQL_INTROSPECTION: 'false',
      // A headless storefront on another origin (tests/e2e/headless-client.spec.ts), registered as an operator
      // registers one: its documents in a folder of their own, its origins allowed with credentials.
      TRUSTED_CLIENT_DOCUMENTS_DIR: 'tests/fixtures/headless-client/trusted-documents',
      CORS_ORIGINS: `http://localhost:${headlessClientPort},http://127.0.0.1:${headlessClientPort}`,
      PORT: String(port),
      MESHFRONT_DATA_DIR: process.env.MESHFRONT_DATA_DIR ?? 'var/e2e',
      // Contact form: real bot check against the local stand-ins; limits high enough for repeated runs from one address.
      RECAPTCHA_SECRET: 'test-recaptcha-secret',
      RECAPTCHA_VERIFY_URL: `http://127.0.0.1:${recaptchaPort}/recaptcha/api/siteverify`,
      PUBLIC_RECAPTCHA_SITE_KEY: 'e2e-site-key',
      PUBLIC_RECAPTCHA_SCRIPT_URL: `http://127.0.0.1:${recaptchaPort}/recaptcha/api.js`,
      RATE_LIMIT_CONTACT_PER_HOUR: '1000',
      // ALTCHA, the check for visitors who decline reCAPTCHA (tests/e2e/consent.spec.ts): a small proof of
      // work, so a busy test machine's browser solves it in a moment rather than the real cost's seconds.
      ALTCHA_COST: '50',
      ALTCHA_MAX_COUNTER: '500',
      RATE_LIMIT_NEWSLETTER_PER_HOUR: '1000',
      // Reviews: tests/e2e/reviews.spec.ts writes a few per run from one address.
      REVIEWS_PER_IP_PER_HOUR: '1000',
      // Checkout account creation counts as a registration; repeated runs come from one address.
      REGISTER_LIMIT_PER_IP: '1000',
      // The checkout tests place many orders per run, all from 127.0.0.1 and mostly with one e-mail.
      CHECKOUT_ORDERS_PER_IP_PER_HOUR: '10000',
      CHECKOUT_ORDERS_PER_EMAIL_PER_HOUR: '10000',
      // KDA: the checkout test starts a Chainweb stand-in behind this port and mines blocks itself.
      CHAINWEB_URL: `http://127.0.0.1:${process.env.E2E_CHAINWEB_PORT ?? 4481}`,
      KDA_EUR_RATE: '0.50',
      KADENA_CONFIRMATIONS: '3',
      KADENA_POLL_INTERVAL_MS: '1000',
      // Card: PaymentIntents go to the Stripe stand-in started by global-setup.ts.
      STRIPE_SECRET_KEY: 'sk_test_e2estandin0000000000',
      STRIPE_API_HOST: '127.0.0.1',
      STRIPE_API_PORT: process.env.E2E_STRIPE_PORT ?? '4396',
      STRIPE_API_PROTOCOL: 'http',
      // All-virtual carts need names and e-mail only; the site must be built with the same setting
      // (scripts/test.mjs sets it for the build).
      PUBLIC_CHECKOUT_HIDE_BILLING_FOR_VIRTUAL: 'true',
      // Accounts: links the engine writes (password-reset mail, signed download links, the OAuth redirect
      // URI) must point at this server; login and reset limits high enough for repeated runs from one
      // address; a cheaper scrypt cost keeps logins fast on a loaded test machine.
      PUBLIC_SITE_URL: `http://localhost:${port}`,
      LOGIN_LIMIT_PER_IP: '10000',
      LOGIN_LIMIT_PER_ACCOUNT: '1000',
      RESET_LIMIT_PER_IP: '10000',
      RESET_LIMIT_PER_ACCOUNT: '100',
      PASSWORD_SCRYPT_LOG2N: '12',
      // Login with an external provider: the OpenID Connect stand-in (discovery on its issuer URL).
      OAUTH_PROVIDERS: 'mock',
      // The issuer URL exactly as the stand-in names itself (oauth2-mock-server says localhost).
      OAUTH_MOCK_ISSUER: `http://localhost:${oauthPort}`,
      OAUTH_MOCK_CLIENT_ID: 'meshfront-e2e',
      OAUTH_MOCK_CLIENT_SECRET: 'meshfront-e2e-secret',
      OAUTH_MOCK_NAME: 'Meshfront ID',
    },
    reuseExistingServer: !process.env.CI,
    timeout: 120_000,
  },
});
