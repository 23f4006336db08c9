/**
 * Which LoginProviderEnum value a provider's redirect (/oauth/login/{slug}) belongs to. The slug is
 * the engine's provider name (OAUTH_PROVIDERS); the enum is what loginWithProvider wants. Found, in
 * order: the button the shopper clicked (remembered for this tab), the slug itself when it is an enum
 * name (google → GOOGLE), or the login client whose authorization URL redirects to this slug.
 * tests/unit/account-providers.test.ts covers it.
 */
import type { LoginClientFragment as LoginClient } from '../../graphql/generated/operations';
import type { LoginProviderEnum as LoginProvider } from '../../graphql/generated/schema';

const REMEMBER_KEY = 'meshfront:oauth-provider';
const ENUM_VALUES: readonly LoginProvider[] = [
  'FACEBOOK',
  'GITHUB',
  'GOOGLE',
  'INSTAGRAM',
  'LINKEDIN',
  'OAUTH2_GENERIC',
];

export interface RememberedProvider {
  slug: string;
  provider: LoginProvider;
}

/** The slug a client's authorization URL sends the browser back to (its redirect_uri's last segment). */
export function redirectSlugOf(authorizationUrl: string | null | undefined): string | null {
  if (!authorizationUrl) return null;
  try {
    const redirect = new URL(authorizationUrl).searchParams.get('redirect_uri');
    if (!redirect) return null;
    const match = /\/oauth\/login\/([^/?#]+)\/?$/.exec(new URL(redirect).pathname);
    return match ? decodeURIComponent(match[1]!).toLowerCase() : null;
  } catch {
    return null;
  }
}

export function providerForSlug(
  slug: string,
  remembered: RememberedProvider | null,
  clients: readonly Pick<LoginClient, 'provider' | 'authorizationUrl'>[],
): LoginProvider | null {
  const clean = slug.trim().toLowerCase();
  if (!/^[a-z][a-z0-9_-]{0,30}$/.test(clean)) return null;
  if (remembered?.slug === clean) return remembered.provider;
  const upper = clean.toUpperCase().replace(/-/g, '_') as LoginProvider;
  if (ENUM_VALUES.includes(upper)) return upper;
  const client = clients.find((c) => c.provider && redirectSlugOf(c.authorizationUrl) === clean);
  return client?.provider ?? null;
}

/** Called when a provider button is clicked: the callback page may not know the enum from the slug. */
export function rememberProvider(client: Pick<LoginClient, 'provider' | 'authorizationUrl'>): void {
  const slug = redirectSlugOf(client.authorizationUrl);
  if (!slug || !client.provider) return;
  try {
    sessionStorage.setItem(
      REMEMBER_KEY,
      JSON.stringify({ slug, provider: client.provider } satisfies RememberedProvider),
    );
  } catch {
    // Without storage the callback falls back to the login clients.
  }
}

export function rememberedProvider(): RememberedProvider | null {
  try {
    const value = JSON.parse(sessionStorage.getItem(REMEMBER_KEY) ?? 'null') as Partial<RememberedProvider> | null;
    if (
      value &&
      typeof value.slug === 'string' &&
      typeof value.provider === 'string' &&
      ENUM_VALUES.includes(value.provider as LoginProvider)
    ) {
      return { slug: value.slug, provider: value.provider as LoginProvider };
    }
  } catch {
    // Unreadable: ignore.
  }
  return null;
}
