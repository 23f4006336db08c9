/**
 * Contact-form settings, read from the environment and validated with zod (the style of ../config.ts,
 * which will fold these in). Empty values count as unset. The support address (SUPPORT_EMAIL) is a mail
 * setting (../mail/settings.ts); the bot check has its own (../bot-check/settings.ts); the client address
 * follows TRUST_PROXY (../rate-limit/settings.ts).
 *
 * Settings (all optional):
 *   RATE_LIMIT_CONTACT_PER_HOUR  messages one client address (an IPv6 /64) may send per sliding hour
 *                                (default 5; 0 closes the form). Counted in the database, so the limit
 *                                holds across processes and nodes.
 *   PUBLIC_RECAPTCHA_SCRIPT_URL  the reCAPTCHA v3 script the storefront loads (default Google's
 *                                https://www.google.com/recaptcha/api.js; `?render=<site key>&hl=id` is
 *                                appended). Public by design: the form asks GET /api/contact-form/config
 *                                for it and for PUBLIC_RECAPTCHA_SITE_KEY at run time, so one build serves
 *                                any deployment, and end-to-end tests point it at a local stand-in script.
 */
import { z } from 'zod';

const envSchema = z.object({
  RATE_LIMIT_CONTACT_PER_HOUR: z.coerce.number().int().min(0).max(100_000).default(5),
  PUBLIC_RECAPTCHA_SCRIPT_URL: z
    .string()
    .refine((v) => /^(https?:\/\/|\/)/.test(v), 'must be an http(s) URL or a path on this site')
    .default('https://www.google.com/recaptcha/api.js'),
});

export type ContactSettings = {
  perHour: number;
  recaptchaScriptUrl: string;
  /** Larger request bodies are refused with 413 before they are parsed (16 KB: a long message is ~5 KB). */
  maxBodyBytes: number;
};

export class ContactSettingsError extends Error {
  override name = 'ContactSettingsError';
}

export const CONTACT_MAX_BODY_BYTES = 16 * 1024;

export function readContactSettings(env: Record<string, string | undefined> = process.env): ContactSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ContactSettingsError(`Invalid contact settings:\n${lines.join('\n')}`);
  }
  return {
    perHour: parsed.data.RATE_LIMIT_CONTACT_PER_HOUR,
    recaptchaScriptUrl: parsed.data.PUBLIC_RECAPTCHA_SCRIPT_URL,
    maxBodyBytes: CONTACT_MAX_BODY_BYTES,
  };
}
