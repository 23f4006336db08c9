/**
 * Crash safety for card checkouts. The customer pays at Stripe first (Stripe.js), then the storefront
 * sends Checkout with the PaymentIntent id; if the engine dies while handling that Checkout, the
 * transaction rolls back and the paid PaymentIntent has no order. This module closes that gap:
 *
 * - Once Stripe has answered for the PaymentIntent, and before the order's transaction, a card Checkout
 *   is recorded in the customer's session (`cardCheckouts[<PaymentIntent id>]`: the checkout input,
 *   without any account password) — but only for an intent that is this shop's (metadata `meshfront_site`)
 *   and this session's (`session_ref`), in the shop's currency, with money taken or on its way. An id
 *   Stripe does not know, or someone else's payment, is never recorded: the sweep below would otherwise
 *   ask Stripe about it again and again. A Checkout that placed its order removes its record; one that
 *   was refused (e.g. the goods sold out after the customer paid) keeps it, so the customer can still fix
 *   the cart and try again with that payment.
 * - A record older than STRIPE_RECOVERY_AFTER_SECONDS belongs to a Checkout whose process died, or to a
 *   payment whose order was refused. The recovery sweep (at start and on the order-sweep interval, in
 *   every process) replays it: the normal checkout, which verifies the PaymentIntent with Stripe again,
 *   places the paid order and empties the cart. If the order can no longer be placed, a succeeded payment
 *   is refunded in full (so no customer pays for nothing) and the record stays, marked refunded, so that
 *   the refunded payment cannot pay a later Checkout. A payment Stripe answers "no such PaymentIntent"
 *   for (e.g. deleted test data) has nothing to complete or refund: its record is dropped.
 * - A replay that fails for a passing reason (Stripe or the database unreachable) is tried again later,
 *   each wait twice the one before (starting at STRIPE_RECOVERY_AFTER_SECONDS, at most an hour), at most
 *   STRIPE_RECOVERY_MAX_ATTEMPTS times; then the record is dropped, and a payment still taken without an
 *   order is the reconciliation's (reconcile.ts), which refunds it.
 * - A Checkout retried with a PaymentIntent that already paid this customer's order, and nothing new in
 *   the cart, answers with that order instead of an error (the customer pressed "Place order" again
 *   after a network error, or the recovery placed the order meanwhile).
 *
 * A payment whose Checkout never got this far (never arrived, or the process died before the record was
 * written) leaves no record here; reconcile.ts finds it at Stripe and refunds it, writing the same kind
 * of refunded record, so the refusal below covers both.
 */
import { sql } from 'drizzle-orm';
import type { Database } from '../../db/connection.ts';
import { selectRows } from '../../db/raw-rows.ts';
import { errorSummary } from '../../error-summary.ts';

export const RECORDS_KEY = 'cardCheckouts';

/**
 * `refunded`: the payment went back; a Checkout with it is refused. `orphan`: written by the
 * reconciliation (reconcile.ts) for a payment no Checkout ever claimed (its `input` is empty);
 * `refundPending`: that refund is not confirmed by Stripe yet (`at` is then the lease of the run sending it).
 * `attempts`: recovery runs that failed for a passing reason; `retryAt`: not before this time again.
 */
export type CardCheckoutRecord = {
  userId: string | null;
  input: Record<string, unknown>;
  at: string;
  refunded?: boolean;
  orphan?: boolean;
  refundPending?: boolean;
  attempts?: number;
  retryAt?: string;
};

type Who = { customerId: string; userId?: string | null };
type OrderRef = { id: number; customerId: string; orderKey: string };
/** The checkout's options this module uses: it passes the rest on untouched. */
type CheckoutOptions = { clientIp?: string; onCardPayment?: (intent: unknown) => Promise<void> };
type CheckoutFn<I, R> = (who: Who, input: I, options?: CheckoutOptions) => Promise<R>;

/** What Stripe says of a recorded payment: money taken, not (yet), or no such PaymentIntent at all. */
export type PaymentState = 'succeeded' | 'unpaid' | 'missing';

/** The longest wait between two recovery attempts of one record. */
const MAX_RETRY_DELAY_SECONDS = 3600;

export type RecoveryDeps<R, O extends OrderRef> = {
  db: Database;
  sessions: {
    load(customerId: string): Promise<Record<string, unknown>>;
    update<T>(
      customerId: string,
      fn: (data: Record<string, unknown>) => Promise<{ data?: Record<string, unknown>; result: T }>,
    ): Promise<T>;
  };
  /** The order a PaymentIntent paid, if any. */
  orderForIntent(paymentIntentId: string): Promise<O | null>;
  /** Whether the session's cart is empty (a repeated Checkout after the order was placed), not a new cart. */
  cartIsEmpty(customerId: string): Promise<boolean>;
  /** What a repeated Checkout answers for an order it already placed. */
  answerFor(order: O): R;
  /** The error a Checkout with a refunded payment gets (the checkout domain's error type). */
  refusal(message: string): Error;
  /** Full refund of a succeeded PaymentIntent that can no longer become an order (idempotent). */
  refund(paymentIntentId: string): Promise<void>;
  /** Stripe's word on the intent; throws when Stripe cannot be asked. */
  paymentState(paymentIntentId: string): Promise<PaymentState>;
  /**
   * Whether the intent Stripe returned is worth recording for this customer's session: this shop's and
   * this session's, with a sane amount and currency, and money taken or on its way.
   */
  isOwnPayment(intent: unknown, customerId: string): boolean;
  /** Whether a checkout's error says the order cannot be placed (a refusal), not that something failed for now. */
  isRefusal(err: unknown): boolean;
  afterSeconds: number;
  /** Failed recovery runs of one record before it is dropped. */
  maxAttempts: number;
  log: (message: string) => void;
};

export const REFUNDED_MESSAGE =
  'This card payment was refunded because the order could not be placed. Please pay again.';

const isCardCheckout = (input: unknown): input is { paymentMethod?: string | null; transactionId?: string | null } =>
  !!input &&
  typeof input === 'object' &&
  String((input as { paymentMethod?: unknown }).paymentMethod ?? '').trim() === 'stripe';

const recordsOf = (data: Record<string, unknown>) => ({
  ...((data[RECORDS_KEY] as Record<string, CardCheckoutRecord> | undefined) ?? {}),
});

/**
 * Wraps the checkout with the record-before / clear-after-success steps and the idempotent retry, and
 * returns the sweep that completes (or refunds) what is left.
 */
export function withCardCheckoutRecovery<I, R, O extends OrderRef>(
  checkout: CheckoutFn<I, R>,
  deps: RecoveryDeps<R, O>,
): { checkout: CheckoutFn<I, R>; sweep: () => Promise<number> } {
  /** Changes one record (null removes it); returns the record as it was. */
  const changeRecord = (
    customerId: string,
    intentId: string,
    change: (old: CardCheckoutRecord | undefined) => CardCheckoutRecord | null | undefined,
  ) =>
    deps.sessions.update(customerId, async (data) => {
      const records = recordsOf(data);
      const old = records[intentId];
      const next = change(old);
      if (next === undefined || (next === null && !old)) return { result: old };
      if (next === null) delete records[intentId];
      else records[intentId] = next;
      const out: Record<string, unknown> = { ...data, [RECORDS_KEY]: records };
      if (!Object.keys(records).length) delete out[RECORDS_KEY];
      return { data: out, result: old };
    });

  const wrapped: CheckoutFn<I, R> = async (who, input, options = {}) => {
    const intentId = isCardCheckout(input) ? String(input.transactionId ?? '').trim() : '';
    if (!intentId) return checkout(who, input, options);
    const paid = await deps.orderForIntent(intentId);
    // The same customer again with nothing new in the cart: the answer they missed. A new cart with a used
    // payment goes on to the checkout, which refuses it.
    if (paid && paid.customerId === (who.userId ?? who.customerId) && (await deps.cartIsEmpty(who.customerId)))
      return deps.answerFor(paid);
    // A refunded payment is refused before Stripe is asked (and again under the lock when recording).
    if (recordsOf(await deps.sessions.load(who.customerId))[intentId]?.refunded) throw deps.refusal(REFUNDED_MESSAGE);
    // Never keep a password in session data: a recovered order is placed without creating the account.
    const { account: _account, ...kept } = input as Record<string, unknown>;
    const record = async (intent: unknown) => {
      await options.onCardPayment?.(intent);
      if (!deps.isOwnPayment(intent, who.customerId)) return;
      const previous = await changeRecord(who.customerId, intentId, (old) =>
        old?.refunded ? undefined : { userId: who.userId ?? null, input: kept, at: new Date().toISOString() },
      );
      if (previous?.refunded) throw deps.refusal(REFUNDED_MESSAGE);
    };
    const result = await checkout(who, input, { ...options, onCardPayment: record });
    await changeRecord(who.customerId, intentId, () => null).catch((err) =>
      deps.log(`could not clear the card checkout record of ${who.customerId}: ${errorSummary(err)}`),
    );
    return result;
  };

  /** A run that failed for a passing reason: try again after a doubled wait, or give up after the last attempt. */
  const postpone = async (customerId: string, intentId: string, err: unknown) => {
    let attempts = 0;
    await changeRecord(customerId, intentId, (old) => {
      if (!old || old.refunded) return undefined;
      attempts = (old.attempts ?? 0) + 1;
      if (attempts >= deps.maxAttempts) return null;
      const wait = Math.min(deps.afterSeconds * 2 ** attempts, MAX_RETRY_DELAY_SECONDS);
      return { ...old, attempts, retryAt: new Date(Date.now() + wait * 1000).toISOString() };
    });
    if (attempts >= deps.maxAttempts) {
      deps.log(
        `card checkout recovery for ${intentId} gave up after ${attempts} failed attempts (a payment still taken is refunded by the reconciliation): ${errorSummary(err)}`,
      );
    } else if (attempts > 0) {
      deps.log(
        `card checkout recovery for ${intentId} failed (attempt ${attempts} of ${deps.maxAttempts}), will retry: ${errorSummary(err)}`,
      );
    }
  };

  const sweep = async (): Promise<number> => {
    // Sessions are the session domain's table; this only reads which ones hold stale records.
    const rows = await selectRows<{ customer_id: string; intent_id: string; record: CardCheckoutRecord }>(
      deps.db,
      sql`
      select s.customer_id, r.key as intent_id, r.value as record from sessions s, jsonb_each(s.data -> ${RECORDS_KEY}) r
      where s.data ? ${RECORDS_KEY} and not coalesce((r.value ->> 'refunded')::boolean, false)
        and (r.value ->> 'at')::timestamptz < now() - make_interval(secs => ${deps.afterSeconds})
        and coalesce((r.value ->> 'retryAt')::timestamptz, '-infinity'::timestamptz) <= now()`,
    );
    let recovered = 0;
    for (const { customer_id: customerId, intent_id: intentId, record } of rows) {
      try {
        if (await deps.orderForIntent(intentId)) {
          await changeRecord(customerId, intentId, () => null);
          continue;
        }
        try {
          await checkout({ customerId, userId: record.userId }, record.input as I);
          recovered++;
          deps.log(`recovered the card checkout of ${intentId}`);
          await changeRecord(customerId, intentId, () => null);
        } catch (err) {
          if (await deps.orderForIntent(intentId)) {
            // Another process just placed it.
            await changeRecord(customerId, intentId, () => null);
            continue;
          }
          // Stripe or the database failed: the order may still be placed by a later run.
          if (!deps.isRefusal(err)) throw err;
          // The order cannot be placed: money taken goes back.
          const state = await deps.paymentState(intentId);
          if (state === 'succeeded') {
            await deps.refund(intentId);
            await changeRecord(customerId, intentId, (old) => (old ? { ...old, refunded: true } : null));
            deps.log(`refunded ${intentId}: its order could not be placed (${errorSummary(err)})`);
          } else {
            await changeRecord(customerId, intentId, () => null);
            if (state === 'missing')
              deps.log(`dropped the card checkout record of ${intentId}: Stripe has no such PaymentIntent`);
          }
        }
      } catch (err) {
        await postpone(customerId, intentId, err).catch((e) =>
          deps.log(`card checkout recovery for ${intentId} could not be postponed: ${errorSummary(e)}`),
        );
      }
    }
    return recovered;
  };

  return { checkout: wrapped, sweep };
}
