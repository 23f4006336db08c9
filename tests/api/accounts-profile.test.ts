// Password reset by e-mail (single-use, expiring keys, rate limits), the account's details and addresses
// (UpdateCustomer) and the password change (updatePassword needs the current password).
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestEngine, type TestEngine } from './harness.ts';
import { headersOf, login, newCustomer, op, register } from './accounts-helpers.ts';

vi.setConfig({ testTimeout: 120_000, hookTimeout: 300_000 });

let t: TestEngine;
let ipCounter = 0;
const ip = () => `203.0.113.${++ipCounter}`;

beforeAll(async () => {
  process.env.TRUST_PROXY = '1';
  process.env.PASSWORD_SCRYPT_LOG2N = '12';
  process.env.PUBLIC_SITE_URL = 'https://shop.meshfront.test';
  process.env.RESET_LIMIT_PER_IP = '6';
  process.env.RESET_LIMIT_PER_ACCOUNT = '3';
  t = await startTestEngine();
});
afterAll(async () => {
  await t?.close();
});

async function resetLink(email: string): Promise<{ key: string; login: string; url: URL } | null> {
  const [mail] = await t.engine.accounts.mailer().readOutbox({ to: email, subject: /^Reset your / });
  if (!mail) return null;
  const link = mail.links.find((l) => l.includes('/my-account/lost-password'));
  if (!link) return null;
  const url = new URL(link);
  return { key: url.searchParams.get('key')!, login: url.searchParams.get('login')!, url };
}

describe('password reset', () => {
  it('always answers success, and mails a working single-use link only when the account exists', async () => {
    const c = await register(t, newCustomer('reset'), headersOf({}, ip()));
    const h = headersOf({}, ip());
    const unknown = await t.gql(op('ResetPasswordEmail'), { username: 'nobody-at-all@example.test' }, h);
    expect(unknown.body.data.sendPasswordResetEmail.success).toBe(true);
    expect(await t.engine.accounts.mailer().readOutbox({ to: 'nobody-at-all@example.test' })).toEqual([]);

    const r = await t.gql(op('ResetPasswordEmail'), { username: c.email }, h);
    expect(r.body.data.sendPasswordResetEmail.success).toBe(true);
    const link = await resetLink(c.email);
    expect(link).not.toBeNull();
    expect(link!.url.origin + link!.url.pathname).toBe('https://shop.meshfront.test/my-account/lost-password');
    expect(link!.login).toBe(c.username);

    // Wrong key, wrong login, weak password: refused, the key survives.
    const use = (vars: Record<string, unknown>) => t.gql(op('ResetPasswordKey'), vars, headersOf({}, ip()));
    expect(
      (await use({ key: `x${link!.key}`, login: link!.login, password: 'A-new-pass-123' })).body.errors?.[0]?.message,
    ).toBe('Password reset link is invalid.');
    const other = await register(t, newCustomer('other'), headersOf({}, ip()));
    expect(
      (await use({ key: link!.key, login: other.username, password: 'A-new-pass-123' })).body.errors?.[0]?.message,
    ).toBe('Password reset link is invalid.');
    expect((await use({ key: link!.key, login: link!.login, password: 'password' })).body.errors?.[0]?.message).toMatch(
      /at least 8|too common/,
    );

    const ok = await use({ key: link!.key, login: link!.login, password: 'A-new-pass-123' });
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.resetUserPassword.user.databaseId).toBe(c.userId);
    // Single use.
    expect(
      (await use({ key: link!.key, login: link!.login, password: 'Another-pass-456' })).body.errors?.[0]?.message,
    ).toBe('Password reset link is invalid.');
    // The new password works, the old does not; the refresh tokens issued before are revoked.
    expect((await login(t, c.username, 'A-new-pass-123', headersOf({}, ip()))).body.errors).toBeUndefined();
    expect((await login(t, c.username, c.password, headersOf({}, ip()))).body.errors?.[0]?.message).toBe(
      'Incorrect password. Please try again.',
    );
    const refresh = await t.gql(`mutation ($r: String!) { refreshToken(input: { refreshToken: $r }) { success } }`, {
      r: c.refreshToken,
    });
    expect(refresh.body.data.refreshToken.success).toBe(false);
    expect(
      (await t.gql(`query { viewer { databaseId } }`, {}, headersOf({ authToken: c.authToken }))).body.data.viewer,
    ).toBeNull();
  });

  it('a key expires', async () => {
    const c = await register(t, newCustomer('expire'), headersOf({}, ip()));
    await t.gql(op('ResetPasswordEmail'), { username: c.username }, headersOf({}, ip()));
    const link = (await resetLink(c.email))!;
    await t.engine.database.db.execute(sql`update password_reset_keys set expires_at = now() - interval '1 second'`);
    const r = await t.gql(
      op('ResetPasswordKey'),
      { key: link.key, login: link.login, password: 'A-new-pass-123' },
      headersOf({}, ip()),
    );
    expect(r.body.errors?.[0]?.message).toBe('Password reset link is invalid.');
  });

  it('expired and used keys and ended logins are cleaned up', async () => {
    const c = await register(t, newCustomer('purge'), headersOf({}, ip()));
    await t.gql(op('ResetPasswordEmail'), { username: c.username }, headersOf({}, ip()));
    await t.engine.database.db.execute(sql`update password_reset_keys set expires_at = now() - interval '1 second'`);
    await t.engine.database.db.execute(
      sql`update auth_sessions set refresh_expires_at = now() - interval '1 second' where user_id = ${c.userId}`,
    );
    const count = async (table: string) => {
      const r = await t.engine.database.db.execute(
        sql.raw(
          `select count(*)::int as n from ${table}${table === 'auth_sessions' ? ` where user_id = ${c.userId}` : ''}`,
        ),
      );
      return ((r as unknown as { rows?: { n: number }[] }).rows ?? (r as unknown as { n: number }[]))[0]!.n;
    };
    expect(await count('auth_sessions')).toBe(1);
    expect(await count('password_reset_keys')).toBeGreaterThan(0);
    expect(await t.engine.accounts.auth.purgeExpired()).toBeGreaterThanOrEqual(2);
    expect(await count('auth_sessions')).toBe(0);
    expect(await count('password_reset_keys')).toBe(0);
  });

  it('only the newest link works', async () => {
    const c = await register(t, newCustomer('newest'), headersOf({}, ip()));
    await t.gql(op('ResetPasswordEmail'), { username: c.username }, headersOf({}, ip()));
    const first = (await resetLink(c.email))!;
    await new Promise((r) => setTimeout(r, 5));
    await t.gql(op('ResetPasswordEmail'), { username: c.username }, headersOf({}, ip()));
    const second = (await resetLink(c.email))!;
    expect(second.key).not.toBe(first.key);
    expect(
      (
        await t.gql(
          op('ResetPasswordKey'),
          { key: first.key, login: first.login, password: 'A-new-pass-123' },
          headersOf({}, ip()),
        )
      ).body.errors?.[0]?.message,
    ).toBe('Password reset link is invalid.');
    expect(
      (
        await t.gql(
          op('ResetPasswordKey'),
          { key: second.key, login: second.login, password: 'A-new-pass-123' },
          headersOf({}, ip()),
        )
      ).body.errors,
    ).toBeUndefined();
  });

  it('is rate-limited per IP (error) and per account (no more mail, still success)', async () => {
    const c = await register(t, newCustomer('resetrl'), headersOf({}, ip()));
    for (let i = 0; i < 5; i++)
      expect(
        (await t.gql(op('ResetPasswordEmail'), { username: c.email }, headersOf({}, ip()))).body.data
          .sendPasswordResetEmail.success,
      ).toBe(true);
    expect(await t.engine.accounts.mailer().readOutbox({ to: c.email, subject: /^Reset your / })).toHaveLength(3);
    const h = headersOf({}, ip());
    for (let i = 0; i < 6; i++) await t.gql(op('ResetPasswordEmail'), { username: `x${i}@example.test` }, h);
    const r = await t.gql(op('ResetPasswordEmail'), { username: 'y@example.test' }, h);
    expect(r.body.errors?.[0]?.message).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
  });
});

describe('UpdateCustomer', () => {
  it('edits names, e-mail and validated addresses of the logged-in customer', async () => {
    const c = await register(t, newCustomer('upd'), headersOf({}, ip()));
    const h = headersOf({ authToken: c.authToken, sessionToken: c.sessionToken });
    const input = {
      firstName: 'Grace',
      lastName: 'Hopper',
      email: `new-${c.email}`,
      // A new e-mail address needs the current password (tests/api/trust-accounts.test.ts).
      currentPassword: c.password,
      billing: {
        firstName: 'Grace',
        lastName: 'Hopper',
        address1: '1 Main St',
        city: 'Arlington',
        state: 'VA',
        postcode: '22201',
        country: 'US',
        phone: '+1 555 0100',
        email: `new-${c.email}`,
      },
      shipping: {
        firstName: 'Grace',
        lastName: 'Hopper',
        address1: '2 Side St',
        city: 'Lyon',
        postcode: '69001',
        country: 'FR',
      },
    };
    const r = await t.gql(op('UpdateCustomer'), { input }, h);
    expect(r.body.errors).toBeUndefined();
    expect(r.body.data.updateCustomer.customer).toMatchObject({
      firstName: 'Grace',
      lastName: 'Hopper',
      email: `new-${c.email}`,
      username: c.username,
    });
    expect(r.body.data.updateCustomer.customer.billing).toMatchObject({
      address1: '1 Main St',
      state: 'VA',
      country: 'US',
      phone: '+1 555 0100',
    });
    expect(r.body.data.updateCustomer.customer.shipping).toMatchObject({ city: 'Lyon', country: 'FR' });
    const again = await t.gql(
      `query { customer { email firstName billing { city } shipping { city } } viewer { email firstName } }`,
      {},
      h,
    );
    expect(again.body.data.customer).toMatchObject({
      email: `new-${c.email}`,
      firstName: 'Grace',
      billing: { city: 'Arlington' },
      shipping: { city: 'Lyon' },
    });
    expect(again.body.data.viewer).toMatchObject({ email: `new-${c.email}`, firstName: 'Grace' });
    // The old e-mail no longer logs in, the new one does.
    expect((await login(t, `new-${c.email}`, c.password, headersOf({}, ip()))).body.errors).toBeUndefined();
  });

  it('refuses a bad state, a taken e-mail and editing someone else', async () => {
    const a = await register(t, newCustomer('upda'), headersOf({}, ip()));
    const b = await register(t, newCustomer('updb'), headersOf({}, ip()));
    const h = headersOf({ authToken: a.authToken, sessionToken: a.sessionToken });
    const bad = await t.gql(op('UpdateCustomer'), { input: { billing: { country: 'US', state: 'Atlantis' } } }, h);
    expect(bad.body.errors?.[0]?.message).toMatch(/^Billing State is not valid/);
    const taken = await t.gql(
      op('UpdateCustomer'),
      { input: { email: b.email.toUpperCase(), currentPassword: a.password } },
      h,
    );
    expect(taken.body.errors?.[0]?.message).toBe('This email address is already registered.');
    const someoneElse = await t.gql(
      op('UpdateCustomer'),
      { input: { id: Buffer.from(`user:${b.userId}`).toString('base64'), firstName: 'Mallory' } },
      h,
    );
    expect(someoneElse.body.errors?.[0]?.message).toBe('Sorry, you are not allowed to edit this user.');
    const bView = await t.gql(`query { viewer { firstName } }`, {}, headersOf({ authToken: b.authToken }));
    expect(bView.body.data.viewer.firstName).toBe('Ada');
    // An expired/invalid token does not fall back to editing the guest session silently.
    const invalid = await t.gql(
      op('UpdateCustomer'),
      { input: { firstName: 'X' } },
      headersOf({ authToken: `${a.authToken.slice(0, -3)}abc` }),
    );
    expect(invalid.body.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('updatePassword', () => {
  it('needs the right current password; other logins end, this one goes on', async () => {
    const c = await register(t, newCustomer('pw'), headersOf({}, ip()));
    const other = (await login(t, c.username, c.password, headersOf({}, ip()))).body.data.login;
    const id = Buffer.from(`user:${c.userId}`).toString('base64');
    const h = headersOf({ authToken: c.authToken });
    expect(
      (await t.gql(op('updatePassword'), { id, currentPassword: 'not-it-at-all', password: 'Brand-new-pass-1' }, h))
        .body.errors?.[0]?.message,
    ).toBe('Your current password is incorrect.');
    expect(
      (await t.gql(op('updatePassword'), { id, currentPassword: c.password, password: 'letmein' }, h)).body.errors?.[0]
        ?.message,
    ).toMatch(/at least 8/);
    const ok = await t.gql(op('updatePassword'), { id, currentPassword: c.password, password: 'Brand-new-pass-1' }, h);
    expect(ok.body.errors).toBeUndefined();
    expect(ok.body.data.updateUser.user.databaseId).toBe(c.userId);
    expect((await t.gql(`query { viewer { databaseId } }`, {}, h)).body.data.viewer.databaseId).toBe(c.userId);
    expect(
      (await t.gql(`query { viewer { databaseId } }`, {}, headersOf({ authToken: other.authToken }))).body.data.viewer,
    ).toBeNull();
    expect((await login(t, c.username, 'Brand-new-pass-1', headersOf({}, ip()))).body.errors).toBeUndefined();
    // Another user's id, or no login at all: refused.
    const b = await register(t, newCustomer('pwb'), headersOf({}, ip()));
    const bid = Buffer.from(`user:${b.userId}`).toString('base64');
    expect(
      (await t.gql(op('updatePassword'), { id: bid, currentPassword: b.password, password: 'Brand-new-pass-2' }, h))
        .body.errors?.[0]?.message,
    ).toBe('Sorry, you are not allowed to edit this user.');
    expect(
      (await t.gql(op('updatePassword'), { id: bid, currentPassword: b.password, password: 'Brand-new-pass-2' })).body
        .errors?.[0]?.extensions?.code,
    ).toBe('UNAUTHENTICATED');
  });
});
