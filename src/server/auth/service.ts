/**
 * The auth service: password login and registration, auth tokens with rotating refresh tokens, logout,
 * password reset by e-mail, password change, the request's Bearer token and the hand-over of the guest
 * session to the logged-in customer (as WooGraphQL hands it over). Refusals are AccountErrors with the customer-facing
 * message; login, registration and reset are rate-limited per IP and per account in the database
 * (password checks per account only per address, see guardPasswordCheck, so nobody can lock others out).
 */
import crypto from 'node:crypto';
import { and, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { readCart } from '../cart/model.ts';
import type { Database } from '../db/connection.ts';
import type { MailQueue } from '../mail/index.ts';
import { emailVerification, passwordReset } from '../mail/index.ts';
import type { RateLimiter } from '../rate-limit/index.ts';
import type { SessionService, SessionState } from '../session/service.ts';
import { AccountError, type CustomerRow, type CustomerService } from '../customers/service.ts';
import { dummyVerify, hashPassword, needsRehash, passwordProblem, verifyPassword } from './passwords.ts';
import type { AuthSettings } from './settings.ts';
import { authSessions, emailVerificationKeys, oauthStateUses, passwordResetKeys } from './tables.ts';
import { signAccessToken, verifyAccessToken } from './tokens.ts';
import { storedLocale as accountLocale, storefrontPrefix } from '../i18n/stored-locale.ts';
import type { LocaleCode } from '../../lib/i18n/locales.ts';

export const UNKNOWN_USERNAME = 'No account found with that username. Sign up for a new account.';
export const WRONG_PASSWORD = 'Incorrect password. Please try again.';
export const INVALID_RESET_LINK = 'Password reset link is invalid.';
export const INVALID_VERIFICATION_LINK = 'This confirmation link is invalid or has expired.';
export const MAIL_NOT_SENT = 'The e-mail could not be sent. Please try again later.';
export const CURRENT_PASSWORD_WRONG = 'Your current password is incorrect.';
export const NO_PASSWORD_YET =
  'Your account does not have a password yet. Set one with “Forgot your password?” first, then try again.';

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
  return new AccountError(
    `Too many attempts. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`,
    'RATE_LIMITED',
  );
}

export class AuthService {
  constructor(
    private readonly db: Database,
    private readonly customers: CustomerService,
    private readonly sessions: SessionService,
    private readonly limiter: RateLimiter,
    readonly settings: AuthSettings,
    private readonly mail: MailQueue,
  ) {}

  /** Counts one attempt in `bucket` for `key`; throws the rate-limit error when over `limit` per `windowSeconds`. */
  async limit(bucket: string, key: string, limit: number, windowSeconds: number): Promise<void> {
    const r = await this.limiter.consume({ bucket, key, limit, windowSeconds });
    if (!r.allowed) throw tooManyAttempts(r.retryAfterSeconds);
  }

  /**
   * Like `limit`, for limits that count failures only: the attempt is counted up front, so parallel
   * attempts cannot all slip under the limit, and the returned function takes it back once the attempt
   * turned out not to be a failure (it succeeded, or was refused for a reason that guesses nothing).
   */
  async limitFailures(bucket: string, key: string, limit: number, windowSeconds: number): Promise<() => Promise<void>> {
    await this.limit(bucket, key, limit, windowSeconds);
    return () => this.limiter.release(bucket, key);
  }

  /**
   * Guards one password check of `account` (`user:<id>`, or `name:<login>` for a name without an
   * account) from `clientIp`, with failures counted over 15 minutes:
   *  - per address, across accounts: at most loginPerIp failures;
   *  - per account and address: at most loginPerAccount failures; a success starts it over;
   *  - per account, across addresses, only a slow-down: once the account has loginSlowdownAfter recent
   *    failures, an address that has itself failed on it waits between tries (longer the more failures,
   *    capped). An address without failures on the account never waits, so an attack from many
   *    addresses cannot lock the owner (or a shop manager) out of their own login.
   * Call `failed` or `succeeded` with the outcome.
   */
  private async guardPasswordCheck(
    account: string,
    clientIp: string,
  ): Promise<{ failed(): Promise<void>; succeeded(): Promise<void> }> {
    const limits = this.settings.limits;
    const pairKey = `${account}|${clientIp}`;
    const pair = await this.limiter.peek('login:pair', pairKey, 900);
    if (pair.secondsSinceLast !== null) {
      const onAccount = await this.limiter.peek('login:failures', account, 900);
      if (onAccount.count >= limits.loginSlowdownAfter) {
        const doublings = Math.floor((onAccount.count - limits.loginSlowdownAfter) / limits.loginSlowdownAfter);
        const wait = Math.min(
          limits.loginSlowdownMaxSeconds,
          limits.loginSlowdownSeconds * 2 ** Math.min(doublings, 20),
        );
        if (pair.secondsSinceLast < wait) throw tooManyAttempts(wait - pair.secondsSinceLast);
      }
    }
    const forgiveIp = await this.limitFailures('login:ip', clientIp, limits.loginPerIp, 900);
    try {
      await this.limit('login:pair', pairKey, limits.loginPerAccount, 900);
    } catch (err) {
      await forgiveIp();
      throw err;
    }
    return {
      failed: () => this.limiter.record('login:failures', account, 900),
      succeeded: async () => {
        await this.limiter.reset('login:pair', pairKey);
        await forgiveIp();
      },
    };
  }

  /**
   * Whether `password` is `user`'s, checked under the same limits as a login from `clientIp` (throws the
   * rate-limit error instead of checking when over them). For every check of a known account's password
   * outside `login`, so none of them is a way around the login limits.
   */
  async passwordMatches(user: CustomerRow, password: string, clientIp: string): Promise<boolean> {
    const guard = await this.guardPasswordCheck(`user:${user.id}`, clientIp);
    const ok = await verifyPassword(password.slice(0, 1024), user.passwordHash, this.settings.scryptLog2N);
    await (ok ? guard.succeeded() : guard.failed());
    return ok;
  }

  /**
   * The current password, for changes that need it (password, e-mail address): checked and limited like
   * a login from `clientIp`, so a stolen auth token cannot be used to guess it.
   */
  async checkCurrentPassword(
    user: CustomerRow,
    currentPassword: string | null | undefined,
    clientIp: string,
    missing = 'Please enter your current password.',
  ): Promise<void> {
    if (!user.passwordHash) throw new AccountError(NO_PASSWORD_YET);
    if (!currentPassword) throw new AccountError(missing);
    if (!(await this.passwordMatches(user, currentPassword, clientIp))) throw new AccountError(CURRENT_PASSWORD_WRONG);
  }

  // ---------- tokens ----------

  async accessToken(user: CustomerRow, sid: string): Promise<{ authToken: string; authTokenExpiration: string }> {
    const { token, exp } = await signAccessToken(
      this.settings.keys.access,
      this.settings.issuer,
      { userId: user.id, version: user.tokenVersion, sid },
      this.settings.authTokenTtlSeconds,
    );
    return { authToken: token, authTokenExpiration: String(exp) };
  }

  private lastPurge = 0;

  /**
   * Deletes logins whose refresh token expired or that were revoked more than a day ago, reset keys that
   * expired or were used, expired e-mail verification keys and used login-provider tokens past their
   * expiry; returns how many rows went. Runs at most hourly per process from logins, and in the retention
   * sweep.
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
    const c = await this.db
      .delete(emailVerificationKeys)
      .where(sql`${emailVerificationKeys.expiresAt} < now()`)
      .returning({ k: emailVerificationKeys.keyHash });
    const d = await this.db
      .delete(oauthStateUses)
      .where(sql`${oauthStateUses.expiresAt} < now()`)
      .returning({ h: oauthStateUses.stateHash });
    return a.length + b.length + c.length + d.length;
  }

  /** A new login (auth session) for `user`: an auth token and a refresh token. */
  async issueTokens(user: CustomerRow): Promise<LoginTokens> {
    if (Date.now() - this.lastPurge > 3_600_000) {
      // Housekeeping must never fail a login.
      await this.purgeExpired().catch((err) =>
        console.warn(`[meshfront] auth clean-up failed: ${(err as Error).message}`),
      );
    }
    const sid = randomToken();
    const refreshToken = randomToken();
    const refreshExpires = new Date(Date.now() + this.settings.refreshTokenTtlSeconds * 1000);
    await this.db
      .insert(authSessions)
      .values({ id: sid, userId: user.id, refreshHash: sha256(refreshToken), refreshExpiresAt: refreshExpires });
    const access = await this.accessToken(user, sid);
    return {
      ...access,
      refreshToken,
      refreshTokenExpiration: String(Math.floor(refreshExpires.getTime() / 1000)),
      sid,
    };
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
      .set({
        refreshHash: sha256(next),
        previousHash: oldHash,
        refreshExpiresAt: refreshExpires,
        lastUsedAt: new Date(),
      })
      .where(
        and(
          eq(authSessions.refreshHash, oldHash),
          isNull(authSessions.revokedAt),
          gt(authSessions.refreshExpiresAt, sql`now()`),
        ),
      )
      .returning({ id: authSessions.id, userId: authSessions.userId });
    if (!row) {
      await this.db
        .update(authSessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(authSessions.previousHash, oldHash), isNull(authSessions.revokedAt)));
      return null;
    }
    const user = await this.customers.get(row.userId);
    if (!user) return null;
    const access = await this.accessToken(user, row.id);
    return {
      ...access,
      refreshToken: next,
      refreshTokenExpiration: String(Math.floor(refreshExpires.getTime() / 1000)),
      sid: row.id,
      user,
    };
  }

  /** Ends one login: its refresh token stops working and its auth tokens are refused from now on. */
  async revokeSession(sid: string): Promise<boolean> {
    const rows = await this.db
      .update(authSessions)
      .set({ revokedAt: new Date() })
      .where(and(eq(authSessions.id, sid), isNull(authSessions.revokedAt)))
      .returning({ id: authSessions.id });
    return rows.length > 0;
  }

  /** Ends the login a refresh token belongs to (logout with an expired auth token). */
  async revokeByRefreshToken(presented: string, userId?: number): Promise<boolean> {
    const where = [eq(authSessions.refreshHash, sha256(presented)), isNull(authSessions.revokedAt)];
    if (userId) where.push(eq(authSessions.userId, userId));
    const rows = await this.db
      .update(authSessions)
      .set({ revokedAt: new Date() })
      .where(and(...where))
      .returning({ id: authSessions.id });
    return rows.length > 0;
  }

  /** Log out everywhere: every login ends and every auth token issued so far is refused. */
  async revokeAll(userId: number, exceptSid: string | null = null): Promise<void> {
    const where = [eq(authSessions.userId, userId), isNull(authSessions.revokedAt)];
    if (exceptSid) where.push(ne(authSessions.id, exceptSid));
    await this.db
      .update(authSessions)
      .set({ revokedAt: new Date() })
      .where(and(...where));
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
    // The customer through its owner's service, the login session from this domain's table; both asked at once.
    const [user, [session]] = await Promise.all([
      this.customers.get(claims.userId),
      this.db
        .select({ revokedAt: authSessions.revokedAt, userId: authSessions.userId })
        .from(authSessions)
        .where(eq(authSessions.id, claims.sid)),
    ]);
    if (!user) return anonymous('The user could not be found');
    if (user.tokenVersion !== claims.version || session?.userId !== claims.userId || session.revokedAt) {
      return anonymous('The User Secret does not match or has been revoked for this user');
    }
    return { viewer: user, sid: claims.sid, error: null, clientIp };
  }

  // ---------- password login and registration ----------

  async login(loginName: string, password: string, clientIp: string): Promise<CustomerRow> {
    const login = (loginName ?? '').trim();
    if (!login || !password) throw new AccountError('Missing username or password.');
    const user = login.length <= 254 ? await this.customers.findByLogin(login) : null;
    // Per account: the account when it exists (username and e-mail share one budget), else the name tried.
    const guard = await this.guardPasswordCheck(
      user ? `user:${user.id}` : `name:${login.toLowerCase().slice(0, 254)}`,
      clientIp,
    );
    if (!user) {
      await dummyVerify(password.slice(0, 1024), this.settings.scryptLog2N);
      await guard.failed();
      throw new AccountError(UNKNOWN_USERNAME);
    }
    if (!(await verifyPassword(password.slice(0, 1024), user.passwordHash, this.settings.scryptLog2N))) {
      await guard.failed();
      throw new AccountError(WRONG_PASSWORD);
    }
    await guard.succeeded();
    if (needsRehash(user.passwordHash!, this.settings.scryptLog2N)) {
      await this.customers.setPasswordHash(user.id, await hashPassword(password, this.settings.scryptLog2N), {
        revokeTokens: false,
      });
    }
    return user;
  }

  async register(
    input: {
      email?: string | null;
      username?: string | null;
      password?: string | null;
      firstName?: string | null;
      lastName?: string | null;
      /** The language the account is made in: its verification mail is written in it. */
      locale?: LocaleCode;
    },
    clientIp: string,
  ): Promise<CustomerRow> {
    const email = (input.email ?? '').trim();
    if (!email) throw new AccountError('Please provide a valid email address.');
    if (!input.password)
      throw new AccountError(
        'A password was not provided and WooCommerce does not automatically generate one for you.',
      );
    await this.limit('register:ip', clientIp, this.settings.limits.registerPerIp, 3600);
    await this.limit('register:account', email.toLowerCase(), 5, 3600);
    const problem = passwordProblem(input.password, { username: input.username ?? undefined, email });
    if (problem) throw new AccountError(problem);
    const user = await this.customers.create({
      email,
      username: input.username,
      firstName: input.firstName,
      lastName: input.lastName,
      passwordHash: await hashPassword(input.password, this.settings.scryptLog2N),
      locale: input.locale,
    });
    // Anyone can register any address: until its owner confirms it, no login provider is linked to
    // this account by that address (./oauth.ts).
    await this.sendEmailVerification(user);
    return user;
  }

  /** updateUser with a new password: the current one must be given and right; other logins end. */
  async changePassword(
    user: CustomerRow,
    sid: string | null,
    currentPassword: string | null | undefined,
    next: string,
    clientIp: string,
  ): Promise<void> {
    await this.checkCurrentPassword(user, currentPassword, clientIp);
    const problem = passwordProblem(next, { username: user.username, email: user.email });
    if (problem) throw new AccountError(problem);
    await this.customers.setPasswordHash(user.id, await hashPassword(next, this.settings.scryptLog2N), {
      revokeTokens: false,
    });
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
    const perAccount = await this.limiter.consume({
      bucket: 'reset:account',
      key: `user:${user.id}`,
      limit: this.settings.limits.resetPerAccount,
      windowSeconds: 3600,
    });
    if (!perAccount.allowed) return;
    const key = randomToken();
    const keyHash = sha256(key);
    const resetUrl = `${this.settings.siteUrl}${storefrontPrefix(accountLocale(user))}/my-account/lost-password?key=${encodeURIComponent(key)}&login=${encodeURIComponent(user.username)}`;
    // The key and its mail commit together; the mail queue sends it and retries (an error only for
    // existing accounts would tell which ones exist, so a failed delivery is only logged there).
    const mailId = await this.db.transaction(async (tx) => {
      // Only the newest link works (and only its mail is still sent).
      await tx.delete(passwordResetKeys).where(eq(passwordResetKeys.userId, user.id));
      await tx.insert(passwordResetKeys).values({
        keyHash,
        userId: user.id,
        expiresAt: new Date(Date.now() + this.settings.resetTtlMinutes * 60_000),
      });
      return this.mail.enqueue(tx, {
        kind: 'password-reset',
        event: keyHash.slice(0, 22),
        topic: `password-reset:${user.id}`,
        to: user.email,
        ...passwordReset({
          resetUrl,
          customerName: user.firstName || user.username,
          validForMinutes: this.settings.resetTtlMinutes,
          locale: accountLocale(user),
        }),
      });
    });
    await this.mail.deliver([mailId]);
  }

  /** Sets a new password with a reset key (single use, unexpired, for that login); every login ends. */
  async resetPassword(
    key: string | null | undefined,
    loginName: string | null | undefined,
    password: string | null | undefined,
    clientIp: string,
  ): Promise<CustomerRow> {
    if (!key) throw new AccountError('A password reset key is required.');
    if (!loginName) throw new AccountError('A user login is required.');
    if (!password) throw new AccountError('A new password is required.');
    // Only wrong keys or logins (guesses) count against the address, in their own bucket: a weak
    // password tried again, or reset e-mails asked for, must not lock the customer out of their link.
    const notAGuess = await this.limitFailures('reset-key:ip', clientIp, this.settings.limits.resetPerIp, 3600);
    const user = loginName.length <= 254 && key.length <= 200 ? await this.customers.findByLogin(loginName) : null;
    if (!user) throw new AccountError(INVALID_RESET_LINK);
    // Checked before the key is used, so a refused password does not burn the link.
    const problem = passwordProblem(password, { username: user.username, email: user.email });
    if (problem) {
      await notAGuess();
      throw new AccountError(problem);
    }
    const hash = await hashPassword(password, this.settings.scryptLog2N);
    const done = await this.db.transaction(async (tx) => {
      const used = await tx
        .update(passwordResetKeys)
        .set({ usedAt: new Date() })
        .where(
          and(
            eq(passwordResetKeys.keyHash, sha256(key)),
            eq(passwordResetKeys.userId, user.id),
            isNull(passwordResetKeys.usedAt),
            gt(passwordResetKeys.expiresAt, sql`now()`),
          ),
        )
        .returning({ userId: passwordResetKeys.userId });
      if (!used.length) return false;
      await this.customers.setPasswordHash(user.id, hash, { revokeTokens: true }, tx);
      // The link was mailed to the account's address and opened: its owner holds the account now.
      await this.customers.markEmailVerified(user.id, user.email, tx);
      await tx
        .update(authSessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(authSessions.userId, user.id), isNull(authSessions.revokedAt)));
      return true;
    });
    if (!done) throw new AccountError(INVALID_RESET_LINK);
    await notAGuess();
    return (await this.customers.get(user.id))!;
  }

  // ---------- e-mail verification ----------

  /**
   * Mails the link that confirms the account's address: on registration (account page and checkout)
   * and when the customer asks again. The key is random and stored hashed, like a password-reset key: a
   * single-use link needs a stored record anyway, so a signed token would save nothing, and a copy of
   * the database yields no working link. Only the newest link works; it names no account (the customer
   * must be logged in to use it, see verifyEmail).
   *
   * `requested` (the customer pressed "send again"): over the per-account limit or a mail that did not go
   * out on its first attempt is reported; otherwise both are only logged, since the account exists either
   * way. The key and its mail are written in one transaction; the mail queue sends the mail and retries.
   */
  async sendEmailVerification(user: CustomerRow, options: { requested?: boolean } = {}): Promise<void> {
    if (user.emailVerifiedAt) return;
    const perAccount = await this.limiter.consume({
      bucket: 'verify:account',
      key: `user:${user.id}`,
      limit: this.settings.limits.resetPerAccount,
      windowSeconds: 3600,
    });
    if (!perAccount.allowed) {
      if (options.requested) throw tooManyAttempts(perAccount.retryAfterSeconds);
      return;
    }
    const key = randomToken();
    const keyHash = sha256(key);
    const verifyUrl = `${this.settings.siteUrl}${storefrontPrefix(accountLocale(user))}/my-account/verify-email?key=${encodeURIComponent(key)}`;
    const mailId = await this.db.transaction(async (tx) => {
      // This customer's older key, and anybody's expired ones.
      await tx
        .delete(emailVerificationKeys)
        .where(sql`${emailVerificationKeys.userId} = ${user.id} or ${emailVerificationKeys.expiresAt} < now()`);
      await tx.insert(emailVerificationKeys).values({
        keyHash,
        userId: user.id,
        email: user.email.toLowerCase(),
        expiresAt: new Date(Date.now() + this.settings.verifyTtlMinutes * 60_000),
      });
      return this.mail.enqueue(tx, {
        kind: 'email-verification',
        event: keyHash.slice(0, 22),
        topic: `email-verification:${user.id}`,
        to: user.email,
        ...emailVerification({
          verifyUrl,
          customerName: user.firstName || user.username,
          validForMinutes: this.settings.verifyTtlMinutes,
          locale: accountLocale(user),
        }),
      });
    });
    const outcome = mailId === null ? 'failed' : (await this.mail.deliver([mailId])).get(mailId);
    // Asked for: the customer hears that it did not go out now (the queue still tries; asking again
    // replaces it). On registration the account exists either way.
    if (outcome === 'failed' || (outcome === 'queued' && options.requested)) {
      console.error(`[meshfront] the e-mail verification for user ${user.id} did not go out on its first attempt`);
      if (options.requested) throw new AccountError(MAIL_NOT_SENT);
    }
  }

  /**
   * Confirms the logged-in customer's address with a key from sendEmailVerification: the key must be
   * this customer's (single use, unexpired) and the account must still have the address it was sent
   * to. Requiring the login means that whoever opens a mail for an account somebody else created with
   * their address cannot confirm it: confirming takes both the account's password and the mailbox.
   */
  async verifyEmail(user: CustomerRow, key: string | null | undefined): Promise<CustomerRow> {
    if (!key || key.length > 200) throw new AccountError(INVALID_VERIFICATION_LINK);
    const verified = await this.db.transaction(async (tx) => {
      // Deleted whether or not it still works: a used or expired key is of no further use.
      const [row] = await tx
        .delete(emailVerificationKeys)
        .where(and(eq(emailVerificationKeys.keyHash, sha256(key)), eq(emailVerificationKeys.userId, user.id)))
        .returning();
      if (!row || row.expiresAt.getTime() <= Date.now()) return false;
      return this.customers.markEmailVerified(user.id, row.email, tx);
    });
    if (!verified) throw new AccountError(INVALID_VERIFICATION_LINK);
    return (await this.customers.get(user.id))!;
  }

  // ---------- the woocommerce session ----------

  /**
   * Re-keys the request's session to the customer (WooGraphQL's keep_new_fallback_old): a guest cart
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
