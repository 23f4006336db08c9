// Trust in accounts: password guessing from many addresses cannot lock the owner out (storefront and
// /admin login); changing the e-mail address needs the current password and tells the previous address,
// whose "this wasn't me" link undoes the change; passwords made of the username are refused; refused
// resets that guess nothing do not use up the address's budget.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { adminServiceFor } from '../../src/server/admin/service.ts';
import { adminLogin, BAD_LOGIN } from '../../src/server/admin/web/session.ts';
import { startTestEngine, type TestEngine } from './harness.ts';
import { headersOf, login, newCustomer, op, register } from './accounts-helpers.ts';

vi.setConfig({ testTimeout: 180_000, hookTimeout: 300_000 });

let t: TestEngine;
let ipCounter = 0;
/** A fresh client address: one nobody has failed from yet. */
const ip = () => `192.0.2.${++ipCounter}`;

const TOO_MANY = /^Too many attempts\. Please try again in \d+ minutes?\.$/;
const WRONG = 'Incorrect password. Please try again.';
const VIEWER = /* GraphQL */ `query { viewer { databaseId email } }`;
const UPDATE_USER = /* GraphQL */ `mutation ($input: UpdateUserInput!) { updateUser(input: $input) { user { databaseId email } } }`;
const REFRESH = /* GraphQL */ `mutation ($r: String!) { refreshToken(input: { refreshToken: $r }) { success } }`;

beforeAll(async () => {
  process.env.TRUST_PROXY = '1';
  process.env.PASSWORD_SCRYPT_LOG2N = '12';
  process.env.PUBLIC_SITE_URL = 'https://shop.meshfront.test';
  process.env.LOGIN_LIMIT_PER_IP = '8';
  process.env.LOGIN_LIMIT_PER_ACCOUNT = '5';
  process.env.LOGIN_SLOWDOWN_AFTER = '10';
  process.env.LOGIN_SLOWDOWN_SECONDS = '30';
  process.env.RESET_LIMIT_PER_IP = '3';
  process.env.RESET_LIMIT_PER_ACCOUNT = '5';
  t = await startTestEngine();
});
afterAll(async () => {
  await t?.close();
});

const userId = (id: number) => Buffer.from(`user:${id}`).toString('base64');
const mails = (to: string, subject: string | RegExp) => t.engine.accounts.mailer().readOutbox({ to, subject });

describe('login throttling', () => {
  it('ten wrong passwords from ten addresses do not lock the owner out: the right password from a clean address logs in', async () => {
    const c = await register(t, newCustomer('victim'), headersOf({}, ip()));
    const attackers = Array.from({ length: 10 }, ip);
    for (const [i, address] of attackers.entries()) {
      const r = await login(t, i % 2 ? c.email : c.username, `guess-number-${i}`, headersOf({}, address));
      expect(r.body.errors?.[0]?.message).toBe(WRONG);
    }
    const owner = await login(t, c.username, c.password, headersOf({}, ip()));
    expect(owner.body.errors).toBeUndefined();
    expect(owner.body.data.login.user.databaseId).toBe(c.userId);
    // A new address still gets its guess answered …
    expect((await login(t, c.username, 'guess-number-11', headersOf({}, ip()))).body.errors?.[0]?.message).toBe(WRONG);
    // … but the account is under attack: an address that failed on it waits before its next guess.
    const again = await login(t, c.username, 'guess-number-10', headersOf({}, attackers[0]));
    expect(again.body.errors?.[0]?.message).toMatch(TOO_MANY);
    expect(again.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
  });

  it('the same holds for a shop manager at the /admin login', async () => {
    const m = await register(t, newCustomer('manager'), headersOf({}, ip()));
    await adminServiceFor(t.engine).roles.setRole(m.userId, 'shop_manager');
    for (let i = 0; i < 10; i++)
      expect(await adminLogin(t.engine, { username: m.username, password: `guess-${i}-manager` }, ip(), false)).toEqual(
        { ok: false, error: BAD_LOGIN },
      );
    const r = await adminLogin(t.engine, { username: m.username, password: m.password }, ip(), false);
    expect(r).toMatchObject({ ok: true, viewer: { id: m.userId } });
  });

  it('one address gets the rate-limit message after N failures on an account; other addresses and a success are not held back', async () => {
    const c = await register(t, newCustomer('pair'), headersOf({}, ip()));
    const guesser = headersOf({}, ip());
    for (let i = 0; i < 5; i++)
      expect((await login(t, c.username, `wrong-pass-${i}`, guesser)).body.errors?.[0]?.message).toBe(WRONG);
    const blocked = await login(t, c.username, c.password, guesser);
    expect(blocked.body.errors?.[0]?.message).toMatch(TOO_MANY);
    expect(blocked.body.errors?.[0]?.extensions?.code).toBe('RATE_LIMITED');
    // Another address logs in.
    expect((await login(t, c.email, c.password, headersOf({}, ip()))).body.errors).toBeUndefined();
    // A customer who mistyped a few times and then got it right starts over.
    const d = await register(t, newCustomer('typist'), headersOf({}, ip()));
    const typist = headersOf({}, ip());
    for (let i = 0; i < 4; i++)
      expect((await login(t, d.username, `typo-${i}-pass`, typist)).body.errors?.[0]?.message).toBe(WRONG);
    expect((await login(t, d.username, d.password, typist)).body.errors).toBeUndefined();
    for (let i = 0; i < 4; i++)
      expect((await login(t, d.username, `typo-again-${i}`, typist)).body.errors?.[0]?.message).toBe(WRONG);
  });

  it('limits failures per address across accounts, and never counts successful logins', async () => {
    const c = await register(t, newCustomer('office'), headersOf({}, ip()));
    const office = headersOf({}, ip());
    for (let i = 0; i < 10; i++) expect((await login(t, c.username, c.password, office)).body.errors).toBeUndefined();
    const scanner = headersOf({}, ip());
    for (let i = 0; i < 8; i++)
      expect((await login(t, `ghost${i}-${c.username}`, 'whatever-123', scanner)).body.errors?.[0]?.message).toMatch(
        /^No account found/,
      );
    expect((await login(t, c.username, c.password, scanner)).body.errors?.[0]?.message).toMatch(TOO_MANY);
  });
});

describe('changing the e-mail address', () => {
  it('needs the current password; the previous address gets a notice with the new one partly hidden', async () => {
    const c = await register(t, newCustomer('mover'), headersOf({}, ip()));
    const h = headersOf({ authToken: c.authToken, sessionToken: c.sessionToken }, ip());
    const newEmail = `moved-${c.email}`;
    const without = await t.gql(op('UpdateCustomer'), { input: { email: newEmail } }, h);
    expect(without.body.errors?.[0]?.message).toBe('Please enter your current password to change your e-mail address.');
    const wrong = await t.gql(
      op('UpdateCustomer'),
      { input: { email: newEmail, currentPassword: 'not-my-password' } },
      h,
    );
    expect(wrong.body.errors?.[0]?.message).toBe('Your current password is incorrect.');
    // updateUser (WPGraphQL's own mutation) is held to the same rule.
    const viaUser = await t.gql(UPDATE_USER, { input: { id: userId(c.userId), email: newEmail } }, h);
    expect(viaUser.body.errors?.[0]?.message).toBe('Please enter your current password to change your e-mail address.');
    expect((await t.gql(VIEWER, {}, h)).body.data.viewer.email).toBe(c.email);
    expect(await mails(c.email, 'e-mail address was changed')).toEqual([]);

    // Names, and the same address in other letters, need no password.
    const names = await t.gql(op('UpdateCustomer'), { input: { firstName: 'Grace', email: c.email.toUpperCase() } }, h);
    expect(names.body.errors).toBeUndefined();
    expect(names.body.data.updateCustomer.customer).toMatchObject({ firstName: 'Grace', email: c.email });

    const ok = await t.gql(op('UpdateCustomer'), { input: { email: newEmail, currentPassword: c.password } }, h);
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.updateCustomer.customer.email).toBe(newEmail);
    const [notice, ...more] = await mails(c.email, 'e-mail address was changed');
    expect(more).toEqual([]);
    expect(notice!.text).toContain('was changed to mo***@e***.test');
    expect(notice!.text).not.toContain(newEmail);
    expect(
      notice!.links.some((l) => l.startsWith('https://shop.meshfront.test/my-account/email-change-report?token=')),
    ).toBe(true);
    expect(await mails(newEmail, 'e-mail address was changed')).toEqual([]);
  });

  it('updateUser with the current password changes the address too, and tells the previous one', async () => {
    const c = await register(t, newCustomer('userupd'), headersOf({}, ip()));
    const h = headersOf({ authToken: c.authToken }, ip());
    const r = await t.gql(
      UPDATE_USER,
      { input: { id: userId(c.userId), email: `new-${c.email}`, currentPassword: c.password } },
      h,
    );
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.updateUser.user.email).toBe(`new-${c.email}`);
    expect(await mails(c.email, 'e-mail address was changed')).toHaveLength(1);
  });

  it('"this wasn’t me" restores the address, ends every login, retires the password and mails a reset link', async () => {
    const c = await register(t, newCustomer('hijacked'), headersOf({}, ip()));
    const otherLogin = (await login(t, c.username, c.password, headersOf({}, ip()))).body.data.login;
    // Someone with the password moves the account to their own address.
    const thief = `thief-${c.email}`;
    const h = headersOf({ authToken: c.authToken, sessionToken: c.sessionToken }, ip());
    expect(
      (await t.gql(op('UpdateCustomer'), { input: { email: thief, currentPassword: c.password } }, h)).body.errors,
    ).toBeUndefined();
    const [notice] = await mails(c.email, 'e-mail address was changed');
    const link = new URL(notice!.links.find((l) => l.includes('/my-account/email-change-report'))!);
    const token = link.searchParams.get('token')!;

    // A token changed in one place, or cut short, is refused.
    const flipped = token.slice(0, 20) + (token[20] === 'A' ? 'B' : 'A') + token.slice(21);
    for (const bad of [flipped, token.slice(0, -4), 'not-a-token']) {
      expect(
        (await t.gql(op('reportEmailChange'), { token: bad }, headersOf({}, ip()))).body.errors?.[0]?.message,
      ).toBe('This link is invalid or has expired.');
    }

    const r = await t.gql(op('reportEmailChange'), { token }, headersOf({}, ip()));
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.reportEmailChange).toEqual({ success: true, email: `${c.email.slice(0, 2)}***@e***.test` });
    const account = (await t.engine.accounts.customers.get(c.userId))!;
    expect(account.email).toBe(c.email);
    expect(account.emailVerifiedAt).not.toBeNull();
    // Every login has ended: auth tokens and refresh tokens of both logins are refused.
    expect((await t.gql(VIEWER, {}, headersOf({ authToken: c.authToken }))).body.data.viewer).toBeNull();
    expect((await t.gql(VIEWER, {}, headersOf({ authToken: otherLogin.authToken }))).body.data.viewer).toBeNull();
    expect((await t.gql(REFRESH, { r: c.refreshToken })).body.data.refreshToken.success).toBe(false);
    expect((await t.gql(REFRESH, { r: otherLogin.refreshToken })).body.data.refreshToken.success).toBe(false);
    // The password that allowed the change no longer logs in; the reset link at the restored address works.
    expect((await login(t, c.username, c.password, headersOf({}, ip()))).body.errors?.[0]?.message).toBe(WRONG);
    const [reset] = await mails(c.email, /^Reset your/);
    const resetUrl = new URL(reset!.links.find((l) => l.includes('/my-account/lost-password?key='))!);
    const chosen = await t.gql(
      op('ResetPasswordKey'),
      {
        key: resetUrl.searchParams.get('key'),
        login: resetUrl.searchParams.get('login'),
        password: 'Mine-again-2026!',
      },
      headersOf({}, ip()),
    );
    expect(chosen.body.errors).toBeUndefined();
    expect((await login(t, c.email, 'Mine-again-2026!', headersOf({}, ip()))).body.errors).toBeUndefined();

    // The link is spent: the address it would undo is gone.
    expect((await t.gql(op('reportEmailChange'), { token }, headersOf({}, ip()))).body.errors?.[0]?.message).toBe(
      'This link no longer applies: the e-mail address of the account was already restored or has changed again since.',
    );
  });

  it('the link expires', async () => {
    const c = await register(t, newCustomer('late'), headersOf({}, ip()));
    const h = headersOf({ authToken: c.authToken, sessionToken: c.sessionToken }, ip());
    expect(
      (await t.gql(op('UpdateCustomer'), { input: { email: `late-${c.email}`, currentPassword: c.password } }, h)).body
        .errors,
    ).toBeUndefined();
    const [notice] = await mails(c.email, 'e-mail address was changed');
    expect(notice!.text).toContain('The link works for 7 days.');
    const token = new URL(notice!.links.find((l) => l.includes('/my-account/email-change-report'))!).searchParams.get(
      'token',
    )!;
    const now = Date.now();
    const clock = vi.spyOn(Date, 'now').mockReturnValue(now + 8 * 86_400_000);
    try {
      expect((await t.gql(op('reportEmailChange'), { token }, headersOf({}, ip()))).body.errors?.[0]?.message).toBe(
        'This link is invalid or has expired.',
      );
    } finally {
      clock.mockRestore();
    }
    expect((await t.engine.accounts.customers.get(c.userId))!.email).toBe(`late-${c.email}`);
  });
});

describe('passwords made of the username', () => {
  it('refuses the username or the e-mail local part repeated, or mostly that, and keeps a longer password', async () => {
    const personal = 'Password must not be your username or e-mail address.';
    const attempt = (vars: Record<string, string>) => t.gql(op('registerCustomer'), vars, headersOf({}, ip()));
    expect(
      (await attempt({ username: 'carol', email: 'carol.w1@example.test', password: 'carol1carol1' })).body.errors?.[0]
        ?.message,
    ).toBe(personal);
    expect(
      (await attempt({ username: 'carol', email: 'carol.w2@example.test', password: 'CAROLcarolCarol' })).body
        .errors?.[0]?.message,
    ).toBe(personal);
    expect(
      (await attempt({ username: 'dave-x', email: 'carol@example.test', password: 'Carol!Carol!' })).body.errors?.[0]
        ?.message,
    ).toBe(personal);
    expect(
      (await attempt({ username: 'carol', email: 'carol.w3@example.test', password: 'carol#1' + 'carol' })).body
        .errors?.[0]?.message,
    ).toBe(personal);
    const fine = await attempt({
      username: 'carol',
      email: 'carol.w4@example.test',
      password: 'carol-likes-long-walks',
    });
    expect(fine.body.errors).toBeUndefined();
    // A password change follows the same rule.
    const c = fine.body.data.registerCustomer;
    const change = await t.gql(
      op('updatePassword'),
      { id: userId(c.viewer.databaseId), currentPassword: 'carol-likes-long-walks', password: 'carolcarolcarol' },
      headersOf({ authToken: c.authToken }, ip()),
    );
    expect(change.body.errors?.[0]?.message).toBe(personal);
  });
});

describe('password reset budget', () => {
  async function resetLink(email: string) {
    const [mail] = await mails(email, /^Reset your/);
    const url = new URL(mail!.links.find((l) => l.includes('/my-account/lost-password?key='))!);
    return { key: url.searchParams.get('key')!, login: url.searchParams.get('login')! };
  }

  it('weak passwords tried again and again, and reset e-mails asked for, do not lock the customer out of their link', async () => {
    const c = await register(t, newCustomer('weak'), headersOf({}, ip()));
    const h = headersOf({}, ip());
    // As many reset e-mails as the address may ask for in an hour (RESET_LIMIT_PER_IP = 3).
    for (let i = 0; i < 3; i++)
      expect(
        (await t.gql(op('ResetPasswordEmail'), { username: c.email }, h)).body.data.sendPasswordResetEmail.success,
      ).toBe(true);
    const link = await resetLink(c.email);
    for (const weak of ['password', 'short1', 'password', c.username, 'qwerty123']) {
      const r = await t.gql(op('ResetPasswordKey'), { ...link, password: weak }, h);
      expect(r.body.errors?.[0]?.message).toMatch(/at least 8|too common|must not be your username/);
    }
    const ok = await t.gql(op('ResetPasswordKey'), { ...link, password: 'Finally-strong-2026' }, h);
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.resetUserPassword.user.databaseId).toBe(c.userId);
  });

  it('wrong keys (guesses) still count against the address', async () => {
    const c = await register(t, newCustomer('guessed'), headersOf({}, ip()));
    await t.gql(op('ResetPasswordEmail'), { username: c.username }, headersOf({}, ip()));
    const link = await resetLink(c.email);
    const h = headersOf({}, ip());
    for (let i = 0; i < 3; i++) {
      expect(
        (
          await t.gql(
            op('ResetPasswordKey'),
            { key: `guess${i}${link.key.slice(6)}`, login: link.login, password: 'Strong-pass-2026' },
            h,
          )
        ).body.errors?.[0]?.message,
      ).toBe('Password reset link is invalid.');
    }
    expect(
      (await t.gql(op('ResetPasswordKey'), { ...link, password: 'Strong-pass-2026' }, h)).body.errors?.[0]?.message,
    ).toMatch(TOO_MANY);
    // From another address the link still works.
    expect(
      (await t.gql(op('ResetPasswordKey'), { ...link, password: 'Strong-pass-2026' }, headersOf({}, ip()))).body.errors,
    ).toBeUndefined();
  });
});
