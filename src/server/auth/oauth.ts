/**
 * External login providers (OpenID Connect or plain OAuth 2), configured by OAUTH_PROVIDERS (see
 * ./settings.ts), with openid-client.
 *
 * The engine issues the authorization URL's `state` and verifies it (WooGraphQL's Headless Login does
 * not; contract §5): the state is signed (HMAC) and carries the provider, the woocommerce-session id it
 * was issued to and its expiry, so handing out login links in getCart writes nothing; the PKCE verifier
 * (S256) and the OIDC nonce are derived from the state with the server key, so only this engine can
 * complete the exchange. Using a state records it in `oauth_state_uses` (single use). A state from
 * another session, a forged, expired or already used one is refused before the code is exchanged.
 *
 * The customer is found by the linked identity (provider + subject), else by a verified e-mail (which
 * links it), else created (no password: they may set one with a password reset).
 */
import crypto from 'node:crypto';
import { and, eq, lt, sql } from 'drizzle-orm';
import * as client from 'openid-client';
import type { Database } from '../db/connection.ts';
import { AccountError, type CustomerRow, type CustomerService } from '../customers/service.ts';
import type { AuthService } from './service.ts';
import type { AuthSettings, OAuthProviderSettings } from './settings.ts';
import { customerIdentities, oauthStateUses } from './tables.ts';

export type LoginClientInfo = { name: string; provider: string; isEnabled: boolean; authorizationUrl: string; clientId: string; order: number };
export type ProviderProfile = { subject: string; email: string | null; emailVerified: boolean; firstName: string; lastName: string };

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);
const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest('base64url');

export class OAuthService {
  private configs = new Map<string, Promise<client.Configuration>>();

  constructor(
    private readonly db: Database,
    private readonly settings: AuthSettings,
    private readonly customers: CustomerService,
    private readonly auth: AuthService,
    private readonly log: (message: string) => void = (m) => console.warn(`[meshfront] ${m}`),
  ) {}

  get providers(): OAuthProviderSettings[] {
    return this.settings.providers;
  }

  /** The provider's client configuration (OIDC discovery once per process, or the explicit endpoints). */
  private config(p: OAuthProviderSettings): Promise<client.Configuration> {
    let c = this.configs.get(p.slug);
    if (!c) {
      const insecure = (u: string | null) => !!u && new URL(u).protocol === 'http:' && LOOPBACK.has(new URL(u).hostname);
      c = (async () => {
        if (p.issuer) {
          // Plain http only for a provider on this machine (development and tests); https everywhere else.
          return client.discovery(new URL(p.issuer), p.clientId, p.clientSecret, undefined, insecure(p.issuer) ? { execute: [client.allowInsecureRequests] } : undefined);
        }
        const config = new client.Configuration(
          { issuer: new URL(p.authorizationUrl!).origin, authorization_endpoint: p.authorizationUrl!, token_endpoint: p.tokenUrl!, userinfo_endpoint: p.userinfoUrl! },
          p.clientId,
          p.clientSecret,
        );
        if (insecure(p.authorizationUrl) && insecure(p.tokenUrl)) client.allowInsecureRequests(config);
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
    const payload = Buffer.from(JSON.stringify({ p: provider, s: sessionId, e: Math.floor(now / 1000) + this.settings.oauthStateTtlSeconds, n: crypto.randomBytes(12).toString('base64url') })).toString('base64url');
    return `${payload}.${this.mac(`state|${payload}`)}`;
  }

  /** PKCE verifier and OIDC nonce of a state: secret (server key), so a stolen state alone is useless. */
  private derived(state: string) {
    return { verifier: this.mac(`pkce|${state}`), nonce: this.mac(`nonce|${state}`) };
  }

  private checkState(p: OAuthProviderSettings, state: string | null | undefined, sessionId: string): 'ok' | 'mismatch' | 'expired' {
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
        out.push({ name: p.label, provider: p.provider, isEnabled: true, authorizationUrl: await this.authorizationUrl(p, sessionId), clientId: p.clientId, order: p.order });
      } catch (err) {
        this.log(`login provider ${p.slug} is unavailable: ${(err as Error).message}`);
      }
    }
    return out;
  }

  // ---------- login ----------

  private async profile(p: OAuthProviderSettings, config: client.Configuration, code: string, state: string): Promise<ProviderProfile> {
    const { verifier, nonce } = this.derived(state);
    const callback = new URL(p.redirectUri);
    callback.searchParams.set('code', code);
    callback.searchParams.set('state', state);
    const tokens = await client.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      ...(p.issuer ? { expectedNonce: nonce, idTokenExpected: true } : {}),
    });
    const idClaims = p.issuer ? tokens.claims() : undefined;
    let info: Record<string, unknown> = { ...(idClaims ?? {}) };
    if (!idClaims?.email || !p.issuer) {
      const userinfoUrl = p.userinfoUrl ?? config.serverMetadata().userinfo_endpoint;
      if (userinfoUrl) {
        if (p.issuer && idClaims) info = { ...info, ...(await client.fetchUserInfo(config, tokens.access_token, idClaims.sub)) };
        else {
          const r = await client.fetchProtectedResource(config, tokens.access_token, new URL(userinfoUrl), 'GET');
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
      firstName: typeof info.given_name === 'string' ? info.given_name : name.split(' ')[0] ?? '',
      lastName: typeof info.family_name === 'string' ? info.family_name : name.split(' ').slice(1).join(' '),
    };
  }

  /** Completes a provider login: state check, code exchange (PKCE), then the linked, matched or new customer. */
  async loginWithProvider(providerEnum: string, response: { code?: string | null; state?: string | null }, sessionId: string, clientIp: string): Promise<CustomerRow> {
    const p = this.providers.find((x) => x.provider === providerEnum);
    if (!p) throw new AccountError(`Provider ${providerEnum.toLowerCase()} is not enabled.`);
    await this.auth.limit('login:ip', clientIp, this.settings.limits.loginPerIp, 900);
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
    if (!response.code || response.code.length > 2048) throw new AccountError(`The ${p.label} login failed. Please try again.`);

    let profile: ProviderProfile;
    try {
      profile = await this.profile(p, await this.config(p), response.code, state);
    } catch (err) {
      this.log(`login with ${p.slug} failed: ${(err as Error).message}`);
      throw new AccountError(`The ${p.label} login failed. Please try again.`);
    }
    return this.customerFor(p, profile);
  }

  private async customerFor(p: OAuthProviderSettings, profile: ProviderProfile): Promise<CustomerRow> {
    const [linked] = await this.db
      .select({ userId: customerIdentities.userId })
      .from(customerIdentities)
      .where(and(eq(customerIdentities.provider, p.slug), eq(customerIdentities.subject, profile.subject)));
    if (linked) {
      const user = await this.customers.get(linked.userId);
      if (user) return user;
    }
    if (!profile.email || !profile.emailVerified) throw new AccountError(`Your ${p.label} account has no verified e-mail address, so it cannot be used to log in here.`);
    const user =
      (await this.customers.findByEmail(profile.email)) ??
      (await this.customers.create({ email: profile.email, username: null, passwordHash: null, firstName: profile.firstName, lastName: profile.lastName }).catch(async (err) => {
        // Created by a concurrent login with the same e-mail.
        const again = await this.customers.findByEmail(profile.email!);
        if (again) return again;
        throw err;
      }));
    await this.db.insert(customerIdentities).values({ provider: p.slug, subject: profile.subject, userId: user.id, email: profile.email }).onConflictDoNothing();
    return user;
  }
}
