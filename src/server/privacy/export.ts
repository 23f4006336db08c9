/**
 * A customer's copy of everything the shop keeps about them (the right of access and to data portability):
 * the account and its addresses, logins and linked login providers, orders with their lines, reviews,
 * the wishlist, the newsletter sign-up and contact messages — as one JSON document, each part read through
 * the domain that owns it. Secrets are never in it (password hash, token hashes, session tokens); amounts
 * are decimal strings in the order's currency, times ISO 8601.
 */
import { reviewsWrittenBy } from '../catalog/reviews.ts';
import type { CatalogService } from '../catalog/service.ts';
import { contactMessagesFrom } from '../contact/personal-data.ts';
import type { CustomerRow } from '../customers/service.ts';
import type { Database } from '../db/connection.ts';
import { newsletterSignUpOf } from '../newsletter/personal-data.ts';
import type { OrderService } from '../orders/service.ts';
import type { WishlistService } from '../wishlist/service.ts';
import { loginsOf } from '../auth/personal-data.ts';

export type PersonalDataDeps = {
  db: Database;
  orders: Pick<OrderService, 'listByCustomer' | 'items'>;
  wishlist: Pick<WishlistService, 'productIds'>;
  catalog: Pick<CatalogService, 'snapshot'>;
  shopName: string;
};

/** Orders in the export: all of them (the list the account shows stops at 100). */
const MAX_ORDERS = 10_000;

const amount = (cents: number) => (cents / 100).toFixed(2);

export async function exportPersonalData(deps: PersonalDataDeps, customer: CustomerRow) {
  const { db } = deps;
  const orders = await deps.orders.listByCustomer(String(customer.id), MAX_ORDERS);
  const snapshot = await deps.catalog.snapshot();
  const wishlist = (await deps.wishlist.productIds(customer.id)).map((id) => {
    const product = snapshot.productsById.get(id);
    return { product: product?.name ?? null, slug: product?.slug ?? null };
  });
  return {
    exportedAt: new Date().toISOString(),
    shop: deps.shopName,
    account: {
      id: customer.id,
      username: customer.username,
      email: customer.email,
      emailVerifiedAt: customer.emailVerifiedAt,
      firstName: customer.firstName,
      lastName: customer.lastName,
      displayName: customer.displayName,
      language: customer.locale,
      role: customer.role,
      createdAt: customer.createdAt,
      hasPassword: !!customer.passwordHash,
    },
    addresses: { billing: customer.billing, shipping: customer.shipping },
    ...(await loginsOf(db, customer.id)),
    orders: await Promise.all(
      orders.map(async (o) => ({
        number: String(o.id),
        date: o.dateCreated,
        status: o.status,
        currency: o.currency,
        total: amount(o.totalCents),
        tax: amount(o.totalTaxCents),
        shipping: amount(o.shippingCents),
        discount: amount(o.discountCents),
        paymentMethod: o.paymentMethodTitle,
        vatId: o.vatId || null,
        customerNote: o.customerNote || null,
        billingAddress: o.billing,
        shippingAddress: o.shipping,
        lines: (await deps.orders.items(o.id)).map((i) => ({
          product: i.name,
          sku: i.sku || null,
          choices: i.attributeNames.map((a) => `${a.name}: ${a.value}`),
          quantity: i.quantity,
          total: amount(i.totalCents + i.totalTaxCents),
        })),
      })),
    ),
    reviews: (await reviewsWrittenBy(db, customer.email)).map((r) => ({
      product: r.productName,
      date: r.date,
      author: r.author,
      rating: r.rating,
      text: r.content,
      status: r.status,
    })),
    wishlist,
    newsletter: await newsletterSignUpOf(db, customer.email),
    contactMessages: await contactMessagesFrom(db, customer.email),
  };
}
