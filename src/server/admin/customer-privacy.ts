/**
 * The operator's side of customers' privacy requests (/admin/customers and `npm run shop -- customers`):
 * find a customer by e-mail address, hand them their data (the same export as their own "Download my
 * data", privacy/export.ts) or erase them on request (the same erasure as their own "Delete my account",
 * privacy/erase.ts). Each export and erasure writes an audit entry (audit/service.ts) naming who did it;
 * an erasure and its entry commit in one transaction.
 */
import { isEmail } from '../cart/address-validation.ts';
import type { CustomerRow } from '../customers/service.ts';
import { isShopManager } from '../customers/operator.ts';
import type { Engine } from '../engine/index.ts';
import { AuditLog, type AuditEntry } from '../audit/service.ts';
import type { ErasureReport } from '../privacy/erase.ts';
import { AdminError } from './errors.ts';

export type CustomerDataExport = { customer: CustomerRow; fileName: string; json: string };

export class CustomerPrivacyAdmin {
  readonly audit: AuditLog;

  constructor(private readonly engine: Engine) {
    this.audit = new AuditLog(engine.database.db, engine.config.sessionSecret);
  }

  /** The account with this e-mail address (any case); a refusal for anything that is not an address. */
  async find(email: string): Promise<CustomerRow | null> {
    const address = (email ?? '').trim().toLowerCase();
    if (!address || !isEmail(address)) throw new AdminError('Enter the e-mail address of a customer account.');
    return this.engine.accounts.customers.findByEmail(address);
  }

  private async existing(email: string): Promise<CustomerRow> {
    const customer = await this.find(email);
    if (!customer) throw new AdminError('There is no customer account with that e-mail address.', 'NOT_FOUND');
    return customer;
  }

  /** Everything the shop keeps about the customer, as the JSON file they would download themselves. */
  async exportData(email: string, actor: string): Promise<CustomerDataExport> {
    const customer = await this.existing(email);
    const json = JSON.stringify(await this.engine.accounts.personalData(customer), null, 2);
    await this.audit.record(this.engine.database.db, {
      actor,
      action: 'customer-export',
      customer: { id: customer.id, email: customer.email },
    });
    return { customer, fileName: `customer-${customer.id}-data-${new Date().toISOString().slice(0, 10)}.json`, json };
  }

  /**
   * Erases the customer (on their request). `confirmEmail` must repeat the address: an erasure cannot be
   * undone, so a slip of the hand on another row must not cause one.
   */
  async erase(email: string, confirmEmail: string, actor: string): Promise<ErasureReport> {
    const customer = await this.existing(email);
    if ((confirmEmail ?? '').trim().toLowerCase() !== customer.email.toLowerCase())
      throw new AdminError('Type the customer’s e-mail address again to confirm the erasure.');
    if (isShopManager(customer))
      throw new AdminError(
        'This account is a shop manager: take the role away first (it is not erased here).',
        'FORBIDDEN',
      );
    const report = await this.engine.accounts.eraser.erase(customer, {
      withErasure: async (tx, done) => {
        await this.audit.record(tx, {
          actor,
          action: 'customer-erase',
          customer: { id: customer.id, email: customer.email },
          detail: {
            ordersAnonymised: done.ordersAnonymised,
            reviewsAnonymised: done.reviewsAnonymised,
            reviewsDeleted: done.reviewsDeleted,
            contactMessagesDeleted: done.contactMessagesDeleted,
            newsletterSignUpDeleted: done.newsletterSignUpDeleted,
            mailsDeleted: done.mailsDeleted,
          },
        });
      },
    });
    if (!report) throw new AdminError('The account was erased in the meantime.', 'CONFLICT');
    return report;
  }

  /** The audit entries, newest first; those of one e-mail address when given (found by its reference). */
  async log(
    email: string | null,
    page: { limit: number; offset: number },
  ): Promise<{ total: number; rows: AuditEntry[] }> {
    const address = email?.trim() || null;
    if (address && !isEmail(address.toLowerCase())) throw new AdminError('Enter an e-mail address to search for.');
    return this.audit.list({ email: address, ...page });
  }
}
