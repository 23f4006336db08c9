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
