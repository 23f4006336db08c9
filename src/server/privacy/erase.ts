/**
 * Erasing a customer (the right to erasure): the account's own "Delete my account", and the operator's
 * erasure on request (/admin, `npm run shop -- customers erase`). One transaction, each kind of data
 * through the domain that owns it:
 *  - orders stay for the tax office, detached from the account and without the person's name, addresses,
 *    phone, e-mail and note (orders/personal-data.ts); the invoices and credit notes issued for them are
 *    not touched: they are kept exactly as issued, and the operator can still download them;
 *  - published reviews stay without the writer's name and address, unpublished ones go (catalog/reviews.ts);
 *  - everything else is deleted: contact messages, the newsletter sign-up, the wishlist, every login,
 *    reset and verification key and linked login provider, the stored session with its cart, the mails
 *    to the address, and last the account itself, so its e-mail address is free to register again;
 *  - the account's customer at Stripe, with the cards saved there, is deleted first, before anything in
 *    the shop: when Stripe cannot be reached the erasure is refused (try again later) rather than leave
 *    the cards behind with no account left to find them by.
 * The confirmation mail to the address is queued in the same transaction (it is the address's last use).
 */
import { anonymiseReviewsBy } from '../catalog/reviews.ts';
import type { CatalogService } from '../catalog/service.ts';
import { eraseContactMessagesFrom } from '../contact/personal-data.ts';
import type { CustomerRow, CustomerService } from '../customers/service.ts';
import type { Database, DbOrTx } from '../db/connection.ts';
import { ShopperError } from '../i18n/shopper-error.ts';
import { storedLocale } from '../i18n/stored-locale.ts';
import { text } from '../i18n/text.ts';
import { accountDeleted, type MailQueue } from '../mail/index.ts';
import { eraseNewsletterSignUpOf } from '../newsletter/personal-data.ts';
import { anonymiseOrdersOf } from '../orders/personal-data.ts';
import type { SessionService } from '../session/service.ts';
import { eraseWishlistOf } from '../wishlist/personal-data.ts';
import { eraseLoginsOf } from '../auth/personal-data.ts';
import type { LocaleCode } from '../../lib/i18n/locales.ts';

export type ErasureDeps = {
  db: Database;
  customers: Pick<CustomerService, 'get' | 'lockForChange' | 'delete'>;
  /** Deletes the account's Stripe customer (null: card payments are switched off). */
  stripeCustomers: { deleteCustomer(id: string): Promise<void> } | null;
  log: (message: string) => void;
  sessions: Pick<SessionService, 'destroy'>;
  mail: Pick<MailQueue, 'enqueue' | 'deliver' | 'forgetMailsTo'>;
  catalog: Pick<CatalogService, 'invalidate'>;
};

/** What one erasure did: counts only, never the person's data (it goes to logs and the audit). */
export type ErasureReport = {
  customerId: number;
  ordersAnonymised: number;
  reviewsAnonymised: number;
  reviewsDeleted: number;
  contactMessagesDeleted: number;
  newsletterSignUpDeleted: boolean;
  mailsDeleted: number;
};

export type ErasureOptions = {
  /** The confirmation mail's language (default: the account's). */
  locale?: LocaleCode;
  /** Work that must commit with the erasure (the operator's audit entry), in its transaction. */
  withErasure?: (tx: DbOrTx, report: ErasureReport) => Promise<void>;
};

/** Shop managers are not erased: the role must be taken away first, so the shop never loses its last operator by accident. */
export const SHOP_MANAGER_REFUSAL = text('account.erase.shopManager');

export class CustomerEraser {
  constructor(private readonly deps: ErasureDeps) {}

  private async deleteStripeCustomer(accountId: number, stripeCustomerId: string): Promise<void> {
    const stripe = this.deps.stripeCustomers;
    if (!stripe) {
      // Card payments were switched off after the customer paid by card: the operator deletes it by hand.
      this.deps.log(
        `erasing account ${accountId}: card payments are off, so its Stripe customer (metadata meshfront_user=${accountId}) must be deleted in Stripe's dashboard`,
      );
      return;
    }
    try {
      await stripe.deleteCustomer(stripeCustomerId);
    } catch {
      throw new ShopperError(text('account.erase.paymentProviderDown'), 'SERVICE_UNAVAILABLE');
    }
  }

  /** Erases `customer`; null when the account was gone already (erased by another request). */
  async erase(customer: Pick<CustomerRow, 'id'>, options: ErasureOptions = {}): Promise<ErasureReport | null> {
    const { db, customers, sessions, mail } = this.deps;
    const account = await customers.get(customer.id);
    if (account?.role === 'shop_manager') throw new ShopperError(SHOP_MANAGER_REFUSAL, 'FORBIDDEN');
    if (account?.stripeCustomerId) await this.deleteStripeCustomer(account.id, account.stripeCustomerId);
    const done = await db.transaction(async (tx) => {
      const current = await customers.lockForChange(customer.id, tx);
      if (!current) return null;
      if (current.role === 'shop_manager') throw new ShopperError(SHOP_MANAGER_REFUSAL, 'FORBIDDEN');
      const email = current.email;
      // Guest orders placed with the address count as the customer's only once the address was proven theirs.
      const ordersAnonymised = await anonymiseOrdersOf(tx, current.id, current.emailVerifiedAt ? email : null);
      const reviews = await anonymiseReviewsBy(tx, email);
      const contactMessagesDeleted = await eraseContactMessagesFrom(tx, email);
      const newsletterSignUpDeleted = await eraseNewsletterSignUpOf(tx, email);
      await eraseWishlistOf(tx, current.id);
      await eraseLoginsOf(tx, current.id);
      await sessions.destroy(String(current.id), tx);
      const mailsDeleted = await mail.forgetMailsTo(tx, email);
      await customers.delete(current.id, tx);
      const report: ErasureReport = {
        customerId: current.id,
        ordersAnonymised,
        reviewsAnonymised: reviews.anonymised,
        reviewsDeleted: reviews.deleted,
        contactMessagesDeleted,
        newsletterSignUpDeleted,
        mailsDeleted,
      };
      const mailId = await mail.enqueue(tx, {
        kind: 'account-deleted',
        event: current.id,
        to: email,
        ...accountDeleted({
          customerName: current.firstName || current.username,
          keptOrders: ordersAnonymised,
          locale: options.locale ?? storedLocale(current),
        }),
      });
      await options.withErasure?.(tx, report);
      return { report, mailId };
    });
    if (!done) return null;
    if (done.report.reviewsAnonymised) this.deps.catalog.invalidate();
    await mail.deliver([done.mailId]);
    return done.report;
  }
}
