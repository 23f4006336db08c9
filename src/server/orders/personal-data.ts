/**
 * What erasing a customer (src/server/privacy/erase.ts) does to their orders. The orders stay: tax law
 * keeps them (and the invoices issued for them, which the invoice domain keeps exactly as issued) for
 * years. What names the person goes, the way WooCommerce's "remove personal data from orders" does:
 * names, company, street, city, postcode, state, phone and e-mail of both addresses and the customer's
 * note become placeholders, and the order no longer belongs to any account (customer id 0, a guest's).
 * Kept on purpose: the country (the place of supply decides the VAT rate and the per-country VAT
 * return), the VAT ID and its VIES check (the evidence of a reverse charge), amounts and lines, and the
 * payment's reference (refunds and the card reconciliation find the order by it).
 */
import { and, eq, or, sql } from 'drizzle-orm';
import type { Address } from '../cart/model.ts';
import type { DbOrTx } from '../db/connection.ts';
import { orderNotes, orders } from './tables.ts';

/** WordPress's placeholders for erased text and e-mail (wp_privacy_anonymize_data). */
export const ERASED_TEXT = '[deleted]';
export const ERASED_EMAIL = 'deleted@site.invalid';
/** The customer id of an order without an account (WooCommerce's 0). */
export const NO_CUSTOMER = '0';
/** Marks an order whose personal data was removed (WooCommerce's own meta key). */
const ANONYMISED_META = '_anonymized';

const blankOr = (value: string | undefined, placeholder: string) => (value ? placeholder : '');

/** An order's address without the person: only the country (and a business's VAT ID) stays. */
export function anonymisedAddress(a: Address): Address {
  return {
    firstName: blankOr(a.firstName, ERASED_TEXT),
    lastName: blankOr(a.lastName, ERASED_TEXT),
    company: blankOr(a.company, ERASED_TEXT),
    address1: blankOr(a.address1, ERASED_TEXT),
    address2: blankOr(a.address2, ERASED_TEXT),
    city: blankOr(a.city, ERASED_TEXT),
    state: '',
    postcode: blankOr(a.postcode, ERASED_TEXT),
    country: a.country,
    email: blankOr(a.email, ERASED_EMAIL),
    phone: '',
    ...(a.vatId !== undefined ? { vatId: a.vatId } : {}),
  };
}

/**
 * Detaches and anonymises the orders of account `userId` and, when `guestEmail` is given (an address the
 * customer proved to be theirs), the guest orders placed with that billing e-mail. Returns how many.
 */
export async function anonymiseOrdersOf(tx: DbOrTx, userId: number, guestEmail: string | null): Promise<number> {
  const mine = eq(orders.customerId, String(userId));
  const where = guestEmail
    ? or(
        mine,
        and(
          sql`left(${orders.customerId}, 2) = 't_'`,
          sql`lower(${orders.billing}->>'email') = ${guestEmail.trim().toLowerCase()}`,
        ),
      )
    : mine;
  const rows = await tx
    .select({ id: orders.id, billing: orders.billing, shipping: orders.shipping, metaData: orders.metaData })
    .from(orders)
    .where(where)
    .for('update');
  for (const o of rows) {
    await tx
      .update(orders)
      .set({
        customerId: NO_CUSTOMER,
        billing: anonymisedAddress(o.billing),
        shipping: anonymisedAddress(o.shipping),
        customerNote: '',
        metaData: [...o.metaData.filter((m) => m.key !== ANONYMISED_META), { key: ANONYMISED_META, value: 'yes' }],
        dateModified: new Date(),
      })
      .where(eq(orders.id, o.id));
  }
  if (rows.length)
    await tx.insert(orderNotes).values(rows.map((o) => ({ orderId: o.id, note: 'Personal data removed.' })));
  return rows.length;
}
