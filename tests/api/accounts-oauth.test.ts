// External login providers against a local OpenID Connect server (oauth2-mock-server on loopback):
// loginClients, the engine-issued state (bound to the session, single use, expiring), PKCE (S256), the
// OIDC path (discovery, ID token, nonce) and the plain OAuth 2 path (explicit endpoints + userinfo),
// linking by verified e-mail (to an account whose address is confirmed) and creating accounts.
import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestEngine, type TestEngine } from './harness.ts';
import { startOAuthProvider, type OAuthProviderStandIn } from '../fixtures/oauth-provider.ts';
import { headersOf, newCustomer, op, register } from './accounts-helpers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let t: TestEngine;
let provider: OAuthProviderStandIn;
let ipCounter = 0;
const ip = () => `10.9.0.${++ipCounter}`;
/** What the provider says about the next user who logs in. */
let profile: Record<string, unknown> = {};

beforeAll(async () => {
  provider = await startOAuthProvider(() => profile);
  process.env.TRUST_PROXY = '1';
  process.env.PASSWORD_SCRYPT_LOG2N = '12';
  process.env.PUBLIC_SITE_URL = 'https://shop.meshfront.test';
  Object.assign(process.env, provider.env);
  t = await startTestEngine();
});
afterAll(async () => {
  await t?.close();
  await provider?.stop();
});

/** A guest session and the login clients handed to it (as getCart does). */
async function session() {
  const r = await t.gql(op('getCart'), {});
  expect(r.body.errors).toBeUndefined();
  return {
    sessionToken: r.body.data.customer.sessionToken as string,
    clients: r.body.data.loginClients as {
      name: string;
      provider: string;
      isEnabled: boolean;
      authorizationUrl: string;
      order: number;
    }[],
  };
}

/** The browser's trip to the provider: follow the authorization URL to the redirect, read code and state. */
async function authorize(url: string): Promise<{ code: string; state: string; redirect: URL }> {
  const r = await fetch(url, { redirect: 'manual' });
  expect(r.status).toBe(302);
  const redirect = new URL(r.headers.get('location')!);
  return { code: redirect.searchParams.get('code')!, state: redirect.searchParams.get('state')!, redirect };
}

const loginWith = (provider: string, code: string, state: string | null, sessionToken: string) =>
  t.gql(op('loginWithProvider'), { provider, code, state }, headersOf({ sessionToken }, ip()));

describe('loginClients', () => {
  it('lists the configured providers with an authorization URL carrying state, PKCE S256 and (OIDC) a nonce', async () => {
    const { clients } = await session();
    expect(clients.map((c) => [c.name, c.provider, c.isEnabled, c.order])).toEqual([
      ['Google', 'GOOGLE', true, 0],
      ['Acme ID', 'OAUTH2_GENERIC', true, 1],
    ]);
    const g = new URL(clients[0]!.authorizationUrl);
    expect(g.origin + g.pathname).toBe(`${provider.idp.issuer.url}/authorize`);
    expect(Object.fromEntries(g.searchParams)).toMatchObject({
      client_id: 'meshfront-google',
      response_type: 'code',
      redirect_uri: 'https://shop.meshfront.test/oauth/login/google',
      code_challenge_method: 'S256',
      scope: 'openid email profile',
    });
    expect(g.searchParams.get('code_challenge')).toMatch(/^[\w-]{43}$/);
    expect(g.searchParams.get('nonce')).toBeTruthy();
    expect(g.searchParams.get('state')).toMatch(/^[\w-]+\.[\w-]{43}$/);
    const a = new URL(clients[1]!.authorizationUrl);
    expect(a.searchParams.get('redirect_uri')).toBe('https://shop.meshfront.test/oauth/login/acme');
    expect(a.searchParams.get('state')).not.toBe(g.searchParams.get('state'));
  });
});

describe('login with a provider', () => {
  it('OpenID Connect: creates the account from a verified e-mail, then finds it by the linked identity', async () => {
    const email = `oidc-${crypto.randomBytes(4).toString('hex')}@example.test`;
    profile = { email, email_verified: true, given_name: 'Oda', family_name: 'Nobunaga', sub: `sub-${email}` };
    const s = await session();
    const { code, state } = await authorize(s.clients[0]!.authorizationUrl);
    const r = await loginWith('GOOGLE', code, state, s.sessionToken);
    expect(r.body.errors).toBeUndefined();
    const p = r.body.data.login;
    expect(p.authToken).toBeTruthy();
    expect(p.refreshToken).toBeTruthy();
    expect(p.user).toMatchObject({ email, firstName: 'Oda', lastName: 'Nobunaga' });
    expect(p.customer.databaseId).toBe(p.user.databaseId);
    const viewer = await t.gql(`query { viewer { databaseId email } }`, {}, headersOf({ authToken: p.authToken }));
    expect(viewer.body.data.viewer.databaseId).toBe(p.user.databaseId);
    // Next time the e-mail at the provider changed, the linked identity still finds the same customer.
    profile = { ...profile, email: `changed-${email}` };
    const s2 = await session();
    const second = await authorize(s2.clients[0]!.authorizationUrl);
    const r2 = await loginWith('GOOGLE', second.code, second.state, s2.sessionToken);
    expect(r2.body.data.login.user.databaseId).toBe(p.user.databaseId);
  });

  it('plain OAuth 2 (explicit endpoints, userinfo): links an existing password account by verified e-mail', async () => {
    const c = await register(t, newCustomer('linked'), headersOf({}, ip()));
    // The account's address is confirmed too (with the registration's mail): only then does a provider
    // link to it by e-mail alone (tests/api/trust-email-verification.test.ts covers the other cases).
    const [mail] = await t.engine.accounts.mailer().readOutbox({ to: c.email, subject: /e-mail address/ });
    const key = new URL(mail!.links.find((l) => l.includes('/my-account/verify-email?key='))!).searchParams.get('key');
    expect(
      (await t.gql(op('verifyEmail'), { key }, headersOf({ authToken: c.authToken }))).body.errors,
    ).toBeUndefined();
    profile = { sub: `acme-${c.username}`, email: c.email.toUpperCase(), email_verified: true };
    const s = await session();
    const { code, state } = await authorize(s.clients[1]!.authorizationUrl);
    const r = await loginWith('OAUTH2_GENERIC', code, state, s.sessionToken);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.login.user.databaseId).toBe(c.userId);
  });

  it('refuses an unverified e-mail', async () => {
    profile = {
      sub: `unverified-${Date.now()}`,
      email: `unverified-${Date.now()}@example.test`,
      email_verified: false,
    };
    const s = await session();
    const { code, state } = await authorize(s.clients[0]!.authorizationUrl);
    const r = await loginWith('GOOGLE', code, state, s.sessionToken);
    expect(r.body.errors?.[0]?.message).toBe(
      'Your Google account has no verified e-mail address, so it cannot be used to log in here.',
    );
  });

  it('refuses a missing, forged, other-session, replayed or expired state', async () => {
    profile = { sub: `state-${Date.now()}`, email: `state-${Date.now()}@example.test`, email_verified: true };
    const mismatch = 'The state returned from the Google response does not match.';
    const s = await session();
    const other = await session();
    const { code, state } = await authorize(s.clients[0]!.authorizationUrl);
    expect((await loginWith('GOOGLE', code, null, s.sessionToken)).body.errors?.[0]?.message).toBe(mismatch);
    // Forged: a made-up state, or ours with the session id swapped (signature no longer matches).
    expect((await loginWith('GOOGLE', code, 'abc.def', s.sessionToken)).body.errors?.[0]?.message).toBe(mismatch);
    const [payload, mac] = state.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const swapped = Buffer.from(JSON.stringify({ ...claims, s: 't_attacker' })).toString('base64url');
    expect((await loginWith('GOOGLE', code, `${swapped}.${mac}`, s.sessionToken)).body.errors?.[0]?.message).toBe(
      mismatch,
    );
    // Another browser session presenting this state (login CSRF / stolen link): refused.
    expect((await loginWith('GOOGLE', code, state, other.sessionToken)).body.errors?.[0]?.message).toBe(mismatch);
    // The right session: works once; the replay is refused.
    expect((await loginWith('GOOGLE', code, state, s.sessionToken)).body.errors).toBeUndefined();
    const s3 = await session();
    const again = await authorize(s3.clients[0]!.authorizationUrl);
    expect((await loginWith('GOOGLE', again.code, again.state, s3.sessionToken)).body.errors).toBeUndefined();
    const fresh = await session();
    const third = await authorize(fresh.clients[0]!.authorizationUrl);
    expect((await loginWith('GOOGLE', third.code, again.state, s3.sessionToken)).body.errors?.[0]?.message).toBe(
      mismatch,
    );
    // Expired: a state issued long ago for this session.
    const old = t.engine.accounts.oauth.issueState(
      'google',
      fresh.sessionToken ? sessionIdOf(fresh.sessionToken) : '',
      Date.now() - 24 * 3600 * 1000,
    );
    expect((await loginWith('GOOGLE', third.code, old, fresh.sessionToken)).body.errors?.[0]?.message).toBe(
      'The Google login took too long. Please try again.',
    );
  });

  it('PKCE: a code is only redeemable with the verifier of its own state', async () => {
    profile = { sub: `pkce-${Date.now()}`, email: `pkce-${Date.now()}@example.test`, email_verified: true };
    const s = await session();
    const first = await authorize(s.clients[0]!.authorizationUrl);
    // Another valid state of the same session, but the code was issued for the first one's challenge.
    const { clients } = await t
      .gql(op('getCart'), {}, headersOf({ sessionToken: s.sessionToken }))
      .then((r) => ({ clients: r.body.data.loginClients }));
    const otherState = new URL(clients[0].authorizationUrl).searchParams.get('state')!;
    const r = await loginWith('GOOGLE', first.code, otherState, s.sessionToken);
    expect(r.body.errors?.[0]?.message).toBe('The Google login failed. Please try again.');
    // The provider itself refuses the exchange without the right verifier.
    const second = await authorize(s.clients[0]!.authorizationUrl);
    const token = await fetch(`${provider.idp.issuer.url}/token`, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        authorization: `Basic ${Buffer.from('meshfront-google:google-secret').toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: second.code,
        redirect_uri: 'https://shop.meshfront.test/oauth/login/google',
        code_verifier: 'x'.repeat(43),
      }),
    });
    expect(token.ok).toBe(false);
  });

  it('an unknown provider or a missing oauthResponse is refused', async () => {
    const s = await session();
    expect((await loginWith('GITHUB', 'code', 'state', s.sessionToken)).body.errors?.[0]?.message).toBe(
      'Provider github is not enabled.',
    );
    const r = await t.gql(
      `mutation { login(input: { provider: GOOGLE }) { authToken } }`,
      {},
      headersOf({ sessionToken: s.sessionToken }),
    );
    expect(r.body.errors?.[0]?.message).toBe('The GOOGLE provider requires the use of the `oauthResponse` input arg.');
  });
});

/** The customer id inside a woocommerce-session token (the session id the state is bound to). */
function sessionIdOf(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).data.customer_id;
}
