/**
 * Account and login settings, read from the environment and validated with zod (the style of
 * ../config.ts). Empty values count as unset.
 *
 * Settings (all optional):
 *   AUTH_SECRET                     HS256 key (≥ 32 chars) for auth tokens (JWT), download links and OAuth
 *                                   states. Default: derived from SESSION_SECRET with HKDF (a separate key
 *                                   per purpose), so one secret is enough to run.
 *   AUTH_TOKEN_TTL_SECONDS          lifetime of the auth token (default 300, as Headless Login).
 *   REFRESH_TOKEN_TTL_DAYS          lifetime of a refresh token; each refresh rotates it (default 30).
 *   PASSWORD_RESET_TTL_MINUTES      how long a password-reset link works (default 60); also the life
 *                                   of an e-mailed link that links a login provider to an account.
 *   EMAIL_VERIFICATION_TTL_HOURS    how long the link that confirms an account's e-mail address works
 *                                   (default 48).
 *   PASSWORD_SCRYPT_LOG2N           scrypt cost (log2 N, default 15 = N 32768, r 8, p 1); stored with
 *                                   each hash, so raising it later keeps old hashes working.
 *   LOGIN_LIMIT_PER_IP              failed logins per IP per 15 minutes, across accounts (default 30); then
 *                                   that address is refused until the window slides.
 *   LOGIN_LIMIT_PER_ACCOUNT         failed logins on one account from one IP per 15 minutes (default 5); then
 *                                   that address is refused for that account. A success starts it over.
 *                                   Wrong current passwords (password or e-mail change) count here too.
 *   LOGIN_SLOWDOWN_AFTER            failed logins on one account from all addresses per 15 minutes after
 *                                   which an address that has itself failed on it waits between tries
 *                                   (default 10). Addresses without failures on the account never wait, so
 *                                   an attack from many addresses cannot lock the owner out.
 *   LOGIN_SLOWDOWN_SECONDS          that wait (default 30); it doubles with every LOGIN_SLOWDOWN_AFTER
 *                                   further failures on the account,
 *   LOGIN_SLOWDOWN_MAX_SECONDS      up to this (default 300).
 *   REGISTER_LIMIT_PER_IP           registrations per IP per hour (default 10).
 *   RESET_LIMIT_PER_IP              password-reset requests per IP per hour, and separately failed uses of a
 *                                   reset link (wrong key or login) per IP per hour (default 10). A use
 *                                   refused for a weak password does not count.
 *   RESET_LIMIT_PER_ACCOUNT         password-reset e-mails per account per hour (default 3).
 *   EMAIL_CHANGE_REPORT_TTL_DAYS    how long the "this wasn't me" link in the notice of an e-mail change,
 *                                   sent to the previous address, works (default 7).
 *   PUBLIC_SITE_URL                 base of links in e-mails and of OAuth redirect URIs (default
 *                                   SESSION_ISSUER, i.e. http://localhost:4321).
 *   OAUTH_PROVIDERS                 comma-separated provider names, e.g. google,github. For each NAME:
 *     OAUTH_<NAME>_ISSUER           OpenID Connect issuer (discovery at /.well-known/openid-configuration), or
 *     OAUTH_<NAME>_AUTHORIZATION_URL, _TOKEN_URL, _USERINFO_URL   a plain OAuth 2 provider's endpoints;
 *     OAUTH_<NAME>_CLIENT_ID, _CLIENT_SECRET   the client registered at the provider (required);
 *     OAUTH_<NAME>_SCOPES           default "openid email profile" (OIDC) / "read:user user:email" (github);
 *     OAUTH_<NAME>_NAME             label on the button (default the capitalised name);
 *     OAUTH_<NAME>_PROVIDER         LoginProviderEnum value (default: GOOGLE/GITHUB/FACEBOOK/… when the
 *                                   name is one, else OAUTH2_GENERIC);
 *     OAUTH_<NAME>_REDIRECT_URI     default PUBLIC_SITE_URL/oauth/login/<name>.
 *   OAUTH_STATE_TTL_MINUTES         how long an authorization URL (its state) stays usable (default 15).
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import type { ServerConfig } from '../config.ts';

export class AuthSettingsError extends Error {
  override name = 'AuthSettingsError';
}

export const LOGIN_PROVIDERS = [
  'FACEBOOK',
  'GITHUB',
  'GOOGLE',
  'INSTAGRAM',
  'LINKEDIN',
  'OAUTH2_GENERIC',
  'PASSWORD',
  'SITETOKEN',
] as const;
export type LoginProvider = (typeof LOGIN_PROVIDERS)[number];

export type OAuthProviderSettings = {
  /** Lower-case name from OAUTH_PROVIDERS: the slug in the redirect path. */
  slug: string;
  label: string;
  provider: LoginProvider;
  order: number;
  issuer: string | null;
  authorizationUrl: string | null;
  tokenUrl: string | null;
  userinfoUrl: string | null;
  clientId: string;
  clientSecret: string;
  scopes: string;
  redirectUri: string;
};

export type AuthSettings = {
  issuer: string;
  siteUrl: string;
  keys: { access: Uint8Array; download: Buffer; oauth: Buffer; emailChange: Buffer; accountDeletion: Buffer };
  authTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  resetTtlMinutes: number;
  verifyTtlMinutes: number;
  scryptLog2N: number;
  limits: {
    /** Failed logins per address (all accounts) per 15 minutes. */
    loginPerIp: number;
    /** Failed logins (or current-password checks) per account and address per 15 minutes. */
    loginPerAccount: number;
    /** Failed logins per account (all addresses) per 15 minutes before addresses that failed must wait. */
    loginSlowdownAfter: number;
    loginSlowdownSeconds: number;
    loginSlowdownMaxSeconds: number;
    registerPerIp: number;
    resetPerIp: number;
    resetPerAccount: number;
  };
  emailChangeReportTtlSeconds: number;
  oauthStateTtlSeconds: number;
  providers: OAuthProviderSettings[];
};

const int = (min: number, max: number, def: number) => z.coerce.number().int().min(min).max(max).default(def);

const envSchema = z.object({
  AUTH_SECRET: z.string().min(32, 'AUTH_SECRET must be at least 32 characters').optional(),
  AUTH_TOKEN_TTL_SECONDS: int(30, 86_400, 300),
  REFRESH_TOKEN_TTL_DAYS: z.coerce.number().positive().max(3650).default(30),
  PASSWORD_RESET_TTL_MINUTES: int(1, 7 * 24 * 60, 60),
  EMAIL_VERIFICATION_TTL_HOURS: int(1, 30 * 24, 48),
  PASSWORD_SCRYPT_LOG2N: int(10, 20, 15),
  LOGIN_LIMIT_PER_IP: int(0, 100_000, 30),
  LOGIN_LIMIT_PER_ACCOUNT: int(0, 100_000, 5),
  LOGIN_SLOWDOWN_AFTER: int(1, 100_000, 10),
  LOGIN_SLOWDOWN_SECONDS: int(1, 3600, 30),
  LOGIN_SLOWDOWN_MAX_SECONDS: int(1, 86_400, 300),
  REGISTER_LIMIT_PER_IP: int(0, 100_000, 10),
  RESET_LIMIT_PER_IP: int(0, 100_000, 10),
  RESET_LIMIT_PER_ACCOUNT: int(0, 100_000, 3),
  EMAIL_CHANGE_REPORT_TTL_DAYS: int(1, 90, 7),
  PUBLIC_SITE_URL: z.string().url().optional(),
  OAUTH_PROVIDERS: z.string().optional(),
  OAUTH_STATE_TTL_MINUTES: int(1, 24 * 60, 15),
});

function derive(secret: string, purpose: string): Buffer {
  return Buffer.from(crypto.hkdfSync('sha256', secret, 'meshfront-auth', purpose, 32));
}

const url = (v: string | undefined, name: string): string | null => {
  if (!v) return null;
  try {
    const u = new URL(v);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') throw new Error('not http(s)');
    return u.toString();
  } catch {
    throw new AuthSettingsError(`Invalid account settings:\n  ${name}: must be an http(s) URL`);
  }
};

export function readAuthSettings(
  config: ServerConfig,
  env: Record<string, string | undefined> = process.env,
): AuthSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new AuthSettingsError(`Invalid account settings:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const secret = e.AUTH_SECRET ?? config.sessionSecret;
  const siteUrl = (e.PUBLIC_SITE_URL ?? config.sessionIssuer).replace(/\/+$/, '');
  const names = (e.OAUTH_PROVIDERS ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  const providers: OAuthProviderSettings[] = names.map((slug, order) => {
    if (!/^[a-z][a-z0-9_-]{0,30}$/.test(slug))
      throw new AuthSettingsError(
        `Invalid account settings:\n  OAUTH_PROVIDERS: "${slug}" is not a valid provider name (letters, digits, - and _)`,
      );
    const P = `OAUTH_${slug.toUpperCase().replace(/-/g, '_')}_`;
    const get = (k: string) => cleaned[P + k];
    const clientId = get('CLIENT_ID');
    const clientSecret = get('CLIENT_SECRET');
    if (!clientId || !clientSecret)
      throw new AuthSettingsError(
        `Invalid account settings:\n  ${P}CLIENT_ID and ${P}CLIENT_SECRET are required for the "${slug}" login provider`,
      );
    const issuer = url(get('ISSUER'), `${P}ISSUER`);
    const authorizationUrl = url(get('AUTHORIZATION_URL'), `${P}AUTHORIZATION_URL`);
    const tokenUrl = url(get('TOKEN_URL'), `${P}TOKEN_URL`);
    const userinfoUrl = url(get('USERINFO_URL'), `${P}USERINFO_URL`);
    if (!issuer && !(authorizationUrl && tokenUrl && userinfoUrl)) {
      throw new AuthSettingsError(
        `Invalid account settings:\n  ${P}ISSUER (OpenID Connect) or ${P}AUTHORIZATION_URL, ${P}TOKEN_URL and ${P}USERINFO_URL are required for the "${slug}" login provider`,
      );
    }
    const upper = slug.toUpperCase();
    const providerRaw = (
      get('PROVIDER') ?? ((LOGIN_PROVIDERS as readonly string[]).includes(upper) ? upper : 'OAUTH2_GENERIC')
    ).toUpperCase();
    if (
      !(LOGIN_PROVIDERS as readonly string[]).includes(providerRaw) ||
      providerRaw === 'PASSWORD' ||
      providerRaw === 'SITETOKEN'
    ) {
      throw new AuthSettingsError(
        `Invalid account settings:\n  ${P}PROVIDER: must be one of ${LOGIN_PROVIDERS.filter((p) => p !== 'PASSWORD' && p !== 'SITETOKEN').join(', ')}`,
      );
    }
    return {
      slug,
      label: get('NAME') ?? slug.charAt(0).toUpperCase() + slug.slice(1),
      provider: providerRaw as LoginProvider,
      order,
      issuer,
      authorizationUrl,
      tokenUrl,
      userinfoUrl,
      clientId,
      clientSecret,
      scopes: get('SCOPES') ?? (issuer ? 'openid email profile' : slug === 'github' ? 'read:user user:email' : 'email'),
      redirectUri: url(get('REDIRECT_URI'), `${P}REDIRECT_URI`) ?? `${siteUrl}/oauth/login/${slug}`,
    };
  });
  const providerEnums = providers.map((p) => p.provider);
  const dup = providerEnums.find((p, i) => providerEnums.indexOf(p) !== i);
  if (dup)
    throw new AuthSettingsError(
      `Invalid account settings:\n  OAUTH_PROVIDERS: two providers map to ${dup}; set OAUTH_<NAME>_PROVIDER so each LoginProviderEnum value is used once`,
    );
  return {
    issuer: config.sessionIssuer,
    siteUrl,
    keys: {
      access: new Uint8Array(derive(secret, 'access-token')),
      download: derive(secret, 'download-link'),
      oauth: derive(secret, 'oauth-state'),
      emailChange: derive(secret, 'email-change-report'),
      accountDeletion: derive(secret, 'account-deletion-link'),
    },
    authTokenTtlSeconds: e.AUTH_TOKEN_TTL_SECONDS,
    refreshTokenTtlSeconds: Math.round(e.REFRESH_TOKEN_TTL_DAYS * 86_400),
    resetTtlMinutes: e.PASSWORD_RESET_TTL_MINUTES,
    verifyTtlMinutes: e.EMAIL_VERIFICATION_TTL_HOURS * 60,
    scryptLog2N: e.PASSWORD_SCRYPT_LOG2N,
    limits: {
      loginPerIp: e.LOGIN_LIMIT_PER_IP,
      loginPerAccount: e.LOGIN_LIMIT_PER_ACCOUNT,
      loginSlowdownAfter: e.LOGIN_SLOWDOWN_AFTER,
      loginSlowdownSeconds: e.LOGIN_SLOWDOWN_SECONDS,
      loginSlowdownMaxSeconds: Math.max(e.LOGIN_SLOWDOWN_MAX_SECONDS, e.LOGIN_SLOWDOWN_SECONDS),
      registerPerIp: e.REGISTER_LIMIT_PER_IP,
      resetPerIp: e.RESET_LIMIT_PER_IP,
      resetPerAccount: e.RESET_LIMIT_PER_ACCOUNT,
    },
    emailChangeReportTtlSeconds: e.EMAIL_CHANGE_REPORT_TTL_DAYS * 86_400,
    oauthStateTtlSeconds: e.OAUTH_STATE_TTL_MINUTES * 60,
    providers,
  };
}
