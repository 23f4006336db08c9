// E-mail verification and linking a login provider to an existing account, against the local OpenID
// Connect stand-in (oauth2-mock-server on loopback). Somebody who registers another person's address with
// a password of their own must not be handed that person's later provider login (and with it the
// addresses and phone the person then saves): a provider login that matches an unverified account links
// nothing and logs nobody in; the shopper proves the account with its password or with a link mailed to
// the address, and the mailed link takes the account back from whoever registered it. Registration (also
// at checkout) mails a confirmation link (single use, expiring, only for the logged-in account); a
// completed password reset and a provider's verified address also confirm the address.
import crypto from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestEngine, type TestEngine } from './harness.ts';
import { startOAuthProvider, type OAuthProviderStandIn } from '../fixtures/oauth-provider.ts';
import { headersOf, login, newCustomer, op, register } from './accounts-helpers.ts';
import { BILLING, operation, productId, Shopper } from './shop-helpers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let t: TestEngine;
let provider: OAuthProviderStandIn;
let ipCounter = 0;
const ip = () => `192.0.2.${++ipCounter}`;
/** What the provider says about the next user who logs in. */
let profile: Record<string, unknown> = {};

const LINK_EXPIRED =
  'This request to link your login has expired or was already used. Please log in with your provider again.';
const INVALID_CONFIRMATION = 'This confirmation link is invalid or has expired.';
const VIEWER = /* GraphQL */ `query { viewer { databaseId email emailVerified } customer { databaseId billing { phone address1 } } }`;
const SAVE_ADDRESS = /* GraphQL */ `mutation ($phone: String!) { updateCustomer(input: { billing: { address1: "7 Victim Lane", city: "Lyon", postcode: "69001", country: FR, phone: $phone } }) { customer { databaseId } } }`;

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

const unique = (prefix: string) => `${prefix}-${crypto.randomBytes(4).toString('hex')}@example.test`;

/** A browser: its guest session (as getCart starts it) and the provider buttons' links. */
async function browser() {
  const r = await t.gql(op('getCart'), {});
  expect(r.body.errors).toBeUndefined();
  const clients = r.body.data.loginClients as { provider: string; authorizationUrl: string }[];
  return { sessionToken: r.body.data.customer.sessionToken as string, clients, ip: ip() };
}
type Browser = Awaited<ReturnType<typeof browser>>;

/** The whole provider login in `b`: to the provider and back, then the login mutation. */
async function providerLogin(b: Browser, provider: 'GOOGLE' | 'OAUTH2_GENERIC', who: Record<string, unknown>) {
  profile = who;
  const client = b.clients.find((c) => c.provider === provider)!;
  const r = await fetch(client.authorizationUrl, { redirect: 'manual' });
  expect(r.status).toBe(302);
  const back = new URL(r.headers.get('location')!);
  return t.gql(
    op('loginWithProvider'),
    { provider, code: back.searchParams.get('code'), state: back.searchParams.get('state') },
    headersOf({ sessionToken: b.sessionToken }, b.ip),
  );
}

async function mailTo(to: string, subject: RegExp) {
  return t.engine.accounts.mailer().readOutbox({ to, subject });
}

/** The key of the newest mail's link to `path`. */
async function mailedKey(to: string, subject: RegExp, path: string): Promise<string> {
  const [mail] = await mailTo(to, subject);
  expect(mail, `a mail to ${to} matching ${subject}`).toBeDefined();
  const link = mail!.links.find((l) => l.startsWith(`https://shop.meshfront.test${path}?key=`));
  expect(link, `a ${path} link in "${mail!.subject}"`).toBeDefined();
  return new URL(link!).searchParams.get('key')!;
}

const CONFIRM_MAIL = /^Confirm your Meshfront e-mail address$/;
const LINK_MAIL = /^Link your Google login to your Meshfront account$/;

async function viewerOf(authToken: string) {
  const r = await t.gql(VIEWER, {}, headersOf({ authToken }));
  return r.body;
}

describe('pre-registration takeover through a provider login', () => {
  it('a provider login matching an unverified account links nothing and logs nobody in; the registrant never sees what the provider user saves', async () => {
    const email = unique('victim');
    // The attacker registers the victim's address with a password of their own.
    const attacker = await register(t, { ...newCustomer('mallory'), email }, headersOf({}, ip()));
    // Later the victim logs in with Google, which verified the address.
    const victim = await browser();
    const r = await providerLogin(victim, 'GOOGLE', {
      sub: `victim-${email}`,
      email,
      email_verified: true,
      given_name: 'Victor',
    });
    expect(r.body.errors).toBeUndefined();
    const p = r.body.data.login;
    // Told that an account with this address exists and asked to prove it is theirs: no login.
    expect(p.accountLink).toMatchObject({ provider: 'GOOGLE', providerName: 'Google', email });
    expect(p.accountLink.token).toMatch(/^[\w-]+\.[\w-]{43}$/);
    expect(Number(p.accountLink.expiresAt)).toBeGreaterThan(Date.now() / 1000);
    expect(p.authToken).toBeNull();
    expect(p.refreshToken).toBeNull();
    expect(p.user).toBeNull();
    // Whatever the victim would save with a login they got ends up nowhere near the attacker's account.
    if (p.authToken)
      await t.gql(
        SAVE_ADDRESS,
        { phone: '+33 6 12 34 56 78' },
        headersOf({ authToken: p.authToken, sessionToken: p.sessionToken }),
      );
    const seen = await login(t, attacker.username, attacker.password, headersOf({}, ip()));
    const mine = await viewerOf(seen.body.data.login.authToken);
    expect(mine.data.viewer).toMatchObject({ databaseId: attacker.userId, emailVerified: false });
    expect(mine.data.customer.billing).toMatchObject({ phone: '', address1: '' });
    // The identity is not linked: the next provider login asks again.
    const again = await providerLogin(await browser(), 'GOOGLE', {
      sub: `victim-${email}`,
      email,
      email_verified: true,
    });
    expect(again.body.data.login.accountLink?.email).toBe(email);
    expect(again.body.data.login.authToken).toBeNull();
  });

  it("with the account's password the provider login is linked, the address verified and the shopper logged in", async () => {
    const owner = await register(t, newCustomer('owner'), headersOf({}, ip()));
    const b = await browser();
    const sub = `owner-${owner.email}`;
    const r = await providerLogin(b, 'GOOGLE', { sub, email: owner.email, email_verified: true });
    const { token } = r.body.data.login.accountLink;
    const link = (password: string, from = b) =>
      t.gql(
        op('linkAccountWithPassword'),
        { token, password },
        headersOf({ sessionToken: from.sessionToken }, from.ip),
      );

    // A wrong password is refused and does not use up the link; another browser cannot use it at all.
    expect((await link('Not-the-password-1')).body.errors?.[0]?.message).toBe('Incorrect password. Please try again.');
    expect((await link(owner.password, await browser())).body.errors?.[0]?.message).toBe(LINK_EXPIRED);
    expect(
      (
        await t.gql(
          op('linkAccountWithPassword'),
          { token: `${token}x`, password: owner.password },
          headersOf({ sessionToken: b.sessionToken }, b.ip),
        )
      ).body.errors?.[0]?.message,
    ).toBe(LINK_EXPIRED);

    const ok = await link(owner.password);
    expect(ok.body.errors).toBeUndefined();
    const p = ok.body.data.linkAccountWithPassword;
    expect(p.authToken).toMatch(/^ey/);
    expect(p.accountLink).toBeNull();
    expect(p.user).toMatchObject({ databaseId: owner.userId, email: owner.email, emailVerified: true });
    expect((await viewerOf(p.authToken)).data.viewer).toMatchObject({ databaseId: owner.userId, emailVerified: true });
    // Single use.
    expect((await link(owner.password)).body.errors?.[0]?.message).toBe(LINK_EXPIRED);
    // From now on the provider login logs straight in.
    const next = await providerLogin(await browser(), 'GOOGLE', { sub, email: owner.email, email_verified: true });
    expect(next.body.data.login.user.databaseId).toBe(owner.userId);
  });

  it("the e-mailed link links the provider login in the browser that asked, ends the registrant's logins and removes their password", async () => {
    const email = unique('mailbox');
    const attacker = await register(t, { ...newCustomer('eve'), email }, headersOf({}, ip()));
    // While holding the password, the attacker also links an identity of their own whose provider did not
    // verify the address (allowed with the password, and it would be a way back in).
    const ab = await browser();
    const acme = await providerLogin(ab, 'OAUTH2_GENERIC', { sub: `eve-acme-${email}`, email, email_verified: false });
    expect(acme.body.data.login.accountLink.providerName).toBe('Acme ID');
    const viaAcme = await t.gql(
      op('linkAccountWithPassword'),
      { token: acme.body.data.login.accountLink.token, password: attacker.password },
      headersOf({ sessionToken: ab.sessionToken }, ab.ip),
    );
    expect(viaAcme.body.data.linkAccountWithPassword.user).toMatchObject({
      databaseId: attacker.userId,
      emailVerified: false,
    });

    // The victim signs in with Google and asks for a link by e-mail instead of the password they do not know.
    const victim = await browser();
    const r = await providerLogin(victim, 'GOOGLE', { sub: `victim-${email}`, email, email_verified: true });
    const { token } = r.body.data.login.accountLink;
    const sent = await t.gql(
      op('sendAccountLinkEmail'),
      { token },
      headersOf({ sessionToken: victim.sessionToken }, victim.ip),
    );
    expect(sent.body.errors).toBeUndefined();
    expect(sent.body.data.sendAccountLinkEmail.success).toBe(true);
    const key = await mailedKey(email, LINK_MAIL, '/my-account/link-account');
    const [mail] = await mailTo(email, LINK_MAIL);
    expect(mail!.text).toMatch(/ends every other login of the account and removes its password/);

    // Opened in another browser (say, the attacker's): nothing happens.
    const elsewhere = await t.gql(
      op('linkAccountFromEmail'),
      { key },
      headersOf({ sessionToken: attacker.sessionToken }, ip()),
    );
    expect(elsewhere.body.errors?.[0]?.message).toBe(
      'Please open this link in the browser where you started logging in.',
    );
    expect((await viewerOf(attacker.authToken)).data.viewer?.databaseId).toBe(attacker.userId);

    const done = await t.gql(
      op('linkAccountFromEmail'),
      { key },
      headersOf({ sessionToken: victim.sessionToken }, victim.ip),
    );
    expect(done.body.errors).toBeUndefined();
    const p = done.body.data.linkAccountFromEmail;
    expect(p.user).toMatchObject({ databaseId: attacker.userId, email, emailVerified: true });
    // The victim's new login works; now their data is theirs alone.
    expect(
      (
        await t.gql(
          SAVE_ADDRESS,
          { phone: '+33 6 98 76 54 32' },
          headersOf({ authToken: p.authToken, sessionToken: p.sessionToken }),
        )
      ).body.errors,
    ).toBeUndefined();

    // The attacker is out: the old auth token and refresh token are dead, the password no longer works and
    // the identity linked with it is gone.
    const old = await viewerOf(attacker.authToken);
    expect(old.data?.viewer ?? null).toBeNull();
    const refreshed = await t.gql(op('refreshToken'), { refreshToken: attacker.refreshToken });
    expect(refreshed.body.data.refreshToken.success).toBe(false);
    expect((await login(t, attacker.username, attacker.password, headersOf({}, ip()))).body.errors?.[0]?.message).toBe(
      'Incorrect password. Please try again.',
    );
    const back = await providerLogin(await browser(), 'OAUTH2_GENERIC', {
      sub: `eve-acme-${email}`,
      email,
      email_verified: false,
    });
    expect(back.body.data.login.authToken).toBeNull();
    expect(back.body.data.login.accountLink?.email).toBe(email);

    // The key works once; the victim's Google login now logs straight in.
    expect(
      (await t.gql(op('linkAccountFromEmail'), { key }, headersOf({ sessionToken: victim.sessionToken }, victim.ip)))
        .body.errors?.[0]?.message,
    ).toBe(LINK_EXPIRED);
    const next = await providerLogin(await browser(), 'GOOGLE', {
      sub: `victim-${email}`,
      email,
      email_verified: true,
    });
    expect(next.body.data.login.user.databaseId).toBe(attacker.userId);
  });

  it('a verified account is linked at once when the provider verified the address too; otherwise the password is asked', async () => {
    const c = await register(t, newCustomer('verified'), headersOf({}, ip()));
    const key = await mailedKey(c.email, CONFIRM_MAIL, '/my-account/verify-email');
    expect(
      (await t.gql(op('verifyEmail'), { key }, headersOf({ authToken: c.authToken }))).body.errors,
    ).toBeUndefined();
    const unverifiedAtProvider = await providerLogin(await browser(), 'OAUTH2_GENERIC', {
      sub: `acme-${c.email}`,
      email: c.email,
      email_verified: false,
    });
    expect(unverifiedAtProvider.body.data.login.authToken).toBeNull();
    expect(unverifiedAtProvider.body.data.login.accountLink.email).toBe(c.email);
    const r = await providerLogin(await browser(), 'GOOGLE', {
      sub: `google-${c.email}`,
      email: c.email,
      email_verified: true,
    });
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.login.accountLink).toBeNull();
    expect(r.body.data.login.user).toMatchObject({ databaseId: c.userId, emailVerified: true });
  });

  it('an account created from a provider identity with a verified address is verified and sent no confirmation mail', async () => {
    const email = unique('fromgoogle');
    const r = await providerLogin(await browser(), 'GOOGLE', { sub: `new-${email}`, email, email_verified: true });
    expect(r.body.data.login.user).toMatchObject({ email, emailVerified: true });
    expect(await mailTo(email, CONFIRM_MAIL)).toEqual([]);
  });
});

describe('e-mail verification', () => {
  it('registration mails a confirmation link that works once, only for the logged-in account it was sent for', async () => {
    const c = await register(t, newCustomer('confirm'), headersOf({}, ip()));
    expect(c.payload.viewer.emailVerified).toBe(false);
    expect(await mailTo(c.email, CONFIRM_MAIL)).toHaveLength(1);
    const key = await mailedKey(c.email, CONFIRM_MAIL, '/my-account/verify-email');

    // Not logged in, or logged in as somebody else: refused, and the link still works for its account.
    expect((await t.gql(op('verifyEmail'), { key })).body.errors?.[0]?.message).toBe(
      'You must be logged in to do that.',
    );
    const other = await register(t, newCustomer('other'), headersOf({}, ip()));
    expect(
      (await t.gql(op('verifyEmail'), { key }, headersOf({ authToken: other.authToken }))).body.errors?.[0]?.message,
    ).toBe(INVALID_CONFIRMATION);
    expect((await viewerOf(other.authToken)).data.viewer.emailVerified).toBe(false);

    const ok = await t.gql(op('verifyEmail'), { key }, headersOf({ authToken: c.authToken }));
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.verifyEmail).toMatchObject({
      success: true,
      user: { databaseId: c.userId, emailVerified: true },
    });
    expect((await viewerOf(c.authToken)).data.viewer.emailVerified).toBe(true);
    expect(
      (await t.gql(op('verifyEmail'), { key }, headersOf({ authToken: c.authToken }))).body.errors?.[0]?.message,
    ).toBe(INVALID_CONFIRMATION);
  });

  it('sending again replaces the link; an expired link is refused; a changed address is unverified again', async () => {
    const c = await register(t, newCustomer('resend'), headersOf({}, ip()));
    const first = await mailedKey(c.email, CONFIRM_MAIL, '/my-account/verify-email');
    const resent = await t.gql(op('sendEmailVerification'), {}, headersOf({ authToken: c.authToken }));
    expect(resent.body.data.sendEmailVerification.success).toBe(true);
    const second = await mailedKey(c.email, CONFIRM_MAIL, '/my-account/verify-email');
    expect(second).not.toBe(first);
    expect(
      (await t.gql(op('verifyEmail'), { key: first }, headersOf({ authToken: c.authToken }))).body.errors?.[0]?.message,
    ).toBe(INVALID_CONFIRMATION);

    await t.engine.database.db.execute(
      sql`update email_verification_keys set expires_at = now() - interval '1 second' where user_id = ${c.userId}`,
    );
    expect(
      (await t.gql(op('verifyEmail'), { key: second }, headersOf({ authToken: c.authToken }))).body.errors?.[0]
        ?.message,
    ).toBe(INVALID_CONFIRMATION);
    expect((await viewerOf(c.authToken)).data.viewer.emailVerified).toBe(false);

    await t.gql(op('sendEmailVerification'), {}, headersOf({ authToken: c.authToken }));
    const third = await mailedKey(c.email, CONFIRM_MAIL, '/my-account/verify-email');
    // Three mails an hour per account (RESET_LIMIT_PER_ACCOUNT): the fourth request is refused.
    expect(
      (await t.gql(op('sendEmailVerification'), {}, headersOf({ authToken: c.authToken }))).body.errors?.[0]?.message,
    ).toMatch(/^Too many attempts\./);
    expect(
      (await t.gql(op('verifyEmail'), { key: third }, headersOf({ authToken: c.authToken }))).body.data.verifyEmail.user
        .emailVerified,
    ).toBe(true);

    // A new address has proven nothing yet.
    const changed = await t.gql(
      `mutation ($email: String!, $password: String!) { updateCustomer(input: { email: $email, currentPassword: $password }) { customer { email } } }`,
      { email: `new-${c.email}`, password: c.password },
      headersOf({ authToken: c.authToken, sessionToken: c.sessionToken }, ip()),
    );
    expect(changed.body.data.updateCustomer.customer.email).toBe(`new-${c.email}`);
    expect((await viewerOf(c.authToken)).data.viewer.emailVerified).toBe(false);
  });

  it('a completed password reset verifies the address (the mail reached its owner)', async () => {
    const c = await register(t, newCustomer('resetverifies'), headersOf({}, ip()));
    await t.gql(op('ResetPasswordEmail'), { username: c.email }, headersOf({}, ip()));
    const [mail] = await mailTo(c.email, /^Reset your Meshfront password$/);
    const url = new URL(mail!.links.find((l) => l.includes('/my-account/lost-password?key='))!);
    const reset = await t.gql(
      op('ResetPasswordKey'),
      { key: url.searchParams.get('key'), login: url.searchParams.get('login'), password: 'A-brand-new-pass-42' },
      headersOf({}, ip()),
    );
    expect(reset.body.errors).toBeUndefined();
    const again = await login(t, c.username, 'A-brand-new-pass-42', headersOf({}, ip()));
    expect(again.body.data.login.user).toMatchObject({ databaseId: c.userId, emailVerified: true });
  });

  it('an account created at checkout is sent the confirmation mail too', async () => {
    const c = newCustomer('checkout');
    const s = new Shopper(t);
    await s.ok(operation('addToCart'), { productId: await productId(t, 'omni-antenna'), quantity: 1 });
    const d = await s.ok(operation('Checkout'), {
      paymentMethod: 'cod',
      billing: { ...BILLING, email: c.email },
      account: { username: c.username, password: c.password },
    });
    expect(d.checkout.result).toBe('success');
    await mailedKey(c.email, CONFIRM_MAIL, '/my-account/verify-email');
  });
});
