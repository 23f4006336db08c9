/**
 * Mail settings, read from the environment and validated with zod (the same style as ../config.ts, which
 * will fold these in). Empty values count as unset.
 *
 * Settings (all optional):
 *   MAIL_FROM          sender of every message, `Name <address>` or a bare address
 *                      (default "Meshfront <shop@meshfront.example>").
 *   SMTP_URL           smtp://user:pass@host:port (STARTTLS when the server offers it) or
 *                      smtps://user:pass@host:465 (TLS from the first byte). Percent-encode special
 *                      characters in the user and password; nodemailer options may follow as a query,
 *                      e.g. ?requireTLS=true to refuse a server that does not offer STARTTLS. Unset →
 *                      messages are not sent but written to the outbox directory (development, tests,
 *                      Playwright; in production this is logged once as a warning).
 *   MAIL_OUTBOX_DIR    where the outbox keeps messages when SMTP_URL is unset: one .eml file and one
 *                      .json record per message (default <MESHFRONT_DATA_DIR or ./var>/mail).
 *   SUPPORT_EMAIL      the address contact-form messages are sent to (default support@meshfront.example).
 *   SMTP_TIMEOUT_MS    how long the SMTP server may take to accept the connection, to greet, and to answer
 *                      any one command (the message itself gets three times as long); an attempt that runs
 *                      out counts as failed and is retried by the queue (default 10000).
 *
 * The mail queue (queue.ts: every mail is queued in the transaction of its change, then sent):
 *   MAIL_MAX_ATTEMPTS      deliveries tried before a mail counts as failed and waits for an operator's
 *                          retry in /admin/mail (default 10).
 *   MAIL_RETRY_BASE_MS     the wait after the first failed delivery; each further wait doubles, at most
 *                          an hour (default 30000: 30 s, 1 min, 2 min, … about 3 hours over 10 attempts).
 *   MAIL_POLL_INTERVAL_MS  how often the sender looks for due mail it was not woken for: mail queued by
 *                          another process, or after a restart (default 5000). Mail queued in this
 *                          process is sent right after its transaction commits.
 */
import path from 'node:path';
import { z } from 'zod';
import { isValidEmailAddress, parseMailbox, type Mailbox } from './address.ts';

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('production'),
  MAIL_FROM: z
    .string()
    .refine(
      (v) => parseMailbox(v) !== null,
      'must be an address or "Name <address>" (no quotes or angle brackets in the name)',
    )
    .default('Meshfront <shop@meshfront.example>'),
  SMTP_URL: z
    .string()
    .refine((v) => {
      try {
        const url = new URL(v);
        return (url.protocol === 'smtp:' || url.protocol === 'smtps:') && url.hostname !== '';
      } catch {
        return false;
      }
    }, 'must be smtp://user:pass@host:port or smtps://user:pass@host:port (leave unset to write mail to the outbox directory)')
    .optional(),
  MAIL_OUTBOX_DIR: z.string().min(1).optional(),
  MESHFRONT_DATA_DIR: z.string().min(1).default('var'),
  SUPPORT_EMAIL: z
    .string()
    .refine(isValidEmailAddress, 'must be one e-mail address')
    .default('support@meshfront.example'),
  SMTP_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
  MAIL_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(10),
  MAIL_RETRY_BASE_MS: z.coerce.number().int().min(10).max(3_600_000).default(30_000),
  MAIL_POLL_INTERVAL_MS: z.coerce.number().int().min(50).max(3_600_000).default(5000),
});

/** How the queue sends: attempts, backoff and the fallback poll. */
export type MailQueueSettings = {
  maxAttempts: number;
  retryBaseMs: number;
  pollIntervalMs: number;
};

export type MailSettings = {
  env: 'development' | 'test' | 'production';
  from: Mailbox;
  /** null → the file outbox. */
  smtpUrl: string | null;
  outboxDir: string;
  supportEmail: string;
  /** SMTP connection, greeting and per-command time limit. */
  smtpTimeoutMs: number;
  queue: MailQueueSettings;
};

export class MailSettingsError extends Error {
  override name = 'MailSettingsError';
}

/** Parse mail settings from an environment-like object. Throws MailSettingsError listing every bad variable. */
export function readMailSettings(env: Record<string, string | undefined> = process.env): MailSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new MailSettingsError(`Invalid mail settings:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  return {
    env: e.NODE_ENV,
    from: parseMailbox(e.MAIL_FROM)!,
    smtpUrl: e.SMTP_URL ?? null,
    outboxDir: path.resolve(e.MAIL_OUTBOX_DIR ?? path.join(e.MESHFRONT_DATA_DIR, 'mail')),
    supportEmail: e.SUPPORT_EMAIL,
    smtpTimeoutMs: e.SMTP_TIMEOUT_MS,
    queue: {
      maxAttempts: e.MAIL_MAX_ATTEMPTS,
      retryBaseMs: e.MAIL_RETRY_BASE_MS,
      pollIntervalMs: e.MAIL_POLL_INTERVAL_MS,
    },
  };
}

/** Never print a password from SMTP_URL into a log line. */
export function describeMailTransport(settings: MailSettings): string {
  if (!settings.smtpUrl) return `file outbox ${settings.outboxDir}`;
  const url = new URL(settings.smtpUrl);
  return `${url.protocol}//${url.hostname}${url.port ? `:${url.port}` : ''}`;
}
