/**
 * The engine's background jobs: each one starts when the engine is built and returns its stop. Every
 * process runs them; the work itself is shared through the database (conditional updates, claims).
 */
import type { Database } from '../db/connection.ts';
import { errorSummary } from '../error-summary.ts';
import type { MailQueue } from '../mail/queue.ts';
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
 * commits (the queue is woken then), and each retry at its time; the poll is the fallback. Sent and
 * cancelled mail is cleaned up hourly.
 */
export function startMailSender(input: { queue: MailQueue; intervalMs: number; log: (message: string) => void }): Stop {
  const { queue, intervalMs, log } = input;
  queue.start();
  const poll = setInterval(() => queue.wake(), intervalMs);
  poll.unref();
  let purging = false;
  const purge = setInterval(() => {
    if (purging) return;
    purging = true;
    queue
      .purge()
      .then((n) => n && log(`deleted ${n} old rows of the mail queue`))
      .catch((err) => log(`mail queue clean-up failed: ${errorSummary(err)}`))
      .finally(() => {
        purging = false;
      });
  }, 3_600_000);
  purge.unref();
  setImmediate(() => queue.wake());
  return async () => {
    clearInterval(poll);
    clearInterval(purge);
    await queue.stop();
  };
}
