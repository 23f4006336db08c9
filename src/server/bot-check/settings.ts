/**
 * Bot-check settings, read from the environment and validated with zod (the style of ../config.ts, which
 * will fold these in). Empty values count as unset. Two checks exist: Google's reCAPTCHA v3 when its keys
 * are set, and otherwise ALTCHA, a proof-of-work check this server issues and verifies itself (no third
 * party, no cookies), so a fresh shop's contact form works without any key.
 *
 * Settings (all optional):
 *   BOT_CHECK                  recaptcha | altcha | off. Default: recaptcha when RECAPTCHA_SECRET is set;
 *                              otherwise altcha in production, and off in development and test (every
 *                              message is accepted, logged once). off is refused in production: a form
 *                              without a bot check would invite spam unnoticed.
 *   RECAPTCHA_SECRET           the site's secret key for siteverify. In production it needs
 *                              PUBLIC_RECAPTCHA_SITE_KEY too (the form cannot get a token without it).
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
 *   ALTCHA_HMAC_KEY            key (≥ 32 characters) that signs ALTCHA challenges. Default: derived from
 *                              SESSION_SECRET (itself generated into the data directory when unset), so
 *                              every engine process that shares that secret accepts the others' challenges.
 *   ALTCHA_COST                PBKDF2-SHA-256 iterations per attempt (default 5000, ALTCHA's suggestion).
 *   ALTCHA_MAX_COUNTER         how many attempts a challenge takes at most; each challenge's answer is
 *                              drawn between half of this and this (default 10000: a few seconds in a
 *                              phone's browser, spent while the visitor types).
 *   ALTCHA_CHALLENGE_TTL_SECONDS how long a challenge may be solved and sent (default 600, at most 3600).
 *                              Each solved challenge is accepted once (remembered in the database).
 *   ALTCHA_CHALLENGES_PER_HOUR challenges one client address (an IPv6 /64) may fetch per sliding hour
 *                              (default 60).
 */
import { z } from 'zod';

/** The longest a challenge may live; a used challenge is remembered at least this long (see altcha.ts). */
export const ALTCHA_MAX_TTL_SECONDS = 3600;

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('production'),
  BOT_CHECK: z.enum(['recaptcha', 'altcha', 'off']).optional(),
  RECAPTCHA_SECRET: z.string().min(1).optional(),
  RECAPTCHA_VERIFY_URL: z
    .string()
    .url()
    .refine((v) => /^https?:\/\//.test(v), 'must be an http(s) URL')
    .default('https://www.google.com/recaptcha/api/siteverify'),
  RECAPTCHA_MIN_SCORE: z.coerce.number().min(0).max(1).default(0.5),
  RECAPTCHA_EXPECTED_ACTION: z
    .string()
    .regex(/^[A-Za-z0-9_/]+$/, 'actions may only contain alphanumeric characters, slashes and underscores')
    .default('submit'),
  RECAPTCHA_EXPECTED_HOSTNAMES: z.string().optional(),
  RECAPTCHA_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(3000),
  PUBLIC_RECAPTCHA_SITE_KEY: z.string().min(1).optional(),
  ALTCHA_HMAC_KEY: z.string().min(32, 'ALTCHA_HMAC_KEY must be at least 32 characters').optional(),
  ALTCHA_COST: z.coerce.number().int().min(1).max(1_000_000).default(5000),
  ALTCHA_MAX_COUNTER: z.coerce.number().int().min(2).max(10_000_000).default(10_000),
  ALTCHA_CHALLENGE_TTL_SECONDS: z.coerce.number().int().min(30).max(ALTCHA_MAX_TTL_SECONDS).default(600),
  ALTCHA_CHALLENGES_PER_HOUR: z.coerce.number().int().min(0).max(100_000).default(60),
});

export type BotCheckMode = 'recaptcha' | 'altcha' | 'off';

export type AltchaSettings = {
  /** null → derived from the session secret where the check is wired (../contact/index.ts). */
  hmacKey: string | null;
  cost: number;
  maxCounter: number;
  ttlSeconds: number;
  challengesPerHour: number;
};

export type BotCheckSettings = {
  env: 'development' | 'test' | 'production';
  /** Which check the contact form gets; 'off' never in production. */
  mode: BotCheckMode;
  /** The reCAPTCHA secret in use: null unless mode is 'recaptcha' (then verification is off, never in production). */
  secret: string | null;
  verifyUrl: string;
  minScore: number;
  expectedAction: string;
  /** Empty → the hostname is not checked. */
  expectedHostnames: string[];
  timeoutMs: number;
  siteKey: string | null;
  altcha: AltchaSettings;
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
  const production = e.NODE_ENV === 'production';
  const mode: BotCheckMode = e.BOT_CHECK ?? (e.RECAPTCHA_SECRET ? 'recaptcha' : production ? 'altcha' : 'off');
  const problems: string[] = [];
  if (mode === 'off' && production) {
    problems.push(
      '  BOT_CHECK: off is not allowed in production (without a bot check the contact form cannot tell people from bots); leave it unset for the self-hosted ALTCHA check',
    );
  }
  if (mode === 'recaptcha' && !e.RECAPTCHA_SECRET)
    problems.push(
      '  RECAPTCHA_SECRET: required with BOT_CHECK=recaptcha (the reCAPTCHA v3 secret key of PUBLIC_RECAPTCHA_SITE_KEY)',
    );
  if (mode === 'recaptcha' && production && !e.PUBLIC_RECAPTCHA_SITE_KEY) {
    problems.push(
      '  PUBLIC_RECAPTCHA_SITE_KEY: required in production with RECAPTCHA_SECRET (the contact form cannot get a reCAPTCHA token without it); unset both to use the self-hosted ALTCHA check',
    );
  }
  if (problems.length) throw new BotCheckSettingsError(`Invalid bot-check settings:\n${problems.join('\n')}`);
  return {
    env: e.NODE_ENV,
    mode,
    secret: mode === 'recaptcha' ? (e.RECAPTCHA_SECRET ?? null) : null,
    verifyUrl: e.RECAPTCHA_VERIFY_URL,
    minScore: e.RECAPTCHA_MIN_SCORE,
    expectedAction: e.RECAPTCHA_EXPECTED_ACTION,
    expectedHostnames: (e.RECAPTCHA_EXPECTED_HOSTNAMES ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    timeoutMs: e.RECAPTCHA_TIMEOUT_MS,
    siteKey: e.PUBLIC_RECAPTCHA_SITE_KEY ?? null,
    altcha: {
      hmacKey: e.ALTCHA_HMAC_KEY ?? null,
      cost: e.ALTCHA_COST,
      maxCounter: e.ALTCHA_MAX_COUNTER,
      ttlSeconds: e.ALTCHA_CHALLENGE_TTL_SECONDS,
      challengesPerHour: e.ALTCHA_CHALLENGES_PER_HOUR,
    },
  };
}

let processSettings: BotCheckSettings | null = null;

/** The process-wide settings, from process.env on first use. */
export function getBotCheckSettings(): BotCheckSettings {
  processSettings ??= readBotCheckSettings();
  return processSettings;
}
