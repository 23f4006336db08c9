/**
 * Playwright global setup: the bot-check stand-ins the contact-form tests need, on a fixed loopback port
 * (E2E_RECAPTCHA_PORT, default 4397) because the web server's settings are fixed before this runs:
 *
 *   GET  /recaptcha/api.js              a tiny reCAPTCHA v3 script (grecaptcha.ready/execute) for
 *                                       PUBLIC_RECAPTCHA_SCRIPT_URL. execute() returns 'pass:<unique>'
 *                                       unless the page set window.__e2eRecaptchaToken (e.g. 'fail'),
 *                                       then '<that>:<unique>'.
 *   POST /recaptcha/api/siteverify      forwarded to tests/fixtures/recaptcha-server.ts, the siteverify
 *                                       stand-in, for RECAPTCHA_VERIFY_URL.
 *
 * playwright.config.ts points the web server at both (webServer.env).
 *
 * Also an OpenID Connect provider (oauth2-mock-server) on E2E_OAUTH_PORT (default 4398) for the account
 * tests' "log in with a provider": its /authorize answers at once with a code (no login screen), and
 * its ID token and userinfo name the user E2E_OAUTH_USER (a verified e-mail), so the engine links or
 * creates that customer.
 */
import http from 'node:http';
import { startRecaptchaServer } from '../fixtures/recaptcha-server.ts';
import { startStripeServer } from '../fixtures/stripe-server.ts';
import { OAuth2Server } from 'oauth2-mock-server';

export const E2E_RECAPTCHA_SECRET = 'test-recaptcha-secret';
/** The card gateway's stand-in (tests/fixtures/stripe-server.ts) on E2E_STRIPE_PORT, with this key. */
export const E2E_STRIPE_SECRET_KEY = 'sk_test_e2estandin0000000000';

const FAKE_SCRIPT = `(() => {
  let n = 0;
  const unique = () => Date.now().toString(36) + '-' + (++n) + '-' + Math.random().toString(36).slice(2);
  window.__e2eRecaptchaSrc = document.currentScript ? document.currentScript.src : null;
  window.grecaptcha = {
    ready(callback) { setTimeout(callback, 0); },
    execute(siteKey, options) {
      window.__e2eRecaptchaCalls = (window.__e2eRecaptchaCalls || []).concat([{ siteKey, action: options && options.action }]);
      const kind = window.__e2eRecaptchaToken || 'pass';
      return Promise.resolve(kind + ':' + unique());
    },
  };
})();
`;

/** Who the OpenID Connect stand-in says logs in (tests/e2e/account.spec.ts expects this customer). */
export const E2E_OAUTH_USER = {
  sub: 'e2e-oidc-shopper',
  email: 'oidc-shopper@meshfront.example',
  email_verified: true,
  given_name: 'Olivia',
  family_name: 'Oidc',
  name: 'Olivia Oidc',
};

/** Starts the OpenID Connect stand-in, or shares one another Playwright run on this machine already serves. */
async function startOAuthProvider(port: number): Promise<() => Promise<void>> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate('RS256');
  server.service.on('beforeTokenSigning', (token: { payload: Record<string, unknown> }) =>
    Object.assign(token.payload, E2E_OAUTH_USER),
  );
  server.service.on('beforeUserinfo', (response: { body: Record<string, unknown> }) =>
    Object.assign(response.body, E2E_OAUTH_USER),
  );
  try {
    await server.start(port, '127.0.0.1');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      const discovery = await fetch(`http://127.0.0.1:${port}/.well-known/openid-configuration`)
        .then((r) => (r.ok ? r.json() : null))
        .catch(() => null);
      if (discovery && typeof (discovery as { issuer?: unknown }).issuer === 'string') return async () => {};
      throw new Error(`E2E_OAUTH_PORT ${port} is taken by something else; set E2E_OAUTH_PORT to a free port`);
    }
    throw err;
  }
  return () => server.stop();
}

export default async function globalSetup(): Promise<() => Promise<void>> {
  const stopOAuth = await startOAuthProvider(Number(process.env.E2E_OAUTH_PORT ?? 4398));
  const port = Number(process.env.E2E_RECAPTCHA_PORT ?? 4397);
  const siteverify = await startRecaptchaServer({ secret: E2E_RECAPTCHA_SECRET });
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/recaptcha/api.js') {
      res
        .writeHead(200, {
          'content-type': 'text/javascript; charset=utf-8',
          'cache-control': 'no-store',
          'access-control-allow-origin': '*',
        })
        .end(FAKE_SCRIPT);
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', async () => {
      try {
        const upstream = await fetch(`http://127.0.0.1:${siteverify.port}${url.pathname}${url.search}`, {
          method: req.method,
          headers: { 'content-type': req.headers['content-type'] ?? 'application/x-www-form-urlencoded' },
          body: req.method === 'POST' ? Buffer.concat(chunks) : undefined,
        });
        res
          .writeHead(upstream.status, { 'content-type': upstream.headers.get('content-type') ?? 'application/json' })
          .end(Buffer.from(await upstream.arrayBuffer()));
      } catch (err) {
        res.writeHead(502, { 'content-type': 'text/plain' }).end(String(err));
      }
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  } catch (err) {
    await siteverify.stop();
    // Another Playwright run on this machine already serves the stand-ins there: share them (tokens are unique per call).
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      const existing = await fetch(`http://127.0.0.1:${port}/recaptcha/api.js`)
        .then((r) => r.text())
        .catch(() => '');
      if (existing.includes('grecaptcha')) return stopOAuth;
      throw new Error(`E2E_RECAPTCHA_PORT ${port} is taken by something else; set E2E_RECAPTCHA_PORT to a free port`);
    }
    throw err;
  }
  // The card gateway: the engine creates and retrieves PaymentIntents on this stand-in (STRIPE_API_*).
  const stripe = await startStripeServer({
    secretKey: E2E_STRIPE_SECRET_KEY,
    port: Number(process.env.E2E_STRIPE_PORT ?? 4396),
  });
  return async () => {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await siteverify.stop();
    await stripe.stop();
    await stopOAuth();
  };
}
