/**
 * Stripe webhook handling for orders: the signature is verified on the raw body (payments/stripe/webhook),
 * each event id is processed once (stripe_events, in the same transaction as the order change, so a
 * failure lets Stripe retry and a replay is acknowledged without acting), and orders only move forward:
 * payment succeeded → paid, payment failed → failed (stock and coupons back), charge refunded → refunded.
 */
import type { CatalogService } from '../catalog/service.ts';
import type { Database } from '../db/connection.ts';
import type { OrderService } from '../orders/service.ts';
import { decideOrderActionForStripeEvent, parseStripeWebhook, type OrderStatus } from '../payments/stripe/webhook.ts';

export type WebhookAnswer = { status: number; body: Record<string, unknown> };

export class StripeWebhookHandler {
  constructor(
    private readonly db: Database,
    private readonly catalog: CatalogService,
    private readonly orders: OrderService,
    private readonly secret: string | null,
  ) {}

  async handle(rawBody: Buffer | string, signature: string | null): Promise<WebhookAnswer> {
    if (!this.secret)
      return { status: 503, body: { error: 'Stripe webhooks are not configured (STRIPE_WEBHOOK_SECRET).' } };
    const parsed = parseStripeWebhook(rawBody, signature, this.secret);
    if (!parsed.ok) return { status: 400, body: { error: parsed.message, reason: parsed.reason } };
    const event = parsed.event;
    const snap = await this.catalog.snapshot();
    const result = await this.db.transaction(async (tx) => {
      const fresh = await this.orders.recordStripeEvent(
        tx,
        event.id,
        event.type === 'ignored' ? event.originalType : event.type,
      );
      if (!fresh) return { duplicate: true, action: 'none' };
      if (event.type === 'ignored') return { duplicate: false, action: 'ignore' };
      const intentId = event.type === 'charge.refunded' ? event.charge.paymentIntentId : event.paymentIntent.id;
      const order = intentId ? await this.orders.getByTransaction('stripe', intentId, tx) : null;
      if (!order) return { duplicate: false, action: 'no-order' };
      const decision = decideOrderActionForStripeEvent(event, {
        status: order.status as OrderStatus,
        totalCents: order.totalCents,
        currency: order.currency,
      });
      switch (decision.action) {
        case 'mark_paid':
          await this.orders.paymentComplete(
            tx,
            snap,
            order.id,
            decision.transactionId,
            `Stripe: payment ${decision.transactionId} succeeded (event ${event.id}).`,
          );
          break;
        case 'mark_failed':
          await this.orders.fail(tx, order.id, `Stripe: payment failed: ${decision.message}`);
          break;
        case 'mark_refunded':
          await this.orders.refund(tx, order.id, `Stripe: charge refunded (event ${event.id}).`);
          break;
        case 'record_partial_refund':
          await this.orders.addNote(
            tx,
            order.id,
            `Stripe: ${decision.refundedCents} cents refunded (event ${event.id}).`,
          );
          break;
        default:
          break;
      }
      return { duplicate: false, action: decision.action, orderId: order.id };
    });
    this.catalog.invalidate();
    return { status: 200, body: { received: true, ...result } };
  }

  async processed(eventId: string): Promise<boolean> {
    return this.orders.stripeEventProcessed(eventId);
  }
}
