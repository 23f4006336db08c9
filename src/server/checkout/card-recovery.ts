/**
 * Crash safety of card checkouts: the checkout the engine serves when the card gateway is on. It records
 * each card Checkout Stripe confirmed before the order's transaction, answers a repeated one with the
 * order already placed, and its `sweep` completes (or refunds) a card checkout interrupted by a dying
 * process (payments/stripe/recovery.ts).
 */
import { readCart } from '../cart/model.ts';
import { CartError } from '../cart/service.ts';
import { StockError } from '../catalog/stock.ts';
import { CouponError } from '../coupons/discounts.ts';
import type { Database } from '../db/connection.ts';
import type { OrderService } from '../orders/service.ts';
import type { StripeGateway } from '../payments/stripe/gateway.ts';
import { withCardCheckoutRecovery } from '../payments/stripe/recovery.ts';
import type { SessionService } from '../session/service.ts';
import { CheckoutError, type Checkout, type CheckoutService } from './service.ts';

export class CardRecoveringCheckout implements Checkout {
  readonly checkout: CheckoutService['checkout'];
  /** Completes or refunds the card checkouts older than STRIPE_RECOVERY_AFTER_SECONDS; the number completed. */
  readonly sweep: () => Promise<number>;

  constructor(
    private readonly inner: CheckoutService,
    deps: {
      db: Database;
      sessions: SessionService;
      orders: OrderService;
      gateway: StripeGateway;
      log: (message: string) => void;
    },
  ) {
    const { db, sessions, orders, gateway, log } = deps;
    const recovery = withCardCheckoutRecovery(inner.checkout.bind(inner), {
      db,
      sessions,
      orderForIntent: (id) => orders.getByTransaction('stripe', id),
      cartIsEmpty: async (customerId) => readCart(await sessions.load(customerId)).items.length === 0,
      answerFor: (order) => ({
        order,
        accountUserId: null,
        redirect: `/checkout/order-received/${order.id}/?key=${order.orderKey}`,
      }),
      refusal: (message) => new CheckoutError(message),
      refund: (id) => gateway.refundUnplaced(id),
      paymentState: (id) => gateway.paymentState(id),
      // Recorded only when this is worth completing or refunding later.
      isOwnPayment: (intent, customerId) => gateway.isOwnPayment(intent, customerId),
      isRefusal: (err) =>
        (err instanceof CheckoutError && !err.retryable) ||
        err instanceof StockError ||
        err instanceof CouponError ||
        err instanceof CartError,
      afterSeconds: gateway.settings.recoveryAfterSeconds,
      maxAttempts: gateway.settings.recoveryMaxAttempts,
      log,
    });
    this.checkout = recovery.checkout;
    this.sweep = recovery.sweep;
  }

  gateways(...args: Parameters<CheckoutService['gateways']>): ReturnType<CheckoutService['gateways']> {
    return this.inner.gateways(...args);
  }
}
