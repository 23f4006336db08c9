/**
 * External login providers (OpenID Connect or plain OAuth 2), configured by OAUTH_PROVIDERS (see
 * ./settings.ts), with openid-client.
 *
 * The engine issues the authorization URL's `state` and verifies it (WooGraphQL's Headless Login does
 * not): the state is signed (HMAC) and carries the provider, the woocommerce-session id it
 * was issued to and its expiry, so handing out login links in getCart writes nothing; the PKCE verifier
 * (S256) and the OIDC nonce are derived from the state with the server key, so only this engine can
 * complete the exchange. Using a state records it in `oauth_state_uses` (single use). A state from
 * another session, a forged, expired or already used one is refused before the code is exchanged.
 *
 * The customer is found by the linked identity (provider + subject), else by e-mail, else created from
 * a verified e-mail (no password: they may set one with a password reset; the address counts as
 * verified). An account found by e-mail is linked at once only when both the provider and this shop
 * verified that address. Otherwise anybody could register somebody else's address with a password of
 * their own and be handed that person's provider login later, with the addresses and orders it brings
 * (pre-registration takeover). Then nothing is linked and nobody is logged in: the answer is a pending
 * account link, and the shopper proves the account is theirs with its password (linkWithPassword) or
 * with a link mailed to the account's address (sendLinkEmail → linkFromEmail).
 *
 * A pending link is a signed token (HMAC, like the state) carrying the account, the provider identity,
 * the provider's e-mail and whether it was verified, the browser session it was issued to and its
 * expiry (the state's lifetime); the e-mailed key is another one of the same kind with the reset link's
 * lifetime. Both are bound to the session that completed the provider login, so only the browser that
 * proved the provider identity can complete the link: a mail opened in another browser does nothing,
 * and an account holder who opens a link they did not ask for links nobody's login to their account.
 * Using either records it in `oauth_state_uses` (single use).
 */
import crypto from 'node:crypto';
import { and, eq, isNull, lt, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import { z } from 'zod';
import type { Database, DbOrTx } from '../db/connection.ts';
import { type ServiceBreaker, serviceBreaker } from '../service-breaker.ts';
import { AccountError, type CustomerRow, type CustomerService } from '../customers/service.ts';
import { storedLocale, storefrontPrefix } from '../i18n/stored-locale.ts';
import { accountLink, type MailQueue } from '../mail/index.ts';
import { MAIL_NOT_SENT, WRONG_PASSWORD, type AuthService } from './service.ts';
import type { AuthSettings, OAuthProviderSettings } from './settings.ts';
import { authSessions, customerIdentities, oauthStateUses } from './tables.ts';

export type LoginClientInfo = {
  name: string;
  provider: string;
  isEnabled: boolean;
  authorizationUrl: string;
  clientId: string;
  order: number;
};
export type ProviderProfile = {
  subject: string;
  email: string | null;
  emailVerified: boolean;
  firstName: string;
  lastName: string;
};

/** A provider login that matched an account it may not be linked to yet: what the shopper is asked. */
export type PendingAccountLink = {
  /** Signed, single use, bound to the session: linkWithPassword or sendLinkEmail take it. */
  token: string;
  /** LoginProviderEnum value and the button's label. */
  provider: string;
  providerName: string;
  /** The account's address (the provider named it, so it tells the shopper nothing new). */
  email: string;
  /** Unix seconds. */
  expiresAt: number;
};

/** A completed provider login, or the account link it needs first. */
export type ProviderLogin =
  | { user: CustomerRow; pendingLink?: undefined }
  | { user?: undefined; pendingLink: PendingAccountLink };

/** What a pending link or an e-mailed link key carries (signed). */
type LinkClaims = {
  /** The account. */
  u: number;
  /** Provider slug and subject. */
  p: string;
  s: string;
  /** The provider's e-mail (lower case) and whether the provider verified it. */
  m: string;
  v: boolean;
  /** The woocommerce-session id that completed the provider login. */
  x: string;
  /** Expiry (unix seconds) and a nonce. */
  e: number;
  n: string;
};

export const ACCOUNT_LINK_EXPIRED =
  'This request to link your login has expired or was already used. Please log in with your provider again.';
export const ACCOUNT_LINK_OTHER_BROWSER = 'Please open this link in the browser where you started logging in.';
export const ACCOUNT_LINK_NO_PASSWORD = 'This account has no password. Ask for a link by e-mail instead.';
export const ACCOUNT_LINK_PASSWORD_MISSING = 'Please enter the password of your account.';

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

/**
 * OAUTH_TIMEOUT_MS: how long one request to a login provider may take (discovery, token, userinfo;
 * default 8000). openid-client's own default is 30 s, which a login page listing providers waited for.
 */
const oauthTimeoutSchema = z.coerce.number().int().min(1_000).max(60_000).default(8_000);
function oauthTimeoutMs(env: Record<string, string | undefined> = process.env): number {
  const parsed = oauthTimeoutSchema.safeParse(env.OAUTH_TIMEOUT_MS || undefined);
  if (!parsed.success)
    throw new Error(
      'Invalid login provider settings:\n  OAUTH_TIMEOUT_MS: must be a whole number of milliseconds, 1000 to 60000',
    );
  return parsed.data;
}

/** The provider is unreachable, too slow or failing (5xx, 429): what its breaker counts. */
function isProviderOutage(error: unknown): boolean {
  for (let e = error as { name?: unknown; status?: unknown; cause?: unknown } | null, i = 0; e && i < 5; i++) {
    if (e.name === 'TimeoutError' || e.name === 'AbortError') return true;
    if (e.name === 'TypeError' && /fetch failed/i.test(String((e as { message?: unknown }).message))) return true;
    if (typeof e.status === 'number' && (e.status >= 500 || e.status === 429)) return true;
    e = e.cause as typeof e;
  }
  return false;
}
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('base64url');

export class OAuthService {
  private configs = new Map<string, Promise<client.Configuration>>();
  private breakers = new Map<string, ServiceBreaker>();

  constructor(
    private readonly db: Database,
    private readonly settings: AuthSettings,
    private readonly customers: CustomerService,
    private readonly auth: AuthService,
    private readonly mail: MailQueue,
    private readonly log: (message: string) => void = (m) => console.warn(`[meshfront] ${m}`),
  ) {}

  get providers(): OAuthProviderSettings[] {
    return this.settings.providers;
  }

  /** The provider's breaker (service-breaker.ts): a provider that is down is not waited for by every login page. */
  private breaker(p: OAuthProviderSettings): ServiceBreaker {
    let b = this.breakers.get(p.slug);
    if (!b) {
      b = serviceBreaker(`the login provider ${p.slug}`, { isOutage: isProviderOutage, log: this.log });
      this.breakers.set(p.slug, b);
    }
    return b;
  }

  /** The provider's client configuration (OIDC discovery once per process, or the explicit endpoints). */
  private config(p: OAuthProviderSettings): Promise<client.Configuration> {
    let c = this.configs.get(p.slug);
    if (!c) {
      const insecure = (u: string | null) =>
        !!u && new URL(u).protocol === 'http:' && LOOPBACK.has(new URL(u).hostname);
      // openid-client counts in seconds; every later request of the configuration keeps this limit.
      const timeout = Math.max(1, Math.round(oauthTimeoutMs() / 1000));
      c = (async () => {
        if (p.issuer) {
          const issuer = p.issuer;
          // Plain http only for a provider on this machine (development and tests); https everywhere else.
          // Discovery is a GET: one more try after a network error is safe.
          const discover = () =>
            this.breaker(p).run(() =>
              client.discovery(new URL(issuer), p.clientId, p.clientSecret, undefined, {
                timeout,
                ...(insecure(issuer) ? { execute: [client.allowInsecureRequests] } : {}),
              }),
            );
          return discover().catch(async (err) => {
            if (!isProviderOutage(err)) throw err;
            await new Promise((resolve) => setTimeout(resolve, 500));
            return discover();
          });
        }
        const config = new client.Configuration(
          {
            issuer: new URL(p.authorizationUrl!).origin,
            authorization_endpoint: p.authorizationUrl!,
            token_endpoint: p.tokenUrl!,
            userinfo_endpoint: p.userinfoUrl!,
          },
          p.clientId,
          p.clientSecret,
        );
        if (insecure(p.authorizationUrl) && insecure(p.tokenUrl)) client.allowInsecureRequests(config);
        config.timeout = timeout;
        return config;
      })().catch((err) => {
        this.configs.delete(p.slug);
        throw err;
      });
      this.configs.set(p.slug, c);
    }
    return c;
  }

  // ---------- state ----------

  private mac(data: string): string {
    return crypto.createHmac('sha256', this.settings.keys.oauth).update(data).digest('base64url');
  }

  issueState(provider: string, sessionId: string, now = Date.now()): string {
    const payload = Buffer.from(
      JSON.stringify({
        p: provider,
        s: sessionId,
        e: Math.floor(now / 1000) + this.settings.oauthStateTtlSeconds,
        n: crypto.randomBytes(12).toString('base64url'),
      }),
    ).toString('base64url');
    return `${payload}.${this.mac(`state|${payload}`)}`;
  }

  /** PKCE verifier and OIDC nonce of a state: secret (server key), so a stolen state alone is useless. */
  private derived(state: string) {
    return { verifier: this.mac(`pkce|${state}`), nonce: this.mac(`nonce|${state}`) };
  }

  private checkState(
    p: OAuthProviderSettings,
    state: string | null | undefined,
    sessionId: string,
  ): 'ok' | 'mismatch' | 'expired' {
    const m = state ? /^([\w-]{1,600})\.([\w-]{43})$/.exec(state) : null;
    if (!m) return 'mismatch';
    const expected = Buffer.from(this.mac(`state|${m[1]}`));
    const given = Buffer.from(m[2]!);
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return 'mismatch';
    let claims: { p?: unknown; s?: unknown; e?: unknown };
    try {
      claims = JSON.parse(Buffer.from(m[1]!, 'base64url').toString('utf8'));
    } catch {
      return 'mismatch';
    }
    if (claims.p !== p.slug || claims.s !== sessionId || typeof claims.e !== 'number') return 'mismatch';
    if (claims.e * 1000 <= Date.now()) return 'expired';
    return 'ok';
  }

  // ---------- login clients ----------

  async authorizationUrl(p: OAuthProviderSettings, sessionId: string): Promise<string> {
    const config = await this.config(p);
    const state = this.issueState(p.slug, sessionId);
    const { verifier, nonce } = this.derived(state);
    const params: Record<string, string> = {
      redirect_uri: p.redirectUri,
      scope: p.scopes,
      state,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    };
    if (p.issuer) params.nonce = nonce;
    return client.buildAuthorizationUrl(config, params).href;
  }

  /** The enabled providers with a login link bound to this session; a provider that cannot be reached is left out. */
  async loginClients(sessionId: string): Promise<LoginClientInfo[]> {
    const out: LoginClientInfo[] = [];
    for (const p of this.providers) {
      try {
        out.push({
          name: p.label,
          provider: p.provider,
          isEnabled: true,
          authorizationUrl: await this.authorizationUrl(p, sessionId),
          clientId: p.clientId,
          order: p.order,
        });
      } catch (err) {
        this.log(`login provider ${p.slug} is unavailable: ${(err as Error).message}`);
      }
    }
    return out;
  }

  // ---------- login ----------

  private async profile(
    p: OAuthProviderSettings,
    config: client.Configuration,
    code: string,
    state: string,
  ): Promise<ProviderProfile> {
    const { verifier, nonce } = this.derived(state);
    const callback = new URL(p.redirectUri);
    callback.searchParams.set('code', code);
    callback.searchParams.set('state', state);
    // Not retried: an authorization code is single use.
    const tokens = await this.breaker(p).run(() =>
      client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: state,
        ...(p.issuer ? { expectedNonce: nonce, idTokenExpected: true } : {}),
      }),
    );
    const idClaims = p.issuer ? tokens.claims() : undefined;
    let info: Record<string, unknown> = { ...(idClaims ?? {}) };
    if (!idClaims?.email || !p.issuer) {
      const userinfoUrl = p.userinfoUrl ?? config.serverMetadata().userinfo_endpoint;
      if (userinfoUrl) {
        if (p.issuer && idClaims)
          info = {
            ...info,
            ...(await this.breaker(p).run(() => client.fetchUserInfo(config, tokens.access_token, idClaims.sub))),
          };
        else {
          const r = await this.breaker(p).run(() =>
            client.fetchProtectedResource(config, tokens.access_token, new URL(userinfoUrl), 'GET'),
          );
          if (!r.ok) throw new Error(`userinfo answered ${r.status}`);
          info = { ...info, ...((await r.json()) as Record<string, unknown>) };
        }
      }
    }
    const subject = String(idClaims?.sub ?? info.sub ?? info.id ?? '');
    if (!subject) throw new Error('the provider did not name the user (no sub/id)');
    const email = typeof info.email === 'string' ? info.email.trim().toLowerCase() : null;
    const name = typeof info.name === 'string' ? info.name.trim() : '';
    return {
      subject,
      email,
      emailVerified: info.email_verified === true || info.email_verified === 'true' || info.verified_email === true,
      firstName: typeof info.given_name === 'string' ? info.given_name : (name.split(' ')[0] ?? ''),
      lastName: typeof info.family_name === 'string' ? info.family_name : name.split(' ').slice(1).join(' '),
    };
  }

  /**
   * Completes a provider login: state check, code exchange (PKCE), then the linked, matched or new
   * customer, or the account link to ask for (see the top of this file).
   */
  async loginWithProvider(
    providerEnum: string,
    response: { code?: string | null; state?: string | null },
    sessionId: string,
    clientIp: string,
  ): Promise<ProviderLogin> {
    const p = this.providers.find((x) => x.provider === providerEnum);
    if (!p) throw new AccountError(`Provider ${providerEnum.toLowerCase()} is not enabled.`);
    // The per-address login budget counts failures: a provider login that goes through gives its slot back.
    const notAFailure = await this.auth.limitFailures('login:ip', clientIp, this.settings.limits.loginPerIp, 900);
    const mismatch = `The state returned from the ${p.label} response does not match.`;
    const check = this.checkState(p, response.state, sessionId);
    if (check === 'expired') throw new AccountError(`The ${p.label} login took too long. Please try again.`);
    if (check !== 'ok') throw new AccountError(mismatch);
    const state = response.state!;
    // Single use, recorded before the exchange: a replayed state fails even if the first exchange did too.
    const used = await this.db
      .insert(oauthStateUses)
      .values({ stateHash: sha256(state), expiresAt: new Date(Date.now() + this.settings.oauthStateTtlSeconds * 1000) })
      .onConflictDoNothing()
      .returning({ h: oauthStateUses.stateHash });
    if (!used.length) throw new AccountError(mismatch);
    await this.db.delete(oauthStateUses).where(lt(oauthStateUses.expiresAt, sql`now()`));
    if (!response.code || response.code.length > 2048)
      throw new AccountError(`The ${p.label} login failed. Please try again.`);

    let profile: ProviderProfile;
    try {
      profile = await this.profile(p, await this.config(p), response.code, state);
    } catch (err) {
      this.log(`login with ${p.slug} failed: ${(err as Error).message}`);
      throw new AccountError(`The ${p.label} login failed. Please try again.`);
    }
    const login = await this.customerFor(p, profile, sessionId);
    await notAFailure();
    return login;
  }

  private async customerFor(
    p: OAuthProviderSettings,
    profile: ProviderProfile,
    sessionId: string,
  ): Promise<ProviderLogin> {
    const [linked] = await this.db
      .select({ userId: customerIdentities.userId })
      .from(customerIdentities)
      .where(and(eq(customerIdentities.provider, p.slug), eq(customerIdentities.subject, profile.subject)));
    if (linked) {
      const user = await this.customers.get(linked.userId);
      if (user) return { user };
    }
    const unverified = `Your ${p.label} account has no verified e-mail address, so it cannot be used to log in here.`;
    if (!profile.email) throw new AccountError(unverified);
    const existing = await this.customers.findByEmail(profile.email);
    if (existing) return this.matched(p, profile, existing, sessionId);
    if (!profile.emailVerified) throw new AccountError(unverified);
    let created: CustomerRow;
    try {
      created = await this.customers.create({
        email: profile.email,
        username: null,
        passwordHash: null,
        firstName: profile.firstName,
        lastName: profile.lastName,
        emailVerified: true,
      });
    } catch (err) {
      // Created by a concurrent login with the same e-mail: the same rules as for any existing account.
      const again = await this.customers.findByEmail(profile.email);
      if (again) return this.matched(p, profile, again, sessionId);
      throw err;
    }
    await this.db
      .insert(customerIdentities)
      .values({ provider: p.slug, subject: profile.subject, userId: created.id, email: profile.email })
      .onConflictDoNothing();
    return { user: created };
  }

  /** An existing account with the provider's e-mail: linked now only when both sides verified the address. */
  private async matched(
    p: OAuthProviderSettings,
    profile: ProviderProfile,
    user: CustomerRow,
    sessionId: string,
  ): Promise<ProviderLogin> {
    if (profile.emailVerified && user.emailVerifiedAt) {
      await this.linkIdentity(this.db, p, profile.subject, profile.email!, user.id);
      return { user };
    }
    const expiresAt = Math.floor(Date.now() / 1000) + this.settings.oauthStateTtlSeconds;
    const claims: LinkClaims = {
      u: user.id,
      p: p.slug,
      s: profile.subject,
      m: profile.email!,
      v: profile.emailVerified,
      x: sessionId,
      e: expiresAt,
      n: crypto.randomBytes(12).toString('base64url'),
    };
    this.log(`login with ${p.slug} matched account ${user.id} by e-mail: asking for proof before linking`);
    return {
      pendingLink: {
        token: this.signLink('link', claims),
        provider: p.provider,
        providerName: p.label,
        email: user.email,
        expiresAt,
      },
    };
  }

  /** Links the identity to `userId`; refused when it already belongs to another account. */
  private async linkIdentity(
    db: DbOrTx,
    p: OAuthProviderSettings,
    subject: string,
    email: string,
    userId: number,
  ): Promise<void> {
    await db.insert(customerIdentities).values({ provider: p.slug, subject, userId, email }).onConflictDoNothing();
    const [row] = await db
      .select({ userId: customerIdentities.userId })
      .from(customerIdentities)
      .where(and(eq(customerIdentities.provider, p.slug), eq(customerIdentities.subject, subject)));
    if (row?.userId !== userId) throw new AccountError(`This ${p.label} login is already linked to another account.`);
  }

  // ---------- account links ----------

  private signLink(kind: 'link' | 'link-mail', claims: LinkClaims): string {
    const payload = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${payload}.${this.mac(`${kind}|${payload}`)}`;
  }

  /** The claims of a pending link (`link`) or an e-mailed key (`link-mail`) issued to this session, else the refusal. */
  private readLink(
    kind: 'link' | 'link-mail',
    token: string | null | undefined,
    sessionId: string,
  ): { claims: LinkClaims; provider: OAuthProviderSettings } {
    const m = token ? /^([\w-]{1,2000})\.([\w-]{43})$/.exec(token) : null;
    if (!m) throw new AccountError(ACCOUNT_LINK_EXPIRED);
    const expected = Buffer.from(this.mac(`${kind}|${m[1]}`));
    const given = Buffer.from(m[2]!);
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected))
      throw new AccountError(ACCOUNT_LINK_EXPIRED);
    let c: LinkClaims;
    try {
      c = JSON.parse(Buffer.from(m[1]!, 'base64url').toString('utf8'));
    } catch {
      throw new AccountError(ACCOUNT_LINK_EXPIRED);
    }
    const provider = this.providers.find((x) => x.slug === c.p);
    if (!provider || typeof c.e !== 'number' || c.e * 1000 <= Date.now() || !Number.isSafeInteger(c.u))
      throw new AccountError(ACCOUNT_LINK_EXPIRED);
    if (c.x !== sessionId)
      throw new AccountError(kind === 'link-mail' ? ACCOUNT_LINK_OTHER_BROWSER : ACCOUNT_LINK_EXPIRED);
    return { claims: c, provider };
  }

  /** The account a link names, while it still has the address the provider named. */
  private async linkedAccount(c: LinkClaims): Promise<CustomerRow> {
    const user = await this.customers.get(c.u);
    if (!user || user.email.toLowerCase() !== c.m) throw new AccountError(ACCOUNT_LINK_EXPIRED);
    return user;
  }

  /** Records a token's use; false when it was used before. */
  private async useOnce(db: DbOrTx, token: string, expiresAt: number): Promise<boolean> {
    const used = await db
      .insert(oauthStateUses)
      .values({ stateHash: sha256(token), expiresAt: new Date(expiresAt * 1000) })
      .onConflictDoNothing()
      .returning({ h: oauthStateUses.stateHash });
    return used.length > 0;
  }

  /**
   * Completes a pending link with the account's password: the identity is linked and the customer logged
   * in (the caller issues the login). The password proves the account; a provider that verified the
   * address also proves the address, so the account counts as verified then. A wrong password does not
   * use up the link; the check is limited like a login's (AuthService.passwordMatches).
   */
  async linkWithPassword(
    token: string | null | undefined,
    password: string | null | undefined,
    sessionId: string,
    clientIp: string,
  ): Promise<CustomerRow> {
    const { claims, provider } = this.readLink('link', token, sessionId);
    if (!password) throw new AccountError(ACCOUNT_LINK_PASSWORD_MISSING);
    const user = await this.linkedAccount(claims);
    if (!user.passwordHash) throw new AccountError(ACCOUNT_LINK_NO_PASSWORD);
    if (!(await this.auth.passwordMatches(user, password, clientIp))) throw new AccountError(WRONG_PASSWORD);
    await this.db.transaction(async (tx) => {
      if (!(await this.useOnce(tx, token!, claims.e))) throw new AccountError(ACCOUNT_LINK_EXPIRED);
      await this.linkIdentity(tx, provider, claims.s, claims.m, user.id);
      if (claims.v) await this.customers.markEmailVerified(user.id, claims.m, tx);
    });
    this.log(`login with ${provider.slug} linked to account ${user.id} with its password`);
    return (await this.customers.get(user.id))!;
  }

  /**
   * Mails a link that completes a pending link to the account's address (which is the provider's). The
   * pending link stays usable with the password until it expires.
   */
  async sendLinkEmail(token: string | null | undefined, sessionId: string, clientIp: string): Promise<void> {
    const { claims, provider } = this.readLink('link', token, sessionId);
    await this.auth.limit('reset:ip', clientIp, this.settings.limits.resetPerIp, 3600);
    await this.auth.limit('link-mail:account', `user:${claims.u}`, this.settings.limits.resetPerAccount, 3600);
    const user = await this.linkedAccount(claims);
    const validForMinutes = this.settings.resetTtlMinutes;
    const key = this.signLink('link-mail', {
      ...claims,
      e: Math.floor(Date.now() / 1000) + validForMinutes * 60,
      n: crypto.randomBytes(12).toString('base64url'),
    });
    const linkUrl = `${this.settings.siteUrl}${storefrontPrefix(storedLocale(user))}/my-account/link-account?key=${encodeURIComponent(key)}`;
    // The key is signed, not stored: the queued mail is the only write, in a transaction of its own.
    const mailId = await this.db.transaction((tx) =>
      this.mail.enqueue(tx, {
        kind: 'account-link',
        event: `${user.id}.${sha256(key).slice(0, 22)}`,
        to: user.email,
        ...accountLink({
          linkUrl,
          providerName: provider.label,
          customerName: user.firstName || user.username,
          validForMinutes,
          locale: storedLocale(user),
        }),
      }),
    );
    const outcome = mailId === null ? 'failed' : (await this.mail.deliver([mailId])).get(mailId);
    if (outcome !== 'sent') {
      // The customer waits for this mail: they hear that it did not go out now (the queue still tries).
      this.log(`the account-link e-mail for user ${user.id} did not go out on its first attempt`);
      throw new AccountError(MAIL_NOT_SENT);
    }
  }

  /**
   * Completes a pending link with the e-mailed key, opened in the browser that proved the provider
   * identity: whoever did that also holds the account's mailbox, so the account is theirs. That is
   * exactly when somebody else may have registered their address first, and still holds the password
   * and logins of that registration. So the account is taken back for the mailbox's owner: the identity
   * is linked, the address verified, the password removed (the owner sets a new one with a password
   * reset if they want one), every login and auth token ends and every other linked provider login is
   * unlinked (one linked with that password could be anybody's). The caller then logs this browser in.
   */
  async linkFromEmail(key: string | null | undefined, sessionId: string): Promise<CustomerRow> {
    const { claims, provider } = this.readLink('link-mail', key, sessionId);
    const user = await this.linkedAccount(claims);
    await this.db.transaction(async (tx) => {
      if (!(await this.useOnce(tx, key!, claims.e))) throw new AccountError(ACCOUNT_LINK_EXPIRED);
      await this.linkIdentity(tx, provider, claims.s, claims.m, user.id);
      await tx
        .delete(customerIdentities)
        .where(
          and(
            eq(customerIdentities.userId, user.id),
            sql`not (${customerIdentities.provider} = ${provider.slug} and ${customerIdentities.subject} = ${claims.s})`,
          ),
        );
      await this.customers.clearPassword(user.id, tx);
      await this.customers.markEmailVerified(user.id, claims.m, tx);
      await tx
        .update(authSessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(authSessions.userId, user.id), isNull(authSessions.revokedAt)));
    });
    this.log(
      `login with ${provider.slug} linked to account ${user.id} by e-mail: password removed, other logins ended`,
    );
    return (await this.customers.get(user.id))!;
  }
}
