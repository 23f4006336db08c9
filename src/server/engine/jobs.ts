/**
 * The engine's background jobs: each one starts when the engine is built and returns its stop. Every
 * process runs them; the work itself is shared through the database (conditional updates, claims).
 */
import type { Database } from '../db/connection.ts';
import { errorSummary } from '../error-summary.ts';
import type { MailQueue } from '../mail/queue.ts';
import { sweptRows, type RetentionSweep } from '../retention/sweep.ts';
import type { OrderService } from '../orders/service.ts';
import { claimReconcileRun, type ReconcileReport } from '../payments/stripe/reconcile.ts';

export type Stop = () => Promise<void> | void;

/**
 * Card checkout recovery, then the card payment reconciliation, at start and every `intervalMs`. After
 * the recovery: a recorded Checkout is finished there, never refunded here. Every process ticks, one of
 * them (per half interval) asks Stripe.
 */
export function startCardSweep(input: {
  db: Database;
  intervalMs: number;
  recover: () => Promise<unknown>;
  reconcile: () => Promise<ReconcileReport>;
  reconcileLookbackHours: number;
  log: (message: string) => void;
}): Stop {
  const { db, intervalMs, recover, reconcile, log } = input;
  let sweeping = false;
  const sweep = () => {
    if (sweeping) return;
    sweeping = true;
    recover()
      .catch((err) => log(`card checkout recovery failed: ${errorSummary(err)}`))
      .then(async () => {
        if (input.reconcileLookbackHours > 0 && (await claimReconcileRun(db, intervalMs / 2))) await reconcile();
      })
      .catch((err) => log(`card payment reconciliation failed: ${errorSummary(err)}`))
      .finally(() => (sweeping = false));
  };
  const timer = setInterval(sweep, intervalMs);
  timer.unref();
  setImmediate(sweep);
  return () => clearInterval(timer);
}

/** The hold-stock sweeper: unpaid orders past the hold time are cancelled, each by exactly one process. */
export function startHoldStockSweeper(input: {
  orders: OrderService;
  intervalMs: number;
  log: (message: string) => void;
}): Stop {
  const { orders, intervalMs, log } = input;
  let running = false;
  const timer = setInterval(() => {
    if (running) return;
    running = true;
    orders
      .cancelExpiredUnpaid()
      .then((ids) => ids.length && log(`cancelled unpaid orders after the hold time: ${ids.join(', ')}`))
      .catch((err) => log(`hold-stock sweeper failed: ${errorSummary(err)}`))
      .finally(() => (running = false));
  }, intervalMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * The mail sender (mail/queue.ts): due mail at start and every `intervalMs` — mail queued by another
 * process or before a restart, and retries. Mail queued in this process is sent when its transaction
 * commits (the queue is woken then), and each retry at its time; the poll is the fallback. Old rows of the
 * outbox go in the retention sweep.
 */
export function startMailSender(input: { queue: MailQueue; intervalMs: number }): Stop {
  const { queue, intervalMs } = input;
  queue.start();
  const poll = setInterval(() => queue.wake(), intervalMs);
  poll.unref();
  setImmediate(() => queue.wake());
  return async () => {
    clearInterval(poll);
    await queue.stop();
  };
}

/**
 * The retention sweep (retention/sweep.ts) every `intervalMs`, the first a minute after start (a
 * restart loop must not turn into a delete loop); every process ticks, one per interval sweeps.
 */
export function startRetentionSweep(input: {
  sweep: RetentionSweep;
  intervalMs: number;
  log: (message: string) => void;
}): Stop {
  const { sweep, intervalMs, log } = input;
  let running = false;
  const tick = () => {
    if (running) return;
    running = true;
    sweep
      .run()
      .then((report) => {
        if (report && sweptRows(report) > 0) log(`retention sweep deleted ${JSON.stringify(report)}`);
      })
      .catch((err) => log(`retention sweep failed: ${errorSummary(err)}`))
      .finally(() => (running = false));
  };
  const first = setTimeout(tick, Math.min(60_000, intervalMs));
  first.unref();
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return () => {
    clearTimeout(first);
    clearInterval(timer);
  };
}
