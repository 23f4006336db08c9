/**
 * What a headless storefront on another origin reads about the shop (the `generalSettings`, `allSettings`
 * and `woonuxtSettings` root fields, product heads and media URLs), validated with zod at start. Most of
 * it is the site's own public settings (src/lib/config/store.ts); only what has no home there is read here:
 *
 *   MEDIA_BASE_URL            absolute URL the API's media URLs (`sourceUrl`, `uri` of images) start with
 *                             (default: PUBLIC_SITE_URL), e.g. a CDN in front of /media. The site's own
 *                             pages keep site-relative image paths (their build strips this base again).
 *   HEADLESS_FRONTEND_URL     the storefront URL headless clients are told (`woonuxtSettings.frontEndUrl`),
 *                             for their canonical links (default: PUBLIC_SITE_URL).
 *   STOREFRONT_SOCIAL_LINKS   JSON array of the shop's social profiles, `[{"provider":"x","url":"https://…",
 *                             "handle":"@meshfront"}]` (default none), as `woonuxtSettings.wooNuxtSEO`.
 *
 * Nothing here is secret: every value is meant to be public (the Stripe key handed out is the publishable one).
 */
import { z } from 'zod';
import { loadStoreSettings } from '../../lib/config/store.ts';

export type SocialLink = { provider: string; url: string; handle: string | null };

export type StorefrontSettings = {
  siteName: string;
  /** Absolute site URL without a trailing slash. */
  siteUrl: string;
  description: string;
  /** Absolute logo URL, or null when the site shows its mark. */
  logo: string | null;
  /** The site's default colour theme as a CSS colour. */
  primaryColor: string;
  productsPerPage: number;
  canonical: { lowercasePath: boolean; queryWhitelist: readonly string[] };
  /** Absolute base of media URLs, without a trailing slash. */
  mediaBaseUrl: string;
  frontendUrl: string;
  socialLinks: SocialLink[];
};

/**
 * The card gateway as a browser may know it: whether it is on, test or live, and the publishable key
 * (never the secret or webhook keys).
 */
export type PublicStripeSettings = { enabled: boolean; testMode: boolean; publishableKey: string | null };

/** What the storefront resolvers read: these settings and the card gateway's public part. */
export type Storefront = StorefrontSettings & { stripe: PublicStripeSettings };

export class StorefrontSettingsError extends Error {
  override name = 'StorefrontSettingsError';
}

/** The colours of the site's two themes (tailwind.config.cjs: `primary` and `secondary`). */
const THEME_COLORS = { primary: '#8200FF', secondary: '#00FFAA' } as const;

const httpUrl = z
  .string()
  .url()
  .refine((v) => /^https?:\/\//i.test(v), 'an http:// or https:// URL')
  .transform((v) => v.replace(/\/+$/, ''));

const socialLinks = z
  .string()
  .transform((text, ctx) => {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      ctx.addIssue({ code: z.ZodIssueCode.custom, message: 'not valid JSON' });
      return z.NEVER;
    }
  })
  .pipe(
    z
      .array(
        z.object({
          provider: z.string().trim().min(1).max(40),
          url: httpUrl,
          handle: z.string().trim().max(100).optional(),
        }),
      )
      .max(20),
  );

const schema = z.object({
  MEDIA_BASE_URL: httpUrl.optional(),
  HEADLESS_FRONTEND_URL: httpUrl.optional(),
  STOREFRONT_SOCIAL_LINKS: socialLinks.optional(),
});

export function loadStorefrontSettings(env: Record<string, string | undefined> = process.env): StorefrontSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success)
    throw new StorefrontSettingsError(
      `Invalid storefront settings:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  let store: ReturnType<typeof loadStoreSettings>;
  try {
    store = loadStoreSettings(cleaned);
  } catch (err) {
    const issues = err instanceof z.ZodError ? err.issues : [];
    throw new StorefrontSettingsError(
      `Invalid storefront settings:\n${issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n') || `  ${(err as Error).message}`}`,
    );
  }
  const siteUrl = store.siteUrl.replace(/\/+$/, '');
  const e = parsed.data;
  return {
    siteName: store.siteName,
    siteUrl,
    description: store.defaultDescription,
    logo: store.logo ? new URL(store.logo, `${siteUrl}/`).toString() : null,
    primaryColor: THEME_COLORS[store.mainColor],
    productsPerPage: store.productsPerPage,
    canonical: store.canonical,
    mediaBaseUrl: e.MEDIA_BASE_URL ?? siteUrl,
    frontendUrl: e.HEADLESS_FRONTEND_URL ?? siteUrl,
    socialLinks: (e.STOREFRONT_SOCIAL_LINKS ?? []).map((l) => ({
      provider: l.provider,
      url: l.url,
      handle: l.handle || null,
    })),
  };
}
