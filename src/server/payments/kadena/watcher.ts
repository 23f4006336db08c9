/**
 * The KDA payment watcher: a pure decision (paid / pending / expired) and a poller that asks the node
 * about every open crypto order on an interval. The orders domain supplies the list of open orders and
 * applies the outcome (mark paid, cancel and restore stock, store received amounts); this module only
 * reads the chain. Several engine processes may each run a poller: `onProgress` must be idempotent (a
 * conditional status update), which the orders domain does anyway.
 */
import { errorSummary } from '../../error-summary.ts';
import { parseKda } from './decimal.ts';
import type { PaymentProgress } from './chainweb.ts';

export type PaymentState = 'paid' | 'pending' | 'expired';

/** Default time an order whose payment is on chain but not yet confirmed may wait past its window. */
export const DEFAULT_CONFIRMATION_GRACE_MS = 30 * 60 * 1000;

/**
 * - paid: the confirmed balance covers the amount — even after the window: money that arrived is
 *   accepted rather than refunded by hand (payment_complete is allowed from cancelled in WooCommerce).
 * - pending: inside the window; or past it while a covering payment is on chain but not yet confirmed,
 *   for at most `confirmationGraceMs` (a payment sent in time must not be cancelled for slow blocks).
 * - expired: the window (plus that grace, when it applies) ended without a confirmed covering payment.
 *   A partial payment also expires; the order keeps the received amounts for a manual refund.
 */
export function decidePaymentState(input: {
  amountKda: string;
  receivedConfirmedKda: string;
  receivedUnconfirmedKda: string;
  now: Date | number;
  windowEndsAt: Date | number;
  confirmationGraceMs?: number;
}): PaymentState {
  const amount = parseKda(input.amountKda);
  const confirmed = parseKda(input.receivedConfirmedKda);
  const unconfirmed = parseKda(input.receivedUnconfirmedKda);
  if (confirmed >= amount) return 'paid';
  const now = +input.now;
  const end = +input.windowEndsAt;
  if (now < end) return 'pending';
  const grace = input.confirmationGraceMs ?? DEFAULT_CONFIRMATION_GRACE_MS;
  if (unconfirmed >= amount && now < end + grace) return 'pending';
  return 'expired';
}

export type OpenCryptoOrder = {
  orderId: string | number;
  /** The order's k: payment account. */
  account: string;
  amountKda: string;
  windowEndsAt: Date | number;
};

export type WatcherLog = (level: 'info' | 'warn' | 'error', message: string, details?: Record<string, unknown>) => void;

export type RunSummary = {
  orders: number;
  checked: number;
  failed: number;
  states: Record<PaymentState, number>;
  error?: string;
};

export type KadenaPaymentWatcherOptions = {
  readPaymentProgress: (account: string) => Promise<PaymentProgress>;
  listOpenCryptoOrders: () => Promise<OpenCryptoOrder[]>;
  onProgress: (
    orderId: OpenCryptoOrder['orderId'],
    progress: PaymentProgress,
    state: PaymentState,
  ) => void | Promise<void>;
  intervalMs: number;
  /** Each wait is intervalMs · (1 ± jitter), so several processes do not hit the node in lockstep (default 0.2). */
  jitter?: number;
  /** Orders checked at the same time (default 4). */
  concurrency?: number;
  confirmationGraceMs?: number;
  now?: () => number;
  log?: WatcherLog;
  random?: () => number;
};

const defaultLog: WatcherLog = (level, message, details) => {
  const line = `[meshfront:kadena-watcher] ${message}`;
  if (level === 'error') console.error(line, details ?? '');
  else if (level === 'warn') console.warn(line, details ?? '');
};

export class KadenaPaymentWatcher {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private inFlight: Promise<RunSummary> | null = null;
  private running = false;

  constructor(private readonly options: KadenaPaymentWatcherOptions) {
    if (!(options.intervalMs > 0)) throw new RangeError('intervalMs must be positive');
  }

  get isRunning(): boolean {
    return this.running;
  }

  /** Start polling: the first run happens after one (jittered) interval; runs never overlap. */
  start(options: { immediately?: boolean } = {}): void {
    if (this.running) return;
    this.running = true;
    if (options.immediately) void this.tick();
    else this.schedule();
  }

  /** Stop polling and wait for a run in progress to finish. */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.inFlight) await this.inFlight.catch(() => undefined);
  }

  /** The next wait in ms, with jitter. */
  nextDelay(): number {
    const jitter = Math.min(Math.max(this.options.jitter ?? 0.2, 0), 0.9);
    const r = (this.options.random ?? Math.random)();
    return Math.max(1, Math.round(this.options.intervalMs * (1 - jitter + 2 * jitter * r)));
  }

  private schedule(): void {
    if (!this.running) return;
    this.timer = setTimeout(() => void this.tick(), this.nextDelay());
    // The watcher must not keep a process alive on its own (tests, CLI commands).
    this.timer.unref?.();
  }

  private async tick(): Promise<void> {
    this.timer = null;
    try {
      await this.runOnce();
    } finally {
      // The next run is scheduled only after this one ended: no overlap even when a run is slow.
      this.schedule();
    }
  }

  /**
   * One pass over the open orders. A call while a pass is in progress joins that pass instead of
   * starting a second one. Never rejects: node and callback errors are logged and counted.
   */
  runOnce(): Promise<RunSummary> {
    if (this.inFlight) return this.inFlight;
    this.inFlight = this.pass().finally(() => {
      this.inFlight = null;
    });
    return this.inFlight;
  }

  private async pass(): Promise<RunSummary> {
    const log = this.options.log ?? defaultLog;
    const summary: RunSummary = { orders: 0, checked: 0, failed: 0, states: { paid: 0, pending: 0, expired: 0 } };
    let orders: OpenCryptoOrder[];
    try {
      orders = await this.options.listOpenCryptoOrders();
    } catch (e) {
      summary.error = errorSummary(e);
      log('error', 'could not list open crypto orders; retrying next tick', { error: summary.error });
      return summary;
    }
    summary.orders = orders.length;
    const queue = [...orders];
    const worker = async () => {
      for (let order = queue.shift(); order; order = queue.shift()) {
        try {
          const progress = await this.options.readPaymentProgress(order.account);
          const state = decidePaymentState({
            amountKda: order.amountKda,
            receivedConfirmedKda: progress.receivedConfirmedKda,
            receivedUnconfirmedKda: progress.receivedUnconfirmedKda,
            now: (this.options.now ?? Date.now)(),
            windowEndsAt: order.windowEndsAt,
            confirmationGraceMs: this.options.confirmationGraceMs,
          });
          await this.options.onProgress(order.orderId, progress, state);
          summary.checked++;
          summary.states[state]++;
        } catch (e) {
          summary.failed++;
          summary.error ??= errorSummary(e);
        }
      }
    };
    const workers = Math.max(1, Math.min(this.options.concurrency ?? 4, orders.length));
    await Promise.all(Array.from({ length: workers }, worker));
    if (summary.failed) {
      // One line per pass, not per order: a node outage would otherwise flood the log.
      log('warn', `${summary.failed} of ${summary.orders} crypto orders could not be checked; retrying next tick`, {
        error: summary.error,
      });
    }
    return summary;
  }
}
