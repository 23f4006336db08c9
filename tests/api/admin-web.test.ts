/**
 * The /admin pages' server side (src/server/admin/web): the admin login cookie (only shop managers get
 * one; it is checked through the auth service on every request, renewed when the auth token is refused,
 * ended by logout and by a demotion) and the in-process calls into the admin endpoint with the
 * operator's token (the endpoint's own role check applies).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminServiceFor } from '../../src/server/admin/service.ts';
import { createAdminYoga, type AdminYoga } from '../../src/server/admin/yoga.ts';
import { AdminCallError, adminCaller } from '../../src/server/admin/web/client.ts';
import {
  adminLogin,
  adminLogout,
  readAdminSession,
  readSessionCookie,
  BAD_LOGIN,
  NOT_A_MANAGER,
} from '../../src/server/admin/web/session.ts';
import { newCustomer, register } from './accounts-helpers.ts';
import { startTestEngine, type TestEngine } from './harness.ts';

let t: TestEngine;
let yoga: AdminYoga;
let manager: Awaited<ReturnType<typeof register>>;
let customer: Awaited<ReturnType<typeof register>>;
const IP = '203.0.113.9';

/** The Cookie header a browser sends back for a Set-Cookie. */
const cookieFrom = (setCookie: string) => setCookie.split(';')[0]!;

beforeAll(async () => {
  t = await startTestEngine();
  yoga = createAdminYoga(async () => t.engine, t.config);
  manager = await register(t, newCustomer('webmanager'), { 'x-forwarded-for': '198.51.100.21' });
  await adminServiceFor(t.engine).roles.setRole(manager.userId, 'shop_manager');
  customer = await register(t, newCustomer('webshopper'), { 'x-forwarded-for': '198.51.100.22' });
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('admin login', () => {
  it('gives a shop manager an HttpOnly, SameSite=Strict cookie scoped to /admin (Secure over HTTPS)', async () => {
    const r = await adminLogin(t.engine, { username: manager.username, password: manager.password }, IP, false);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.viewer.username).toBe(manager.username);
    expect(r.setCookie).toMatch(
      /^meshfront_admin=[^;]+~[^;]+; Path=\/admin; Max-Age=43200; HttpOnly; SameSite=Strict$/,
    );
    const https = await adminLogin(t.engine, { username: manager.email, password: manager.password }, IP, true);
    expect(https.ok && https.setCookie.endsWith('; Secure')).toBe(true);
  });

  it('refuses a customer with the right password, and gives no cookie', async () => {
    const r = await adminLogin(t.engine, { username: customer.username, password: customer.password }, IP, false);
    expect(r).toEqual({ ok: false, error: NOT_A_MANAGER });
  });

  it('answers a wrong password and an unknown name alike', async () => {
    expect(await adminLogin(t.engine, { username: manager.username, password: 'not-the-password' }, IP, false)).toEqual(
      { ok: false, error: BAD_LOGIN },
    );
    expect(await adminLogin(t.engine, { username: 'nobody-here', password: 'whatever-pass-1' }, IP, false)).toEqual({
      ok: false,
      error: BAD_LOGIN,
    });
    expect(await adminLogin(t.engine, { username: '  ', password: '' }, IP, false)).toMatchObject({ ok: false });
  });
});

describe('admin session', () => {
  async function loggedIn() {
    const r = await adminLogin(t.engine, { username: manager.username, password: manager.password }, IP, false);
    if (!r.ok) throw new Error(r.error);
    return cookieFrom(r.setCookie);
  }

  it('names the shop manager on later requests', async () => {
    const cookie = await loggedIn();
    const s = await readAdminSession(t.engine, `other=1; ${cookie}`, IP, false);
    expect(s.viewer?.id).toBe(manager.userId);
    expect(s.setCookie).toBeNull();
  });

  it('has nothing for a request without the cookie, and clears a malformed one', async () => {
    expect(await readAdminSession(t.engine, null, IP, false)).toEqual({
      viewer: null,
      reason: 'none',
      setCookie: null,
    });
    const bad = await readAdminSession(t.engine, 'meshfront_admin=garbage', IP, false);
    expect(bad).toMatchObject({ viewer: null, reason: 'ended' });
    expect(bad.setCookie).toContain('Max-Age=0');
  });

  it('renews a refused auth token with the refresh token once, even for parallel requests', async () => {
    const cookie = await loggedIn();
    const tokens = readSessionCookie(cookie)!;
    // A token the auth service refuses (as an expired one would be): the signature no longer matches.
    const broken = `meshfront_admin=${tokens.authToken.slice(0, -4)}AAAA~${tokens.refreshToken}`;
    const [a, b] = await Promise.all([
      readAdminSession(t.engine, broken, IP, false),
      readAdminSession(t.engine, broken, IP, false),
    ]);
    expect(a.viewer?.id).toBe(manager.userId);
    expect(b.viewer?.id).toBe(manager.userId);
    expect(a.setCookie).toBeTruthy();
    expect(a.setCookie).toBe(b.setCookie);
    const renewed = cookieFrom(a.setCookie!);
    expect(readSessionCookie(renewed)!.refreshToken).not.toBe(tokens.refreshToken);
    // The shared renewal did not look like a stolen token: the new pair works.
    const again = await readAdminSession(t.engine, renewed, IP, false);
    expect(again.viewer?.id).toBe(manager.userId);
  });

  it('ends with logout', async () => {
    const cookie = await loggedIn();
    const cleared = await adminLogout(t.engine, cookie, IP, false);
    expect(cleared).toContain('Max-Age=0');
    expect(await readAdminSession(t.engine, cookie, IP, false)).toMatchObject({ viewer: null, reason: 'ended' });
  });

  it('ends at once when the account stops being a shop manager', async () => {
    const cookie = await loggedIn();
    const roles = adminServiceFor(t.engine).roles;
    await roles.setRole(manager.userId, 'customer');
    try {
      expect(await readAdminSession(t.engine, cookie, IP, false)).toMatchObject({
        viewer: null,
        reason: 'not-manager',
      });
    } finally {
      await roles.setRole(manager.userId, 'shop_manager');
    }
  });
});

describe('admin calls from the pages', () => {
  it("run the admin UI's operations with the operator's token", async () => {
    const call = adminCaller(yoga, manager.authToken, IP);
    const { adminDashboard } = await call('adminDashboard');
    expect(adminDashboard.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const { adminProducts } = await call('adminProducts', { first: 2 });
    expect(adminProducts.nodes).toHaveLength(2);
  });

  it("are refused for a customer's token by the endpoint's own role check", async () => {
    const call = adminCaller(yoga, customer.authToken, IP);
    const err = await call('adminDashboard').catch((e) => e);
    expect(err).toBeInstanceOf(AdminCallError);
    expect(err.code).toBe('FORBIDDEN');
    expect(err.sessionEnded).toBe(true);
  });

  it('report refusals with the operator-facing message', async () => {
    const call = adminCaller(yoga, manager.authToken, IP);
    const err = await call('adminUpdateOrderStatus', { input: { orderId: 999999, status: 'COMPLETED' } }).catch(
      (e) => e,
    );
    expect(err).toBeInstanceOf(AdminCallError);
    expect(err.message).toBe('There is no order 999999.');
    expect(err.code).toBe('NOT_FOUND');
  });
});
