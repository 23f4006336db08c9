/**
 * The invoice mail of an order paid after its confirmation went out (a KDA payment the watcher saw, a
 * card payment confirmed by Stripe's webhook, an order on hold an operator moved on): the invoice PDF
 * with a short note in the order's language. An order paid at checkout gets its invoice with the
 * confirmation instead, so it gets no second mail.
 */
import type { DbOrTx } from '../db/connection.ts';
import { html, requireHttpUrl } from '../mail/html.ts';
import type { MailQueue } from '../mail/index.ts';
import { blocks, renderHtmlLayout, renderTextLayout, type Brand } from '../mail/layout.ts';
import type { OrderRow } from '../orders/service.ts';
import { invoiceText } from './pdf.ts';
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
  const text = invoiceText(invoice.locale, order.currency);
  const params = { number: invoice.number, order: order.id };
  const subject = text.t('mailSubject', params);
  const body = text.t('mailBody', params);
  const orderUrl = requireHttpUrl(
    `${brand.shopUrl.replace(/\/+$/, '')}/checkout/order-received/${order.id}/?key=${order.orderKey}`,
    'orderUrl',
  );
  const layout = {
    brand,
    preheader: body,
    heading: subject,
    bodyHtml: html`${blocks.paragraph(body)}
${blocks.button(orderUrl, subject)}
${blocks.fallbackLink(orderUrl)}`,
    bodyText: `${body}\n\n${orderUrl}`,
    footerNote: subject,
    language: invoice.locale.replace('_', '-'),
  };
  await mail.enqueue(tx, {
    kind: 'order-invoice',
    event: invoice.id,
    to: order.billing.email,
    subject,
    text: renderTextLayout(layout),
    html: renderHtmlLayout(layout),
    attach: [{ kind: 'invoice', id: invoice.id }],
  });
}
