/**
 * How the logged-in customer proves it is them before their account is deleted (privacy/erase.ts does
 * the deleting). An account with a password confirms with it, checked and rate-limited like a login
 * (AuthService.passwordMatches), so a stolen auth token alone deletes nothing. An account that logs in
 * through a login provider only has no password: it asks for a link by e-mail, which proves the mailbox.
 * The link's key is signed (HMAC with a key derived from the auth secret, so no row is needed) and names
 * the account, its token version and the login that asked, with an expiry: it works only in that login
 * (a mailbox reader without the login gets nothing), stops working when the customer logs out everywhere,
 * and is spent with the account it deletes. The page asks once more before anything happens.
 */
import crypto from 'node:crypto';
import type { LocaleCode } from '../../lib/i18n/locales.ts';
import type { Database } from '../db/connection.ts';
import type { CustomerRow } from '../customers/service.ts';
import { ShopperError } from '../i18n/shopper-error.ts';
import { storefrontPrefix } from '../i18n/stored-locale.ts';
import { text } from '../i18n/text.ts';
import { accountDeletionLink, type MailQueue } from '../mail/index.ts';
import type { AuthService } from './service.ts';
import type { AuthSettings } from './settings.ts';

/** How long the e-mailed link works. */
export const DELETION_LINK_MINUTES = 30;
/** Links one account may ask for per hour (each is a mail to the account's address). */
const LINKS_PER_HOUR = 3;
/** The account page's query parameter that carries the key. */
export const DELETION_LINK_PARAM = 'delete-account';

type LinkClaims = { u: number; v: number; s: string; e: number };

const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64url');

export class AccountDeletionConfirmation {
  constructor(
    private readonly db: Database,
    private readonly auth: AuthService,
    private readonly settings: AuthSettings,
    private readonly mail: MailQueue,
  ) {}

  /** Throws the refusal (in the shopper's language) unless `password` is the account's. */
  async checkPassword(user: CustomerRow, password: string | null | undefined, clientIp: string): Promise<void> {
    if (!user.passwordHash) throw new ShopperError(text('account.erase.noPassword'));
    if (!password) throw new ShopperError(text('account.erase.passwordMissing'));
    if (!(await this.auth.passwordMatches(user, password, clientIp)))
      throw new ShopperError(text('account.erase.passwordWrong'));
  }

  /** Throws the refusal unless `key` is a live link of this account for the login `sid`. */
  checkLink(user: CustomerRow, sid: string | null, key: string | null | undefined, now = Date.now()): void {
    const claims = key ? this.open(key) : null;
    if (!claims || !sid || claims.u !== user.id || claims.v !== user.tokenVersion || claims.s !== sid || claims.e < now)
      throw new ShopperError(text('account.erase.linkInvalid'));
  }

  /** Mails the account without a password the link that confirms its deletion, in `locale`. */
  async sendLink(user: CustomerRow, sid: string, locale: LocaleCode): Promise<void> {
    if (user.passwordHash) throw new ShopperError(text('account.erase.hasPassword'));
    await this.auth.limit('erase-link:account', `user:${user.id}`, LINKS_PER_HOUR, 3600);
    const key = this.seal({ u: user.id, v: user.tokenVersion, s: sid, e: Date.now() + DELETION_LINK_MINUTES * 60_000 });
    const confirmUrl = `${this.settings.siteUrl}${storefrontPrefix(locale)}/my-account?tab=details&${DELETION_LINK_PARAM}=${encodeURIComponent(key)}`;
    const mailId = await this.db.transaction((tx) =>
      this.mail.enqueue(tx, {
        kind: 'account-deletion-link',
        event: crypto.createHash('sha256').update(key).digest('base64url').slice(0, 22),
        // Only the newest link's mail is still sent.
        topic: `account-deletion:${user.id}`,
        to: user.email,
        ...accountDeletionLink({
          confirmUrl,
          customerName: user.firstName || user.username,
          validForMinutes: DELETION_LINK_MINUTES,
          locale,
        }),
      }),
    );
    await this.mail.deliver([mailId]);
  }

  private mac(payload: string): Buffer {
    return crypto.createHmac('sha256', this.settings.keys.accountDeletion).update(payload).digest();
  }

  private seal(claims: LinkClaims): string {
    const payload = b64(JSON.stringify(claims));
    return `${payload}.${b64(this.mac(payload))}`;
  }

  private open(key: string): LinkClaims | null {
    if (key.length > 1000) return null;
    const [payload, tag, extra] = key.split('.');
    if (!payload || !tag || extra !== undefined) return null;
    const expected = this.mac(payload);
    const given = Buffer.from(tag, 'base64url');
    if (given.length !== expected.length || !crypto.timingSafeEqual(given, expected)) return null;
    try {
      const c = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<LinkClaims>;
      if (typeof c.u !== 'number' || typeof c.v !== 'number' || typeof c.s !== 'string' || typeof c.e !== 'number')
        return null;
      return { u: c.u, v: c.v, s: c.s, e: c.e };
    } catch {
      return null;
    }
  }
}
