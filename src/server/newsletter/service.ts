/**
 * The newsletter domain's service: double opt-in sign-up, confirmation and unsubscribe.
 *
 * - subscribe: a new (or previously unsubscribed, or still unconfirmed) address becomes `pending` with a
 *   fresh single-use confirmation token, and gets the confirmation mail (queued in the same transaction,
 *   mail/queue.ts; so is the welcome mail below). An address that is already
 *   confirmed is left alone and gets no mail. The caller answers the same either way, so the form never
 *   tells anyone whether an address is on the list.
 * - confirm: one UPDATE that matches the token's hash, the pending state and the expiry, and clears the
 *   hash — so a token works once, even when two clicks race. Sends the welcome mail with an unsubscribe
 *   link (a second random token, reusable).
 * - unsubscribe: by that token; idempotent.
 */
import crypto from 'node:crypto';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Database } from '../db/connection.ts';
import { storedLocale } from '../i18n/stored-locale.ts';
import { newsletterConfirm, newsletterWelcome, type Brand, type MailQueue } from '../mail/index.ts';
import type { RateLimiter } from '../rate-limit/index.ts';
import type { NewsletterSettings } from './settings.ts';
import { newsletterSubscribers } from './tables.ts';

export type NewsletterServiceOptions = {
  mail: MailQueue;
  limiter: RateLimiter;
  settings: NewsletterSettings;
  brand?: Brand;
  /** The current time (tests move it forward to expire links). */
  now?: () => Date;
  log?: (message: string) => void;
};

export type ConfirmResult =
  | { ok: true; locale: string }
  | { ok: false; reason: 'invalid' | 'expired'; locale: string | null };

const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export function newToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token).digest('hex');
}

/** Tokens are 32 random bytes, base64url: anything else is refused before it reaches the database. */
export function isWellFormedToken(token: unknown): token is string {
  return typeof token === 'string' && TOKEN_PATTERN.test(token);
}

export class NewsletterService {
  private readonly now: () => Date;
  private readonly log: (message: string) => void;

  constructor(
    private readonly db: Database,
    private readonly options: NewsletterServiceOptions,
  ) {
    this.now = options.now ?? (() => new Date());
    this.log = options.log ?? ((m) => console.error(`[meshfront] ${m}`));
  }

  /**
   * Start (or restart) a sign-up. `baseUrl` is the origin the confirmation link points to.
   * Resolves to whether a confirmation mail was queued (for tests and logs only — never tell the visitor).
   */
  async subscribe(
    email: string,
    locale: string,
    meta: { ip: string | null; baseUrl: string },
  ): Promise<{ mailed: boolean }> {
    const address = email.trim().toLowerCase();
    // One address gets only a few confirmation mails an hour, whoever asks for them.
    const perAddress = await this.options.limiter.consume({
      bucket: 'newsletter:address',
      key: address,
      limit: this.options.settings.perHourPerAddress,
      windowSeconds: 3600,
    });
    if (!perAddress.allowed) return { mailed: false };

    const token = newToken();
    const now = this.now();
    const expiresAt = new Date(now.getTime() + this.options.settings.confirmSeconds * 1000);
    const confirmUrl = `${meta.baseUrl}/api/newsletter/confirm?token=${token}`;
    const mailId = await this.db.transaction(async (tx) => {
      const rows = await tx
        .insert(newsletterSubscribers)
        .values({
          email: address,
          locale,
          status: 'pending',
          confirmTokenHash: hashToken(token),
          confirmExpiresAt: expiresAt,
          subscribedIp: meta.ip,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: newsletterSubscribers.email,
          set: {
            locale,
            status: 'pending',
            confirmTokenHash: hashToken(token),
            confirmExpiresAt: expiresAt,
            unsubscribeTokenHash: null,
            subscribedIp: meta.ip,
            updatedAt: now,
          },
          // A confirmed subscriber stays as is: nobody can reset someone else's subscription to pending.
          setWhere: sql`${newsletterSubscribers.status} <> 'confirmed'`,
        })
        .returning({ id: newsletterSubscribers.id });
      const row = rows[0];
      if (!row) return undefined;
      // Only the newest link works: an older confirmation mail still waiting to go out is cancelled.
      return this.options.mail.enqueue(tx, {
        kind: 'newsletter-confirmation',
        event: `${row.id}.${hashToken(token).slice(0, 16)}`,
        topic: `newsletter-confirmation:${row.id}`,
        to: address,
        ...newsletterConfirm({ confirmUrl, locale: storedLocale({ locale }) }, this.options.brand),
      });
    });
    if (mailId === undefined) return { mailed: false };
    if (mailId === null) {
      // Answering differently here would tell new addresses from known ones; logged for the operator instead.
      this.log('newsletter confirmation mail cannot be sent (kept as failed in the mail queue)');
      return { mailed: false };
    }
    await this.options.mail.deliver([mailId]);
    return { mailed: true };
  }

  async confirm(token: string, meta: { ip: string | null; baseUrl: string }): Promise<ConfirmResult> {
    if (!isWellFormedToken(token)) return { ok: false, reason: 'invalid', locale: null };
    const hash = hashToken(token);
    const now = this.now();
    const unsubscribeToken = newToken();
    const unsubscribeUrl = `${meta.baseUrl}/api/newsletter/unsubscribe?token=${unsubscribeToken}`;
    const confirmed = await this.db.transaction(async (tx) => {
      const [row] = await tx
        .update(newsletterSubscribers)
        .set({
          status: 'confirmed',
          confirmTokenHash: null,
          confirmExpiresAt: null,
          unsubscribeTokenHash: hashToken(unsubscribeToken),
          confirmedAt: now,
          confirmedIp: meta.ip,
          unsubscribedAt: null,
          updatedAt: now,
        })
        .where(
          and(
            eq(newsletterSubscribers.confirmTokenHash, hash),
            eq(newsletterSubscribers.status, 'pending'),
            gt(newsletterSubscribers.confirmExpiresAt, now),
          ),
        )
        .returning({
          id: newsletterSubscribers.id,
          email: newsletterSubscribers.email,
          locale: newsletterSubscribers.locale,
        });
      if (!row) return null;
      // The subscription stands even if the welcome (and its unsubscribe link) cannot go out; later mails
      // carry their own.
      const mailId = await this.options.mail.enqueue(tx, {
        kind: 'newsletter-welcome',
        event: `${row.id}.${hashToken(unsubscribeToken).slice(0, 16)}`,
        to: row.email,
        ...newsletterWelcome(
          { unsubscribeUrl, oneClickUnsubscribe: true, locale: storedLocale(row) },
          this.options.brand,
        ),
      });
      return { locale: row.locale, mailId };
    });
    if (!confirmed) {
      const [stale] = await this.db
        .select({ locale: newsletterSubscribers.locale })
        .from(newsletterSubscribers)
        .where(eq(newsletterSubscribers.confirmTokenHash, hash));
      return stale
        ? { ok: false, reason: 'expired', locale: stale.locale }
        : { ok: false, reason: 'invalid', locale: null };
    }
    await this.options.mail.deliver([confirmed.mailId]);
    return { ok: true, locale: confirmed.locale };
  }

  /** The locale of the subscriber an unsubscribe token belongs to, or null if it belongs to none. */
  async unsubscribeTokenLocale(token: string): Promise<string | null> {
    if (!isWellFormedToken(token)) return null;
    const [row] = await this.db
      .select({ locale: newsletterSubscribers.locale })
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.unsubscribeTokenHash, hashToken(token)));
    return row?.locale ?? null;
  }

  /** Unsubscribe by token; true also when already unsubscribed. */
  async unsubscribe(token: string): Promise<{ ok: boolean; locale: string | null }> {
    if (!isWellFormedToken(token)) return { ok: false, locale: null };
    const now = this.now();
    const [row] = await this.db
      .update(newsletterSubscribers)
      .set({
        status: 'unsubscribed',
        unsubscribedAt: sql`coalesce(${newsletterSubscribers.unsubscribedAt}, ${now.toISOString()}::timestamptz)`,
        updatedAt: now,
      })
      .where(eq(newsletterSubscribers.unsubscribeTokenHash, hashToken(token)))
      .returning({ locale: newsletterSubscribers.locale });
    return row ? { ok: true, locale: row.locale } : { ok: false, locale: null };
  }

  async find(email: string) {
    const [row] = await this.db
      .select()
      .from(newsletterSubscribers)
      .where(eq(newsletterSubscribers.email, email.trim().toLowerCase()));
    return row ?? null;
  }
}
