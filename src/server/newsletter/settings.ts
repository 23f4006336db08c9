/**
 * Newsletter settings, read from the environment and validated with zod (the style of ../config.ts, which
 * will fold these in). Empty values count as unset.
 *
 * Settings (all optional):
 *   RATE_LIMIT_NEWSLETTER_PER_HOUR  sign-ups one client address (an IPv6 /64) may make per sliding hour
 *                                   (default 10). Each address entered is also limited to 3 confirmation
 *                                   mails per hour, so the form cannot be used to flood someone's inbox.
 *   NEWSLETTER_CONFIRM_HOURS        how long a confirmation link stays valid (default 48).
 *   PUBLIC_SITE_URL                 the shop's public origin, e.g. https://shop.example: the base of the
 *                                   links in confirmation and welcome mails. Unset in production → the
 *                                   same fixed origin the account e-mails use (SESSION_ISSUER, default
 *                                   http://localhost:4321, where a fresh `npm start` serves), never one taken
 *                                   from a request; elsewhere unset → the origin of the request that caused
 *                                   the mail.
 *   PUBLIC_SITE_NAME                the shop's name in mails (default Meshfront).
 */
import { z } from 'zod';
import { DEFAULT_BRAND, type Brand } from '../mail/index.ts';

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('production'),
  RATE_LIMIT_NEWSLETTER_PER_HOUR: z.coerce.number().int().min(0).max(100_000).default(10),
  NEWSLETTER_CONFIRM_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(48),
  PUBLIC_SITE_URL: z
    .string()
    .url()
    .refine((v) => /^https?:\/\//.test(v), 'must be an http(s) URL')
    .optional(),
  SESSION_ISSUER: z.string().url().optional(),
  PUBLIC_SITE_NAME: z.string().min(1).default(DEFAULT_BRAND.shopName),
});

export type NewsletterSettings = {
  perHourPerIp: number;
  /** Confirmation mails per entered address per hour. */
  perHourPerAddress: number;
  confirmSeconds: number;
  /** Origin without trailing slash, or null → the request's origin (never in production). */
  siteUrl: string | null;
  siteName: string;
};

/** Where a fresh `npm start` serves (PORT 4321), and the default SESSION_ISSUER of ../config.ts. */
const DEFAULT_SITE_ORIGIN = 'http://localhost:4321';

export class NewsletterSettingsError extends Error {
  override name = 'NewsletterSettingsError';
}

function parse(env: Record<string, string | undefined>) {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new NewsletterSettingsError(`Invalid newsletter settings:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

export function readNewsletterSettings(env: Record<string, string | undefined> = process.env): NewsletterSettings {
  const e = parse(env);
  // The links in confirmation mails must not depend on the Host header a client sends: production always
  // has a fixed origin, the one account e-mails and session tokens use when PUBLIC_SITE_URL is unset.
  const siteUrl = e.PUBLIC_SITE_URL ?? (e.NODE_ENV === 'production' ? (e.SESSION_ISSUER ?? DEFAULT_SITE_ORIGIN) : null);
  return {
    perHourPerIp: e.RATE_LIMIT_NEWSLETTER_PER_HOUR,
    perHourPerAddress: 3,
    confirmSeconds: Math.round(e.NEWSLETTER_CONFIRM_HOURS * 3600),
    siteUrl: siteUrl ? siteUrl.replace(/\/+$/, '') : null,
    siteName: e.PUBLIC_SITE_NAME,
  };
}

/** The brand shown in mails: the configured shop name and public URL. */
export function siteBrand(env: Record<string, string | undefined> = process.env): Brand {
  const e = parse({ PUBLIC_SITE_URL: env.PUBLIC_SITE_URL, PUBLIC_SITE_NAME: env.PUBLIC_SITE_NAME });
  return { shopName: e.PUBLIC_SITE_NAME, shopUrl: e.PUBLIC_SITE_URL ?? DEFAULT_BRAND.shopUrl };
}
