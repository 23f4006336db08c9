// A login provider that is slow or down, behind the fault proxy (tests/fixtures/fault-proxy.ts) between the
// engine and the provider's token and userinfo endpoints (the browser's trip to the provider goes direct):
// the shopper's "log in with Acme" is answered within OAUTH_TIMEOUT_MS with a message that says to try again
// or use the password, no account is made or changed, and once the provider answers again the same kind of
// login works.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startFaultProxy, type FaultProxy } from '../fixtures/fault-proxy.ts';
import { startOAuthProvider, type OAuthProviderStandIn } from '../fixtures/oauth-provider.ts';
import { headersOf, op } from './accounts-helpers.ts';
import { startTestEngine, type TestEngine } from './harness.ts';

vi.setConfig({ testTimeout: 60_000, hookTimeout: 300_000 });

const TIMEOUT_MS = 1_000;
const COOLDOWN_MS = 1_500;

let t: TestEngine;
let provider: OAuthProviderStandIn;
let proxy: FaultProxy;
let profile: Record<string, unknown> = {};
let ipCounter = 0;

beforeAll(async () => {
  provider = await startOAuthProvider(() => profile);
  const issuer = new URL(provider.idp.issuer.url!);
  proxy = await startFaultProxy({ host: '127.0.0.1', port: Number(issuer.port) });
  const viaProxy = `http://127.0.0.1:${proxy.port}`;
  Object.assign(process.env, {
    TRUST_PROXY: '1',
    PUBLIC_SITE_URL: 'https://shop.meshfront.test',
    OAUTH_PROVIDERS: 'acme',
    OAUTH_ACME_AUTHORIZATION_URL: `${issuer.origin}/authorize`,
    OAUTH_ACME_TOKEN_URL: `${viaProxy}/token`,
    OAUTH_ACME_USERINFO_URL: `${viaProxy}/userinfo`,
    OAUTH_ACME_CLIENT_ID: provider.env.OAUTH_ACME_CLIENT_ID,
    OAUTH_ACME_CLIENT_SECRET: provider.env.OAUTH_ACME_CLIENT_SECRET,
    OAUTH_ACME_NAME: 'Acme ID',
    OAUTH_TIMEOUT_MS: String(TIMEOUT_MS),
    SERVICE_BREAKER_FAILURES: '2',
    SERVICE_BREAKER_COOLDOWN_MS: String(COOLDOWN_MS),
  });
  t = await startTestEngine();
});
afterAll(async () => {
  await t?.close();
  await proxy?.close();
  await provider?.stop();
});

/** A guest session, the provider's authorization trip (direct, as a browser makes it), then the login. */
async function logIn(email: string) {
  profile = { sub: `acme-${email}`, email, email_verified: true };
  const cart = await t.gql(op('getCart'), {});
  const sessionToken = cart.body.data.customer.sessionToken as string;
  const client = (cart.body.data.loginClients as { authorizationUrl: string }[])[0]!;
  const trip = await fetch(client.authorizationUrl, { redirect: 'manual' });
  const back = new URL(trip.headers.get('location')!);
  const started = Date.now();
  const r = await t.gql(
    op('loginWithProvider'),
    { provider: 'OAUTH2_GENERIC', code: back.searchParams.get('code'), state: back.searchParams.get('state') },
    headersOf({ sessionToken }, `10.8.0.${++ipCounter}`),
  );
  return { r, ms: Date.now() - started };
}

describe('login provider slow or down', () => {
  it('stalled: a bounded wait and a clear refusal; the breaker then answers at once; back, the login works', async () => {
    proxy.set('stall');
    const first = await logIn('stalled@example.test');
    expect(first.r.body.data?.login ?? null).toBeNull();
    const message = first.r.body.errors?.[0]?.message ?? '';
    expect(message).toMatch(/try again/i);
    // One request's time limit (plus the engine's own work), never an open-ended wait.
    expect(first.ms).toBeLessThan(TIMEOUT_MS * 3 + 1_500);
    await logIn('stalled@example.test');
    // Two outages in a row: the breaker is open and the third login is refused without waiting.
    const third = await logIn('stalled@example.test');
    expect(third.r.body.errors?.[0]?.message).toMatch(/try again/i);
    expect(third.ms).toBeLessThan(TIMEOUT_MS);
    // Nothing was made of the failed logins.
    expect(await t.engine.accounts.customers.findByEmail('stalled@example.test')).toBeNull();

    proxy.set('pass');
    await new Promise((r) => setTimeout(r, COOLDOWN_MS + 200));
    const back = await logIn('stalled@example.test');
    expect(back.r.body.errors).toBeUndefined();
    expect(back.r.body.data.login.user.email).toBe('stalled@example.test');
  });

  it('gone (connections refused): refused at once with the same message, nothing made', async () => {
    await new Promise((r) => setTimeout(r, COOLDOWN_MS + 200));
    proxy.set('refuse');
    const gone = await logIn('gone@example.test');
    expect(gone.r.body.errors?.[0]?.message).toMatch(/try again/i);
    expect(gone.ms).toBeLessThan(TIMEOUT_MS * 3 + 1_500);
    expect(await t.engine.accounts.customers.findByEmail('gone@example.test')).toBeNull();
    proxy.set('pass');
  });
});
