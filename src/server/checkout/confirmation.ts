/**
 * The order confirmation e-mail, sent after the order committed: a mail failure never undoes an order,
 * it is logged. `close` waits for the mails still being sent (engine shutdown).
 */
import type { Mailer } from '../mail/mailer.ts';
import { orderConfirmation } from '../mail/templates.ts';
import type { OrderRow, OrderService } from '../orders/service.ts';
import { errorSummary } from '../error-summary.ts';
import type { AfterOrder } from './service.ts';

export class OrderConfirmations {
  private readonly pending = new Set<Promise<void>>();
  private readonly site: string;

  constructor(
    private readonly mailer: Mailer,
    private readonly orders: OrderService,
    site: string,
    private readonly log: (message: string) => void,
  ) {
    this.site = site.replace(/\/+$/, '');
  }

  /** The checkout's after-order hook: starts the mail and returns at once. */
  readonly afterOrder: AfterOrder = (order) => {
    const p: Promise<void> = this.send(order)
      .catch((err) => this.log(`order confirmation for order ${order.id} not sent: ${errorSummary(err)}`))
      .finally(() => this.pending.delete(p));
    this.pending.add(p);
  };

  async close(): Promise<void> {
    await Promise.allSettled([...this.pending]);
  }

  private async send(order: OrderRow): Promise<void> {
    if (!order.billing.email) return;
    const items = await this.orders.items(order.id);
    const content = orderConfirmation({
      orderNumber: String(order.id),
      orderDate: order.dateCreated,
      customerName: order.billing.firstName || null,
      currency: order.currency,
      lineItems: items.map((i) => ({ name: i.name, quantity: i.quantity, totalCents: i.totalCents })),
      subtotalCents: order.subtotalCents,
      discountCents: order.discountCents,
      shippingCents: order.shippingLines.length ? order.shippingCents : undefined,
      shippingMethod: order.shippingLines[0]?.label ?? null,
      taxCents: order.totalTaxCents,
      totalCents: order.totalCents,
      paymentMethodTitle: order.paymentMethodTitle,
      paymentInstructions:
        order.paymentMethod === 'cod'
          ? 'Payment to be made upon delivery.'
          : order.paymentCurrency && order.status === 'pending'
            ? `Please send ${order.cryptoAmount} ${order.paymentCurrency} to ${order.paymentAddress} before ${order.paymentExpiresAt?.toISOString()}.`
            : null,
      billingAddress: order.billing,
      shippingAddress: order.shipping.address1 ? order.shipping : null,
      customerNote: order.customerNote || null,
      orderUrl: `${this.site}/checkout/order-received/${order.id}/?key=${order.orderKey}`,
    });
    await this.mailer.sendMail({ to: order.billing.email, ...content });
  }
}
