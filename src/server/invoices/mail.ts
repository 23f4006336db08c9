/**
 * The invoice mail of an order paid after its confirmation went out (a KDA payment the watcher saw, a
 * card payment confirmed by Stripe's webhook, an order on hold an operator moved on): the invoice PDF
 * with a short note in the order's language. An order paid at checkout gets its invoice with the
 * confirmation instead, so it gets no second mail.
 */
import type { DbOrTx } from '../db/connection.ts';
import { storedLocale, storefrontPrefix } from '../i18n/stored-locale.ts';
import { orderInvoice, type Brand, type MailQueue } from '../mail/index.ts';
import type { OrderRow } from '../orders/service.ts';
import type { InvoiceRow } from './service.ts';

export async function queueInvoiceMail(
  mail: MailQueue,
  tx: DbOrTx,
  order: OrderRow,
  invoice: InvoiceRow,
  brand: Brand,
): Promise<void> {
  if (invoice.kind !== 'invoice' || !order.billing.email) return;
  if (!(await mail.wasQueued(tx, 'order-confirmation', order.id))) return;
  // The invoice was issued in the order's language; a language the shop no longer has reads as English.
  const locale = storedLocale(invoice);
  await mail.enqueue(tx, {
    kind: 'order-invoice',
    event: invoice.id,
    to: order.billing.email,
    ...orderInvoice(
      {
        invoiceNumber: invoice.number,
        orderNumber: String(order.id),
        orderUrl: `${brand.shopUrl.replace(/\/+$/, '')}${storefrontPrefix(locale)}/checkout/order-received/${order.id}/?key=${order.orderKey}`,
        locale,
      },
      brand,
    ),
    attach: [{ kind: 'invoice', id: invoice.id }],
  });
}
