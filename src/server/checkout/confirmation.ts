/**
 * The order confirmation e-mail: queued in the order's own transaction (mail/queue.ts), so every order
 * that committed has its confirmation, even when the process dies right after answering the shopper;
 * the queue sends it once the order committed (woken after the commit) and retries failures. A mail that
 * cannot be sent never undoes an order: only a database failure to queue it does, with the order.
 */
import type { DbOrTx } from '../db/connection.ts';
import type { MailQueue, QueuedMail } from '../mail/queue.ts';
import { orderConfirmation } from '../mail/templates/index.ts';
import { storedLocale, storefrontPrefix } from '../i18n/stored-locale.ts';
import { renderText, text } from '../i18n/text.ts';
import { displayedOrderAmounts } from './order-display.ts';
import type { OrderRow, OrderService } from '../orders/service.ts';
import type { AfterOrder, InOrderTransaction } from './service.ts';

export class OrderConfirmations {
  private readonly site: string;

  constructor(
    private readonly mail: MailQueue,
    private readonly orders: OrderService,
    site: string,
    /** TAX_DISPLAY_CART: amounts shown with their tax or without. */
    private readonly taxDisplay: 'incl' | 'excl' = 'incl',
    /** The files the mail carries (the order's invoice, once it has one). */
    private readonly attachmentsFor: (tx: DbOrTx, order: OrderRow) => Promise<QueuedMail['attach']> = async () => [],
  ) {
    this.site = site.replace(/\/+$/, '');
  }

  /** The checkout's in-transaction hook: queues the confirmation with the order. */
  readonly withOrder: InOrderTransaction = async (tx, order) => {
    await this.queue(tx, order);
  };

  /** The checkout's after-order hook: the order committed, so its confirmation can go now. */
  readonly afterOrder: AfterOrder = () => {
    this.mail.wake();
  };

  private async queue(tx: DbOrTx, order: OrderRow): Promise<void> {
    if (!order.billing.email) return;
    const items = await this.orders.items(order.id, tx);
    // As the cart and the checkout showed them: with their tax, when the shop shows prices so.
    const shown = displayedOrderAmounts(order, items, this.taxDisplay);
    // Written in the language the order was placed in (an unknown value in the column reads as English).
    const locale = storedLocale(order);
    const content = orderConfirmation({
      orderNumber: String(order.id),
      orderDate: order.dateCreated,
      customerName: order.billing.firstName || null,
      currency: order.currency,
      lineItems: items.map((i, n) => ({ name: i.name, quantity: i.quantity, totalCents: shown.lineCents[n]! })),
      subtotalCents: shown.subtotalCents,
      discountCents: shown.discountCents,
      shippingCents: order.shippingLines.length ? shown.shippingCents : undefined,
      shippingMethod: order.shippingLines[0]?.label ?? null,
      taxCents: shown.taxCents,
      taxIncluded: shown.taxIncluded,
      totalCents: shown.totalCents,
      vatId: order.vatId,
      vatNote: order.vatNote,
      paymentMethodTitle: order.paymentMethodTitle,
      paymentInstructions:
        order.paymentMethod === 'cod'
          ? renderText(text('mail.order.codInstructions'), locale)
          : order.paymentCurrency && order.status === 'pending'
            ? renderText(
                text('mail.order.kdaInstructions', {
                  amount: order.cryptoAmount ?? '',
                  currency: order.paymentCurrency,
                  address: order.paymentAddress ?? '',
                  deadline: order.paymentExpiresAt?.toISOString() ?? '',
                }),
                locale,
              )
            : null,
      billingAddress: order.billing,
      shippingAddress: order.shipping.address1 ? order.shipping : null,
      customerNote: order.customerNote || null,
      orderUrl: `${this.site}${storefrontPrefix(locale)}/checkout/order-received/${order.id}/?key=${order.orderKey}`,
      locale,
    });
    await this.mail.enqueue(tx, {
      kind: 'order-confirmation',
      event: order.id,
      to: order.billing.email,
      ...content,
      attach: await this.attachmentsFor(tx, order),
    });
  }
}
