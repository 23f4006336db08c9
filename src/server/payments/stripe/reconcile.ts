/**
 * Reconciliation of card payments with Stripe: no payment taken without an order stays taken.
 *
 * recovery.ts covers a card Checkout that reached the engine: it is recorded in the customer's session
 * before its order's transaction, and a sweep completes or refunds it. What it cannot see is a payment
 * whose Checkout never arrived, or died before it was recorded: the customer paid at Stripe (the PaymentIntent
 * succeeded in the browser) and then closed the tab, lost the connection, or the engine was down at that
 * moment. The money is taken and Meshfront has neither an order nor a record. Stripe is the only place
 * that knows, so this module asks Stripe:
 *
 * - Every PaymentIntent the engine creates carries `metadata.session_ref` (the session whose cart it was
 *   sized from, which the Checkout must come from) and `metadata.meshfront_site` (this installation's
 *   SESSION_ISSUER). Only intents with this installation's marker are ever touched: a Stripe account
 *   shared with other systems (or a staging shop with another site URL) keeps its payments.
 * - The reconciliation lists the PaymentIntents created in the last STRIPE_RECONCILE_LOOKBACK_HOURS with
 *   Stripe's list API (auto-paginated, the latest charge expanded) and looks at each succeeded one whose
 *   charge is older than STRIPE_RECONCILE_AFTER_SECONDS — counted from the charge, not the intent, as an
 *   intent is created when the checkout page opens, often long before the customer pays. Stripe lists by
 *   creation time only, so the window must cover the time from opening the checkout to paying plus the
 *   grace period: a payment on an intent older than the window is not seen (the default day leaves
 *   almost 24 hours; the storefront's idempotency keys, valid 24 hours at Stripe, make a new intent for a
 *   cart the next day).
 * - Under the session's lock (the lock the Checkout holds while it records itself and while it places the
 *   order, so neither can slip in between the look and the write) it checks that no order carries the
 *   intent and that the session holds no record of it (a recorded Checkout is recovery.ts's to finish).
 *   Then it writes a record marked `refunded` and `orphan`: from that moment a Checkout with this payment
 *   is refused with REFUNDED_MESSAGE by recovery.ts's wrapper, exactly like a payment the recovery
 *   refunded. A Checkout that arrives first records itself first, and this payment is left alone.
 * - It then refunds the charge in full with a fixed idempotency key, and clears `refundPending` from the
 *   record. A refund that failed (Stripe unreachable) is retried by a later run; the record's time is a
 *   lease, so two processes that both see the pending refund do not both send it while one is in flight,
 *   and Stripe's idempotency (same key, same parameters) or its `charge_already_refunded` answer make a
 *   repeat harmless. A charge already refunded in full (by hand in the dashboard) is only recorded.
 *
 * It runs where the recovery sweep runs (engine/jobs.ts: at start and every ORDER_SWEEP_INTERVAL_MS, in
 * every process), after it. Correctness needs no coordination between processes (the per-session lock
 * and the lease do that, on PGlite and on PostgreSQL alike); a shared claim in the `meta` table only
 * keeps N processes from listing the same intents at Stripe N times per interval.
 *
 * The webhook `payment_intent.succeeded` for such an intent does nothing (no order carries it: the
 * handler answers `no-order`), which is right: the Checkout may still be on its way, and only this
 * reconciliation, after the grace period and under the session lock, decides that it will not come.
 */
import { sql } from 'drizzle-orm';
import type { Database, DbOrTx } from '../../db/connection.ts';
import { claimPeriodicRun } from '../../db/meta.ts';
import { errorSummary } from '../../error-summary.ts';
import { RECORDS_KEY, type CardCheckoutRecord } from './recovery.ts';
import type { ListedPaymentIntent } from './service.ts';

/** Metadata key of the installation marker on every PaymentIntent the engine creates. */
export const SITE_METADATA_KEY = 'meshfront_site';
/** Metadata key of the session the intent was sized for (set by StripePayments.createPaymentIntent). */
export const SESSION_METADATA_KEY = 'session_ref';

/** A run's claim in the engine-wide `meta` table (see `claimReconcileRun`). */
const CLAIM_KEY = 'stripe_reconcile_run';
/** Longer than a refund request can take (settings.ts keeps a Stripe call with its retries under 60 s): a newer pending mark is another run's. */
export const REFUND_LEASE_MS = 90_000;

export type ReconcileDeps = {
  /** This installation's marker value (SESSION_ISSUER). */
  site: string;
  /** PaymentIntents created at or after a unix time in seconds (StripePayments.listPaymentIntentsSince). */
  list(createdSince: number): AsyncIterable<ListedPaymentIntent>;
  sessions: {
    update<T>(
      customerId: string,
      fn: (data: Record<string, unknown>, tx: DbOrTx) => Promise<{ data?: Record<string, unknown>; result: T }>,
    ): Promise<T>;
  };
  /** Whether an order carries this PaymentIntent (read in `tx` when given). */
  hasOrder(paymentIntentId: string, tx?: DbOrTx): Promise<boolean>;
  /** Full refund with a fixed idempotency key; throws the Stripe error (its `code` is looked at). */
  refund(paymentIntentId: string): Promise<void>;
  afterSeconds: number;
  lookbackHours: number;
  log: (message: string) => void;
  /** Milliseconds since the epoch (tests may move it). */
  now?: () => number;
};

export type ReconcileReport = {
  /** Intents Stripe listed in the window. */
  listed: number;
  /** Refunded by this run. */
  refunded: string[];
  /** Refunded before (by hand at Stripe): only recorded by this run. */
  recorded: string[];
  /** Paid, unclaimed, but younger than the grace period: looked at again by a later run. */
  waiting: string[];
  /** Left to the recovery sweep: the session holds a record of their Checkout. */
  leftToRecovery: string[];
  /** Could not be reconciled this time (logged); a later run tries again. */
  failed: string[];
};

type Decision = 'ordered' | 'recorded-checkout' | 'done' | 'busy' | 'refund' | 'already-refunded';

const recordsOf = (data: Record<string, unknown>) => ({
  ...((data[RECORDS_KEY] as Record<string, CardCheckoutRecord> | undefined) ?? {}),
});

const isAlreadyRefunded = (err: unknown) =>
  (err as { details?: { code?: string } })?.details?.code === 'charge_already_refunded' ||
  (err as { code?: string })?.code === 'charge_already_refunded';

export function createCardReconciliation(deps: ReconcileDeps): () => Promise<ReconcileReport> {
  const now = deps.now ?? Date.now;

  /** Under the session lock: is the payment unclaimed, and if so mark it refunded before any Checkout can use it. */
  const claim = (intent: ListedPaymentIntent, sessionRef: string) =>
    deps.sessions.update<Decision>(sessionRef, async (data, tx) => {
      if (await deps.hasOrder(intent.id, tx)) return { result: 'ordered' };
      const records = recordsOf(data);
      const old = records[intent.id];
      if (old && !old.refunded) return { result: 'recorded-checkout' };
      if (old && !old.refundPending) return { result: 'done' };
      if (old?.refundPending && now() - Date.parse(old.at) < REFUND_LEASE_MS) return { result: 'busy' };
      const fullyRefunded = intent.amountRefundedCents >= intent.amountReceivedCents;
      records[intent.id] = {
        userId: old?.userId ?? null,
        input: old?.input ?? {},
        at: new Date(now()).toISOString(),
        refunded: true,
        orphan: true,
        ...(fullyRefunded ? {} : { refundPending: true }),
      };
      return { data: { ...data, [RECORDS_KEY]: records }, result: fullyRefunded ? 'already-refunded' : 'refund' };
    });

  const settle = (intentId: string, sessionRef: string) =>
    deps.sessions.update(sessionRef, async (data) => {
      const records = recordsOf(data);
      const old = records[intentId];
      if (!old?.refundPending) return { result: null };
      const { refundPending: _done, ...rest } = old;
      records[intentId] = rest;
      return { data: { ...data, [RECORDS_KEY]: records }, result: null };
    });

  return async () => {
    const report: ReconcileReport = {
      listed: 0,
      refunded: [],
      recorded: [],
      waiting: [],
      leftToRecovery: [],
      failed: [],
    };
    if (deps.lookbackHours <= 0) return report;
    const since = Math.floor(now() / 1000) - deps.lookbackHours * 3600;
    for await (const intent of deps.list(since)) {
      report.listed++;
      if (intent.status !== 'succeeded' || intent.metadata[SITE_METADATA_KEY] !== deps.site) continue;
      const sessionRef = intent.metadata[SESSION_METADATA_KEY];
      if (!sessionRef) continue;
      try {
        // Paid a moment ago: the Checkout may still be on its way.
        const paidAt = intent.chargedAt ?? intent.created;
        if (now() / 1000 - paidAt < deps.afterSeconds) {
          if (!(await deps.hasOrder(intent.id))) report.waiting.push(intent.id);
          continue;
        }
        if (await deps.hasOrder(intent.id)) continue;
        const decision = await claim(intent, sessionRef);
        if (decision === 'recorded-checkout') report.leftToRecovery.push(intent.id);
        if (decision === 'already-refunded') {
          report.recorded.push(intent.id);
          deps.log(
            `card payment ${intent.id} never reached a Checkout and was already refunded at Stripe: recorded, so it cannot pay an order`,
          );
        }
        if (decision !== 'refund') continue;
        try {
          await deps.refund(intent.id);
        } catch (err) {
          if (!isAlreadyRefunded(err)) throw err;
        }
        await settle(intent.id, sessionRef);
        report.refunded.push(intent.id);
        deps.log(
          `refunded card payment ${intent.id} (${intent.amountReceivedCents} ${intent.currency}): paid ${Math.round(now() / 1000 - paidAt)} s ago, no Checkout reached the engine (session ${sessionRef})`,
        );
      } catch (err) {
        report.failed.push(intent.id);
        deps.log(`card payment reconciliation for ${intent.id} failed, will retry: ${errorSummary(err)}`);
      }
    }
    return report;
  };
}

/** Whether this process should run the reconciliation now: one process per `minGapMs` (db/meta.ts). */
export function claimReconcileRun(db: Database, minGapMs: number): Promise<boolean> {
  return claimPeriodicRun(db, CLAIM_KEY, minGapMs);
}
