/**
 * How long the shop keeps data it no longer needs (empty values count as unset). Personal data is kept
 * only as long as its purpose lasts: a contact message until it is long answered, an unconfirmed newsletter
 * sign-up until its confirmation link is long dead, a sent mail until nobody will ask about its delivery.
 * Orders and invoices are not swept: tax law keeps them for years.
 *   RETENTION_SWEEP_INTERVAL_MINUTES   how often the sweep runs (one process at a time); 0 = never (default 60)
 *   RETENTION_CONTACT_MESSAGE_DAYS     contact messages, counted from when they were sent (default 365)
 *   RETENTION_NEWSLETTER_PENDING_DAYS  sign-ups never confirmed, counted from the sign-up (default 30)
 *   RETENTION_MAIL_SENT_DAYS           sent and cancelled mails in the outbox (default 30)
 *   RETENTION_MAIL_FAILED_DAYS         mails that could not be delivered (default 90)
 * Expired sessions, logins, reset and verification keys and rate-limit windows have no setting: each is
 * deleted once it can no longer be used (revoked logins a day later, for the audit of a takeover).
 */
import { z } from 'zod';

export type RetentionSettings = {
  intervalMs: number;
  contactMessageDays: number;
  newsletterPendingDays: number;
  mailSentDays: number;
  mailFailedDays: number;
};

const days = (fallback: number) => z.coerce.number().int().min(1).max(36_500).default(fallback);

const envSchema = z.object({
  RETENTION_SWEEP_INTERVAL_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(7 * 24 * 60)
    .default(60),
  RETENTION_CONTACT_MESSAGE_DAYS: days(365),
  RETENTION_NEWSLETTER_PENDING_DAYS: days(30),
  RETENTION_MAIL_SENT_DAYS: days(30),
  RETENTION_MAIL_FAILED_DAYS: days(90),
});

export function readRetentionSettings(env: Record<string, string | undefined> = process.env): RetentionSettings {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(cleaned);
  if (!parsed.success)
    throw new Error(
      `Invalid retention settings:\n${parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  const d = parsed.data;
  return {
    intervalMs: d.RETENTION_SWEEP_INTERVAL_MINUTES * 60_000,
    contactMessageDays: d.RETENTION_CONTACT_MESSAGE_DAYS,
    newsletterPendingDays: d.RETENTION_NEWSLETTER_PENDING_DAYS,
    mailSentDays: d.RETENTION_MAIL_SENT_DAYS,
    mailFailedDays: d.RETENTION_MAIL_FAILED_DAYS,
  };
}
