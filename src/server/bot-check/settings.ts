/**
 * Bot-check (reCAPTCHA v3) settings, read from the environment and validated with zod (the style of
 * ../config.ts, which will fold these in). Empty values count as unset.
 *
 * Settings (all optional in development and test):
 *   RECAPTCHA_SECRET           the site's secret key for siteverify. Unset → verification is off: in
 *                              development and test every token is accepted and that is logged once; in
 *                              production the settings are refused (a form without bot check would
 *                              invite spam unnoticed).
 *   RECAPTCHA_VERIFY_URL       the siteverify endpoint (default https://www.google.com/recaptcha/api/siteverify;
 *                              tests point it at the local stand-in).
 *   RECAPTCHA_MIN_SCORE        lowest v3 score accepted, 0.0 (bot) … 1.0 (human) (default 0.5, Google's
 *                              suggested starting point).
 *   RECAPTCHA_EXPECTED_ACTION  the action the storefront passes to grecaptcha.execute (default 'submit'); a
 *                              token minted for another action is refused.
 *   RECAPTCHA_EXPECTED_HOSTNAMES comma-separated hostnames a token may have been solved on (default: not
 *                              checked; set it if "verify the origin of reCAPTCHA solutions" is off for the key).
 *   RECAPTCHA_TIMEOUT_MS       how long to wait for siteverify before failing closed (default 3000).
 *   PUBLIC_RECAPTCHA_SITE_KEY  the site key the storefront loads the reCAPTCHA script with (public by design).
 */
import { z } from 'zod';

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  RECAPTCHA_SECRET: z.string().min(1).optional(),
  RECAPTCHA_VERIFY_URL: z
    .string()
    .url()
    .refine((v) => /^https?:\/\//.test(v), 'must be an http(s) URL')
    .default('https://www.google.com/recaptcha/api/siteverify'),
  RECAPTCHA_MIN_SCORE: z.coerce.number().min(0).max(1).default(0.5),
  RECAPTCHA_EXPECTED_ACTION: z.string().regex(/^[A-Za-z0-9_/]+$/, 'actions may only contain alphanumeric characters, slashes and underscores').default('submit'),
  RECAPTCHA_EXPECTED_HOSTNAMES: z.string().optional(),
  RECAPTCHA_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
  PUBLIC_RECAPTCHA_SITE_KEY: z.string().min(1).optional(),
});

export type BotCheckSettings = {
  env: 'development' | 'test' | 'production';
  /** null → verification off (never in production). */
  secret: string | null;
  verifyUrl: string;
  minScore: number;
  expectedAction: string;
  /** Empty → the hostname is not checked. */
  expectedHostnames: string[];
  timeoutMs: number;
  siteKey: string | null;
};

export class BotCheckSettingsError extends Error {
  override name = 'BotCheckSettingsError';
}

/** Parse bot-check settings from an environment-like object. Throws BotCheckSettingsError listing every problem. */
export function readBotCheckSettings(env: Record<string, string | undefined> = process.env): BotCheckSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new BotCheckSettingsError(`Invalid bot-check settings:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (!e.RECAPTCHA_SECRET && e.NODE_ENV === 'production') {
    throw new BotCheckSettingsError(
      'Invalid bot-check settings:\n  RECAPTCHA_SECRET: required in production (the reCAPTCHA v3 secret key of PUBLIC_RECAPTCHA_SITE_KEY); without it the contact form cannot tell people from bots',
    );
  }
  return {
    env: e.NODE_ENV,
    secret: e.RECAPTCHA_SECRET ?? null,
    verifyUrl: e.RECAPTCHA_VERIFY_URL,
    minScore: e.RECAPTCHA_MIN_SCORE,
    expectedAction: e.RECAPTCHA_EXPECTED_ACTION,
    expectedHostnames: (e.RECAPTCHA_EXPECTED_HOSTNAMES ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    timeoutMs: e.RECAPTCHA_TIMEOUT_MS,
    siteKey: e.PUBLIC_RECAPTCHA_SITE_KEY ?? null,
  };
}

let processSettings: BotCheckSettings | null = null;

/** The process-wide settings, from process.env on first use. */
export function getBotCheckSettings(): BotCheckSettings {
  processSettings ??= readBotCheckSettings();
  return processSettings;
}
