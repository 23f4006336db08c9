/**
 * The KDA gateway of one engine: the quote a checkout puts on a KDA order (its own account, the amount
 * at the configured rate) and the watcher of this process that polls the node for the open orders. The
 * engine builds it only when a rate is configured. It talks to the chain only: the open orders and what
 * a payment's progress does to them come in as functions (the orders domain owns them).
 */
import { createKadenaGateway, type KadenaGateway } from './gateway.ts';
import type { KadenaSettings } from './settings.ts';
import {
  DEFAULT_CONFIRMATION_GRACE_MS,
  type KadenaPaymentWatcher,
  type KadenaPaymentWatcherOptions,
} from './watcher.ts';

export class KadenaCheckout {
  private readonly gateway: KadenaGateway;
  /** The KDA payment watcher of this process (started by `start`). */
  readonly watcher: KadenaPaymentWatcher;

  constructor(
    readonly settings: KadenaSettings,
    orders: Pick<KadenaPaymentWatcherOptions, 'listOpenCryptoOrders' | 'onProgress'>,
    log: (message: string) => void,
  ) {
    this.gateway = createKadenaGateway(settings);
    this.watcher = this.gateway.createWatcher({
      ...orders,
      // `details.error` is already a redacted summary (watcher.ts).
      log: (level, message, details) =>
        log(`kadena watcher (${level}): ${message}${details?.error ? ` (${String(details.error)})` : ''}`),
    });
  }

  /** The account and amount of order `orderId`, and the windows the customer is told about. */
  quote(
    orderId: number,
    totalCents: number,
  ): { account: string; amountKda: string; rate: string; windowMinutes: number; graceMinutes: number } {
    const q = this.gateway.quote(orderId, totalCents);
    return {
      account: q.account,
      amountKda: q.amountKda,
      rate: q.eurPerKda,
      windowMinutes: this.settings.paymentWindowMinutes,
      graceMinutes: Math.ceil(DEFAULT_CONFIRMATION_GRACE_MS / 60_000),
    };
  }

  start(): void {
    this.watcher.start();
  }

  stop(): Promise<void> {
    return this.watcher.stop();
  }
}
