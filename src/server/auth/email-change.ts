/**
 * Changing a customer's e-mail address, and undoing a change the owner did not make.
 *
 * The address is where password-reset links go, so changing it takes the account over: a change needs
 * the current password (checked and rate-limited like a login, see AuthService.checkCurrentPassword),
 * and the previous address gets a notice naming the new one partly hidden, with a "this wasn't me"
 * link. That link carries a sealed token (AES-256-GCM with a key derived from the auth secret: stateless,
 * tamper-proof and unreadable, so no address appears in a URL or a log) naming the account, both
 * addresses and an expiry. Opening it, and confirming on the page, puts the previous address back, ends
 * every login, retires the password (whoever made the change knew it) and mails a password-reset link to
 * the restored address. A token works only while the account still has the address it names as new, so
 * it is spent once the address is restored or changed again. The notice is queued in the transaction
 * that changes the address (mail/queue.ts), so no change goes unannounced.
 */
import crypto from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import { isEmail } from '../cart/address-validation.ts';
import type { Database, DbOrTx } from '../db/connection.ts';
import {
  AccountError,
  INVALID_EMAIL,
  storedEmail,
  type CustomerRow,
  type CustomerService,
  type ProfileUpdate,
} from '../customers/service.ts';
import { storedLocale, storefrontPrefix } from '../i18n/stored-locale.ts';
import { emailChanged, type MailQueue } from '../mail/index.ts';
import type { RateLimiter } from '../rate-limit/index.ts';
import { hashPassword } from './passwords.ts';
import type { AuthService } from './service.ts';
import type { AuthSettings } from './settings.ts';
import { authSessions } from './tables.ts';

export const EMAIL_CHANGE_NEEDS_PASSWORD = 'Please enter your current password to change your e-mail address.';
export const INVALID_REPORT_LINK = 'This link is invalid or has expired.';
export const REPORT_NO_LONGER_APPLIES =
  'This link no longer applies: the e-mail address of the account was already restored or has changed again since.';

/** The path of the storefront page the notice links to (it asks before anything happens). */
export const REPORT_PAGE_PATH = '/my-account/email-change-report';

type ReportClaims = { u: number; o: string; n: string; e: number };

const AAD = Buffer.from('meshfront email-change report v1');
const IV_BYTES = 12;
const TAG_BYTES = 16;

/**
 * 'mallory@evil.example' → 'ma***@e***.example': enough for the owner to recognise an address of theirs,
 * too little to hand a stranger who reads the old mailbox the new one.
 */
export function maskEmail(address: string): string {
  const at = address.lastIndexOf('@');
  if (at < 1) return '***';
  const local = [...address.slice(0, at)];
  const labels = address.slice(at + 1).split('.');
  const shown = local.slice(0, local.length > 5 ? 2 : 1).join('');
  const domain = labels.length > 1 ? `${[...labels[0]!][0] ?? ''}***.${labels[labels.length - 1]}` : '***';
  return `${shown}***@${domain}`;
}

export class EmailChangeService {
  constructor(
    private readonly db: Database,
    private readonly customers: CustomerService,
    private readonly auth: AuthService,
    private readonly limiter: RateLimiter,
    private readonly settings: AuthSettings,
    private readonly mail: MailQueue,
  ) {}

  /**
   * updateCustomer / updateUser for the logged-in `viewer`: a new e-mail address needs the current
   * password (unless this request already checked it for a password change) and is announced to the
   * previous address. Everything else goes through as before.
   */
  async updateProfile(
    viewer: CustomerRow,
    input: ProfileUpdate,
    check: { currentPassword?: string | null; clientIp: string; passwordChecked?: boolean },
  ): Promise<CustomerRow> {
    const next = input.email === undefined || input.email === null ? null : storedEmail(input.email);
    if (next !== null && next !== viewer.email.toLowerCase()) {
      if (!isEmail(next)) throw new AccountError(INVALID_EMAIL);
      if (!check.passwordChecked)
        await this.auth.checkCurrentPassword(
          viewer,
          check.currentPassword,
          check.clientIp,
          EMAIL_CHANGE_NEEDS_PASSWORD,
        );
    }
    const { updated, mailId } = await this.db.transaction(async (tx) => {
      const row = await this.customers.updateProfile(viewer.id, input, tx);
      const changed = row.email.toLowerCase() !== viewer.email.toLowerCase();
      return { updated: row, mailId: changed ? await this.queueNotice(tx, viewer, row) : null };
    });
    // The change stands (the customer asked for it and proved the password) whatever the delivery does.
    await this.mail.deliver([mailId]);
    return updated;
  }

  /** The notice to the previous address, queued with the change. */
  private queueNotice(tx: DbOrTx, before: CustomerRow, after: CustomerRow): Promise<number | null> {
    const token = this.seal({
      u: after.id,
      o: before.email.toLowerCase(),
      n: after.email.toLowerCase(),
      e: Math.floor(Date.now() / 1000) + this.settings.emailChangeReportTtlSeconds,
    });
    return this.mail.enqueue(tx, {
      kind: 'email-changed',
      event: `${after.id}.${crypto.randomBytes(9).toString('base64url')}`,
      to: before.email,
      ...emailChanged({
        maskedNewAddress: maskEmail(after.email),
        reportUrl: `${this.settings.siteUrl}${storefrontPrefix(storedLocale(after))}${REPORT_PAGE_PATH}?token=${token}`,
        customerName: before.firstName || before.username,
        validForDays: Math.round(this.settings.emailChangeReportTtlSeconds / 86_400),
        locale: storedLocale(after),
      }),
    });
  }

  /**
   * "This wasn't me": restores the previous address, ends every login of the account (as
   * AuthService.revokeAll), retires its password and mails a reset link to the restored address.
   * Returns that address partly hidden. Invalid tokens count against the address like wrong reset keys.
   */
  async report(token: string | null | undefined, clientIp: string): Promise<{ maskedEmail: string }> {
    const notAGuess = await this.auth.limitFailures('email-report:ip', clientIp, this.settings.limits.resetPerIp, 3600);
    const claims = typeof token === 'string' && token.length <= 1024 ? this.open(token) : null;
    if (!claims || claims.e * 1000 < Date.now()) throw new AccountError(INVALID_REPORT_LINK);
    await notAGuess();
    const user = await this.customers.get(claims.u);
    if (!user || user.email.toLowerCase() !== claims.n) throw new AccountError(REPORT_NO_LONGER_APPLIES);
    // A random password nobody knows: the one that allowed the change must not allow it again.
    const retired = await hashPassword(crypto.randomBytes(32).toString('base64url'), this.settings.scryptLog2N);
    const restored = await this.db.transaction(async (tx) => {
      const row = await this.customers.restoreEmail(user.id, claims.n, claims.o, tx);
      if (!row) return null;
      await this.customers.setPasswordHash(user.id, retired, { revokeTokens: true }, tx);
      await tx
        .update(authSessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(authSessions.userId, user.id), isNull(authSessions.revokedAt)));
      return row;
    });
    if (!restored) throw new AccountError(REPORT_NO_LONGER_APPLIES);
    console.warn(
      `[meshfront] user ${user.id} reported an e-mail change they did not make: address restored, logins ended`,
    );
    // The owner just proved the address; reset mails others asked for this hour must not use up theirs.
    await this.limiter.reset('reset:account', `user:${user.id}`);
    try {
      await this.auth.sendPasswordReset(restored.username, clientIp);
    } catch (err) {
      // Only the address's own reset limit can refuse here; the page points to "Forgot your password?".
      console.warn(
        `[meshfront] no password-reset e-mail after the e-mail-change report of user ${user.id}: ${(err as Error).message}`,
      );
    }
    return { maskedEmail: maskEmail(restored.email) };
  }

  private seal(claims: ReportClaims): string {
    const iv = crypto.randomBytes(IV_BYTES);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.settings.keys.emailChange, iv);
    cipher.setAAD(AAD);
    const body = Buffer.concat([cipher.update(JSON.stringify(claims), 'utf8'), cipher.final()]);
    return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
  }

  /** The token's claims, or null for anything not sealed with our key (tampered, truncated, foreign). */
  private open(token: string): ReportClaims | null {
    if (!/^[A-Za-z0-9_-]+$/.test(token)) return null;
    const raw = Buffer.from(token, 'base64url');
    if (raw.length <= IV_BYTES + TAG_BYTES) return null;
    try {
      const decipher = crypto.createDecipheriv(
        'aes-256-gcm',
        this.settings.keys.emailChange,
        raw.subarray(0, IV_BYTES),
        { authTagLength: TAG_BYTES },
      );
      decipher.setAAD(AAD);
      decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
      const text = Buffer.concat([
        decipher.update(raw.subarray(IV_BYTES, raw.length - TAG_BYTES)),
        decipher.final(),
      ]).toString('utf8');
      const c = JSON.parse(text) as Partial<ReportClaims>;
      if (
        !Number.isSafeInteger(c.u) ||
        typeof c.o !== 'string' ||
        typeof c.n !== 'string' ||
        !Number.isSafeInteger(c.e)
      )
        return null;
      return c as ReportClaims;
    } catch {
      return null;
    }
  }
}
