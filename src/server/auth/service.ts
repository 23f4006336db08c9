/**
 * The auth service: password login and registration, auth tokens with rotating refresh tokens, logout,
 * password reset by e-mail, password change, the request's Bearer token and the hand-over of the guest
 * session to the logged-in customer (contract §1.5). Refusals are AccountErrors with the customer-facing
 * message; login, registration and reset are rate-limited per IP and per account in the database.
 */
import crypto from 'node:crypto';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { readCart } from '../cart/model.ts';
import type { Database } from '../db/connection.ts';
import type { Mailer } from '../mail/index.ts';
import { passwordReset } from '../mail/index.ts';
import type { RateLimiter } from '../rate-limit/index.ts';
import type { SessionService, SessionState } from '../session/service.ts';
import { AccountError, type CustomerRow, type CustomerService } from '../customers/service.ts';
import { customers } from '../customers/tables.ts';
import { dummyVerify, hashPassword, needsRehash, passwordProblem, verifyPassword } from './passwords.ts';
import type { AuthSettings } from './settings.ts';
import { authSessions, passwordResetKeys } from './tables.ts';
import { signAccessToken, verifyAccessToken } from './tokens.ts';

export const UNKNOWN_USERNAME = 'No account found with that username. Sign up for a new account.';
export const WRONG_PASSWORD = 'Incorrect password. Please try again.';
export const INVALID_RESET_LINK = 'Password reset link is invalid.';

export type LoginTokens = {
  authToken: string;
  authTokenExpiration: string;
  refreshToken: string;
  refreshTokenExpiration: string;
  sid: string;
};

/** Who the request is: the Bearer token's customer, or nobody (with the token's error when it was refused). */
export type RequestAuth = { viewer: CustomerRow | null; sid: string | null; error: string | null; clientIp: string };

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('base64url');
const randomToken = () => crypto.randomBytes(32).toString('base64url');

export function tooManyAttempts(retryAfterSeconds: number): AccountError {
  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
  return new AccountError(`Too many attempts. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`, 'RATE_LIMITED');
}

export class AuthService {
  constructor(
    private readonly db: Database,
    private readonly customers: CustomerService,
    private readonly sessions: SessionService,
    private readonly limiter: RateLimiter,
    readonly settings: AuthSettings,
    private readonly mailer: () => Mailer,
  ) {}

  /** Counts one attempt in `bucket` for `key`; throws the rate-limit error when over `limit` per `windowSeconds`. */
  async limit(bucket: string, key: string, limit: number, windowSeconds: number): Promise<void> {
    const r = await this.limiter.consume({ bucket, key, limit, windowSeconds });
    if (!r.allowed) throw tooManyAttempts(r.retryAfterSeconds);
  }

  // ---------- tokens ----------

  async accessToken(user: CustomerRow, sid: string): Promise<{ authToken: string; authTokenExpiration: string }> {
    const { token, exp } = await signAccessToken(this.settings.keys.access, this.settings.issuer, { userId: user.id, version: user.tokenVersion, sid }, this.settings.authTokenTtlSeconds);
    return { authToken: token, authTokenExpiration: String(exp) };
  }

  private lastPurge = 0;

  /**
   * Deletes logins whose refresh token expired or that were revoked more than a day ago, and reset keys
   * that expired or were used; returns how many rows went. Runs at most hourly per process from logins.
   */
  async purgeExpired(): Promise<number> {
    this.lastPurge = Date.now();
    const a = await this.db
      .delete(authSessions)
      .where(sql`${authSessions.refreshExpiresAt} < now() or ${authSessions.revokedAt} < now() - interval '1 day'`)
      .returning({ id: authSessions.id });
    const b = await this.db
      .delete(passwordResetKeys)
      .where(sql`${passwordResetKeys.expiresAt} < now() or ${passwordResetKeys.usedAt} is not null`)
      .returning({ k: passwordResetKeys.keyHash });
    return a.length + b.length;
  }

  /** A new login (auth session) for `user`: an auth token and a refresh token. */
  async issueTokens(user: CustomerRow): Promise<LoginTokens> {
    if (Date.now() - this.lastPurge > 3_600_000) {
      // Housekeeping must never fail a login.
      await this.purgeExpired().catch((err) => console.warn(`[meshfront] auth clean-up failed: ${(err as Error).message}`));
    }
    const sid = randomToken();
    const refreshToken = randomToken();
    const refreshExpires = new Date(Date.now() + this.settings.refreshTokenTtlSeconds * 1000);
    await this.db.insert(authSessions).values({ id: sid, userId: user.id, refreshHash: sha256(refreshToken), refreshExpiresAt: refreshExpires });
    const access = await this.accessToken(user, sid);
    return { ...access, refreshToken, refreshTokenExpiration: String(Math.floor(refreshExpires.getTime() / 1000)), sid };
  }

  /**
   * Rotates a refresh token: the presented one stops working and a new one is returned with a new auth
   * token. A token that was already rotated away is a stolen copy (or a replay): its login is revoked.
   * Null for anything not valid (Headless Login answers `success: false`, never an error).
   */
  async refresh(presented: string): Promise<(LoginTokens & { user: CustomerRow }) | null> {
    if (!presented || presented.length > 200) return null;
    const oldHash = sha256(presented);
    const next = randomToken();
    const refreshExpires = new Date(Date.now() + this.settings.refreshTokenTtlSeconds * 1000);
    const [row] = await this.db
      .update(authSessions)
      .set({ refreshHash: sha256(next), previousHash: oldHash, refreshExpiresAt: refreshExpires, lastUsedAt: new Date() })
      .where(and(eq(authSessions.refreshHash, oldHash), isNull(authSessions.revokedAt), gt(authSessions.refreshExpiresAt, sql`now()`)))
      .returning({ id: authSessions.id, userId: authSessions.userId });
    if (!row) {
      await this.db.update(authSessions).set({ revokedAt: new Date() }).where(and(eq(authSessions.previousHash, oldHash), isNull(authSessions.revokedAt)));
      return null;
    }
    const user = await this.customers.get(row.userId);
    if (!user) return null;
    const access = await this.accessToken(user, row.id);
    return { ...access, refreshToken: next, refreshTokenExpiration: String(Math.floor(refreshExpires.getTime() / 1000)), sid: row.id, user };
  }

  /** Ends one login: its refresh token stops working and its auth tokens are refused from now on. */
  async revokeSession(sid: string): Promise<boolean> {
    const rows = await this.db.update(authSessions).set({ revokedAt: new Date() }).where(and(eq(authSessions.id, sid), isNull(authSessions.revokedAt))).returning({ id: authSessions.id });
    return rows.length > 0;
  }

  /** Ends the login a refresh token belongs to (logout with an expired auth token). */
  async revokeByRefreshToken(presented: string, userId?: number): Promise<boolean> {
    const where = [eq(authSessions.refreshHash, sha256(presented)), isNull(authSessions.revokedAt)];
    if (userId) where.push(eq(authSessions.userId, userId));
    const rows = await this.db.update(authSessions).set({ revokedAt: new Date() }).where(and(...where)).returning({ id: authSessions.id });
    return rows.length > 0;
  }

  /** Log out everywhere: every login ends and every auth token issued so far is refused. */
  async revokeAll(userId: number, exceptSid: string | null = null): Promise<void> {
    const where = [eq(authSessions.userId, userId), isNull(authSessions.revokedAt)];
    if (exceptSid) where.push(ne(authSessions.id, exceptSid));
    await this.db.update(authSessions).set({ revokedAt: new Date() }).where(and(...where));
    if (!exceptSid) await this.customers.bumpTokenVersion(userId);
  }

  /** The customer an `Authorization: Bearer …` header names (null header → anonymous, no error). */
  async authenticate(header: string | null, clientIp: string): Promise<RequestAuth> {
    const anonymous = (error: string | null): RequestAuth => ({ viewer: null, sid: null, error, clientIp });
    if (!header) return anonymous(null);
    const m = /^Bearer\s+(\S+)$/i.exec(header.trim());
    if (!m) return anonymous(null); // another scheme (Basic …) is not ours to judge
    const claims = await verifyAccessToken(this.settings.keys.access, this.settings.issuer, m[1]!);
    if ('error' in claims) return anonymous(claims.error);
    const [row] = await this.db
      .select({ user: customers, revokedAt: authSessions.revokedAt, sessionUser: authSessions.userId })
      .from(customers)
      .leftJoin(authSessions, eq(authSessions.id, claims.sid))
      .where(eq(customers.id, claims.userId));
    if (!row) return anonymous('The user could not be found');
    if (row.user.tokenVersion !== claims.version || row.sessionUser !== claims.userId || row.revokedAt) {
      return anonymous('The User Secret does not match or has been revoked for this user');
    }
    return { viewer: row.user, sid: claims.sid, error: null, clientIp };
  }

  // ---------- password login and registration ----------

  async login(loginName: string, password: string, clientIp: string): Promise<CustomerRow> {
    const login = (loginName ?? '').trim();
    if (!login || !password) throw new AccountError('Missing username or password.');
    const { loginPerIp, loginPerAccount } = this.settings.limits;
    await this.limit('login:ip', clientIp, loginPerIp, 900);
    const user = login.length <= 254 ? await this.customers.findByLogin(login) : null;
    // Per account: the account when it exists (username and e-mail share one budget), else the name tried.
    await this.limit('login:account', user ? `user:${user.id}` : `name:${login.toLowerCase()}`, loginPerAccount, 900);
    if (!user) {
      await dummyVerify(password.slice(0, 1024), this.settings.scryptLog2N);
      throw new AccountError(UNKNOWN_USERNAME);
    }
    if (!(await verifyPassword(password.slice(0, 1024), user.passwordHash, this.settings.scryptLog2N))) throw new AccountError(WRONG_PASSWORD);
    await this.limiter.reset('login:account', `user:${user.id}`);
    if (needsRehash(user.passwordHash!, this.settings.scryptLog2N)) {
      await this.customers.setPasswordHash(user.id, await hashPassword(password, this.settings.scryptLog2N), { revokeTokens: false });
    }
    return user;
  }

  async register(
    input: { email?: string | null; username?: string | null; password?: string | null; firstName?: string | null; lastName?: string | null },
    clientIp: string,
  ): Promise<CustomerRow> {
    const email = (input.email ?? '').trim();
    if (!email) throw new AccountError('Please provide a valid email address.');
    if (!input.password) throw new AccountError('A password was not provided and WooCommerce does not automatically generate one for you.');
    await this.limit('register:ip', clientIp, this.settings.limits.registerPerIp, 3600);
    await this.limit('register:account', email.toLowerCase(), 5, 3600);
    const problem = passwordProblem(input.password, { username: input.username ?? undefined, email });
    if (problem) throw new AccountError(problem);
    return this.customers.create({
      email,
      username: input.username,
      firstName: input.firstName,
      lastName: input.lastName,
      passwordHash: await hashPassword(input.password, this.settings.scryptLog2N),
    });
  }

  /** updateUser with a new password: the current one must be given and right; other logins end. */
  async changePassword(user: CustomerRow, sid: string | null, currentPassword: string | null | undefined, next: string): Promise<void> {
    await this.limit('login:account', `user:${user.id}`, this.settings.limits.loginPerAccount, 900);
    if (!currentPassword) throw new AccountError('Please enter your current password.');
    if (!(await verifyPassword(currentPassword.slice(0, 1024), user.passwordHash, this.settings.scryptLog2N))) throw new AccountError('Your current password is incorrect.');
    const problem = passwordProblem(next, { username: user.username, email: user.email });
    if (problem) throw new AccountError(problem);
    await this.customers.setPasswordHash(user.id, await hashPassword(next, this.settings.scryptLog2N), { revokeTokens: false });
    await this.revokeAll(user.id, sid);
  }

  // ---------- password reset ----------

  /**
   * Always resolves (no account enumeration); mails a single-use link only when the account exists.
   * Per IP over the limit → the rate-limit error; per account over the limit → silently no mail.
   */
  async sendPasswordReset(loginName: string, clientIp: string): Promise<void> {
    const login = (loginName ?? '').trim();
    if (!login) throw new AccountError('Enter a username or email address.');
    await this.limit('reset:ip', clientIp, this.settings.limits.resetPerIp, 3600);
    const user = login.length <= 254 ? await this.customers.findByLogin(login) : null;
    if (!user) return;
    const perAccount = await this.limiter.consume({ bucket: 'reset:account', key: `user:${user.id}`, limit: this.settings.limits.resetPerAccount, windowSeconds: 3600 });
    if (!perAccount.allowed) return;
    const key = randomToken();
    await this.db.transaction(async (tx) => {
      // Only the newest link works.
      await tx.delete(passwordResetKeys).where(eq(passwordResetKeys.userId, user.id));
      await tx.insert(passwordResetKeys).values({ keyHash: sha256(key), userId: user.id, expiresAt: new Date(Date.now() + this.settings.resetTtlMinutes * 60_000) });
    });
    const resetUrl = `${this.settings.siteUrl}/my-account/lost-password?key=${encodeURIComponent(key)}&login=${encodeURIComponent(user.username)}`;
    try {
      await this.mailer().sendMail({
        to: user.email,
        ...passwordReset({ resetUrl, customerName: user.firstName || user.username, validForMinutes: this.settings.resetTtlMinutes }),
      });
    } catch (err) {
      // Logged, not reported: an error only for existing accounts would tell which ones exist.
      console.error(`[meshfront] could not send the password-reset e-mail for user ${user.id}:`, (err as Error).message);
    }
  }

  /** Sets a new password with a reset key (single use, unexpired, for that login); every login ends. */
  async resetPassword(key: string | null | undefined, loginName: string | null | undefined, password: string | null | undefined, clientIp: string): Promise<CustomerRow> {
    if (!key) throw new AccountError('A password reset key is required.');
    if (!loginName) throw new AccountError('A user login is required.');
    if (!password) throw new AccountError('A new password is required.');
    await this.limit('reset:ip', clientIp, this.settings.limits.resetPerIp, 3600);
    const user = loginName.length <= 254 && key.length <= 200 ? await this.customers.findByLogin(loginName) : null;
    if (!user) throw new AccountError(INVALID_RESET_LINK);
    // Checked before the key is used, so a refused password does not burn the link.
    const problem = passwordProblem(password, { username: user.username, email: user.email });
    if (problem) throw new AccountError(problem);
    const hash = await hashPassword(password, this.settings.scryptLog2N);
    const done = await this.db.transaction(async (tx) => {
      const used = await tx
        .update(passwordResetKeys)
        .set({ usedAt: new Date() })
        .where(and(eq(passwordResetKeys.keyHash, sha256(key)), eq(passwordResetKeys.userId, user.id), isNull(passwordResetKeys.usedAt), gt(passwordResetKeys.expiresAt, sql`now()`)))
        .returning({ userId: passwordResetKeys.userId });
      if (!used.length) return false;
      await this.customers.setPasswordHash(user.id, hash, { revokeTokens: true }, tx);
      await tx.update(authSessions).set({ revokedAt: new Date() }).where(and(eq(authSessions.userId, user.id), isNull(authSessions.revokedAt)));
      return true;
    });
    if (!done) throw new AccountError(INVALID_RESET_LINK);
    return (await this.customers.get(user.id))!;
  }

  // ---------- the woocommerce session ----------

  /**
   * Re-keys the request's session to the customer (contract §1.5, keep_new_fallback_old): a guest cart
   * with items replaces the customer's stored session; an empty guest session falls back to the stored
   * one. The guest row is deleted and a new token (user id) goes out.
   */
  async handOverSession(state: SessionState, userId: number): Promise<void> {
    const userKey = String(userId);
    if (state.customerId === userKey && !state.tokenError) return;
    const from = !state.tokenError && state.customerId.startsWith('t_') ? state.customerId : null;
    if (from) {
      await this.sessions.update(userKey, async (userData, tx) => {
        const guest = await this.sessions.load(from, tx);
        if (!Object.keys(guest).length) return { result: null };
        await this.sessions.destroy(from, tx);
        const cart = readCart(guest);
        const keepGuest = cart.items.length > 0 || !Object.keys(userData).length;
        return { data: keepGuest ? guest : undefined, result: null };
      });
    }
    state.customerId = userKey;
    state.tokenError = null;
    await this.sessions.reissue(state);
  }
}
