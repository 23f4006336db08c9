/**
 * Crash safety for card checkouts. The customer pays at Stripe first (Stripe.js), then the storefront
 * sends Checkout with the PaymentIntent id; if the engine dies while handling that Checkout, the
 * transaction rolls back and the paid PaymentIntent has no order. This module closes that gap:
 *
 * - Before a card Checkout does anything else, it is recorded in the customer's session
 *   (`cardCheckouts[<PaymentIntent id>]`: the checkout input, without any account password). A Checkout
 *   that placed its order removes its record; one that was refused (e.g. the goods sold out after the
 *   customer paid) keeps it, so the customer can still fix the cart and try again with that payment.
 * - A record older than STRIPE_RECOVERY_AFTER_SECONDS belongs to a Checkout whose process died, or to a
 *   payment whose order was refused. The recovery sweep (at start and on the order-sweep interval, in
 *   every process) replays it: the normal checkout, which verifies the PaymentIntent with Stripe again,
 *   places the paid order and empties the cart. If the order can no longer be placed, a succeeded payment
 *   is refunded in full (so no customer pays for nothing) and the record stays, marked refunded, so that
 *   the refunded payment cannot pay a later Checkout.
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

export const RECORDS_KEY = 'cardCheckouts';

/**
 * `refunded`: the payment went back; a Checkout with it is refused. `orphan`: written by the
 * reconciliation (reconcile.ts) for a payment no Checkout ever claimed (its `input` is empty);
 * `refundPending`: that refund is not confirmed by Stripe yet (`at` is then the lease of the run sending it).
 */
export type CardCheckoutRecord = { userId: string | null; input: Record<string, unknown>; at: string; refunded?: boolean; orphan?: boolean; refundPending?: boolean };

type Who = { customerId: string; userId?: string | null };
type OrderRef = { id: number; customerId: string; orderKey: string };
type CheckoutFn<I, R> = (who: Who, input: I, options?: { clientIp?: string }) => Promise<R>;

export type RecoveryDeps<I, R, O extends OrderRef> = {
  db: Database;
  sessions: {
    update<T>(customerId: string, fn: (data: Record<string, unknown>) => Promise<{ data?: Record<string, unknown>; result: T }>): Promise<T>;
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
  /** Whether Stripe says the intent succeeded (money taken). */
  succeeded(paymentIntentId: string): Promise<boolean>;
  afterSeconds: number;
  log: (message: string) => void;
};

export const REFUNDED_MESSAGE = 'This card payment was refunded because the order could not be placed. Please pay again.';

const isCardCheckout = (input: unknown): input is { paymentMethod?: string | null; transactionId?: string | null } =>
  !!input && typeof input === 'object' && String((input as { paymentMethod?: unknown }).paymentMethod ?? '').trim() === 'stripe';

const recordsOf = (data: Record<string, unknown>) => ({ ...((data[RECORDS_KEY] as Record<string, CardCheckoutRecord> | undefined) ?? {}) });

/**
 * Wraps the checkout with the record-before / clear-after-success steps and the idempotent retry, and
 * returns the sweep that completes (or refunds) what is left.
 */
export function withCardCheckoutRecovery<I, R, O extends OrderRef>(checkout: CheckoutFn<I, R>, deps: RecoveryDeps<I, R, O>): { checkout: CheckoutFn<I, R>; sweep: () => Promise<number> } {
  /** Changes one record (null removes it); returns the record as it was. */
  const changeRecord = (customerId: string, intentId: string, change: (old: CardCheckoutRecord | undefined) => CardCheckoutRecord | null | undefined) =>
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

  const wrapped: CheckoutFn<I, R> = async (who, input, options) => {
    const intentId = isCardCheckout(input) ? String(input.transactionId ?? '').trim() : '';
    if (!intentId) return checkout(who, input, options);
    const paid = await deps.orderForIntent(intentId);
    // The same customer again with nothing new in the cart: the answer they missed. A new cart with a used
    // payment goes on to the checkout, which refuses it.
    if (paid && paid.customerId === (who.userId ?? who.customerId) && (await deps.cartIsEmpty(who.customerId))) return deps.answerFor(paid);
    // Never keep a password in session data: a recovered order is placed without creating the account.
    const { account: _account, ...kept } = input as Record<string, unknown>;
    const previous = await changeRecord(who.customerId, intentId, (old) => (old?.refunded ? undefined : { userId: who.userId ?? null, input: kept, at: new Date().toISOString() }));
    if (previous?.refunded) throw deps.refusal(REFUNDED_MESSAGE);
    const result = await checkout(who, input, options);
    await changeRecord(who.customerId, intentId, () => null).catch((err) => deps.log(`could not clear the card checkout record of ${who.customerId}: ${(err as Error).message}`));
    return result;
  };

  const sweep = async (): Promise<number> => {
    // Sessions are the session domain's table; this only reads which ones hold stale records.
    const result = await deps.db.execute(sql`
      select s.customer_id, r.key as intent_id, r.value as record from sessions s, jsonb_each(s.data -> ${RECORDS_KEY}) r
      where s.data ? ${RECORDS_KEY} and not coalesce((r.value ->> 'refunded')::boolean, false)
        and (r.value ->> 'at')::timestamptz < now() - make_interval(secs => ${deps.afterSeconds})`);
    const rows = ((result as { rows?: unknown[] }).rows ?? (result as unknown as unknown[])) as { customer_id: string; intent_id: string; record: CardCheckoutRecord }[];
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
          // The order cannot be placed (unless another process just placed it): money taken goes back.
          if (await deps.orderForIntent(intentId)) {
            await changeRecord(customerId, intentId, () => null);
          } else if (await deps.succeeded(intentId)) {
            await deps.refund(intentId);
            await changeRecord(customerId, intentId, (old) => (old ? { ...old, refunded: true } : null));
            deps.log(`refunded ${intentId}: its order could not be placed (${(err as Error).message})`);
          } else {
            await changeRecord(customerId, intentId, () => null);
          }
        }
      } catch (err) {
        deps.log(`card checkout recovery for ${intentId} failed, will retry: ${(err as Error).message}`);
      }
    }
    return recovered;
  };

  return { checkout: wrapped, sweep };
}
