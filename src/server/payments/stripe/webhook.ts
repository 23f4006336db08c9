/**
 * Stripe webhooks: signature check on the RAW request body (the SDK's constructEvent: HMAC-SHA256 of
 * `${t}.${body}` with the endpoint secret, timestamp within the tolerance — in the past, and here also in
 * the future, which the SDK lets through), then a typed view of the
 * three events the orders domain acts on. Any JSON re-serialisation of the body before this point breaks
 * the signature, so the HTTP route must hand over the body bytes untouched.
 *
 * Stripe delivers at least once and in no guaranteed order. De-duplication is by event id (the caller
 * stores processed ids; `decideWebhookDelivery` is the decision), and `decideOrderActionForStripeEvent`
 * only moves an order forward, so a replayed or late event cannot undo a newer state.
 */
import Stripe from 'stripe';

export type StripeWebhookPaymentIntent = {
  id: string;
  amountCents: number;
  amountReceivedCents: number;
  currency: string;
  status: string;
  metadata: Record<string, string>;
};

type EventBase = { id: string; created: number; livemode: boolean };

export type StripeWebhookEvent =
  | (EventBase & { type: 'payment_intent.succeeded'; paymentIntent: StripeWebhookPaymentIntent })
  | (EventBase & {
      type: 'payment_intent.payment_failed';
      paymentIntent: StripeWebhookPaymentIntent;
      failure: { code: string | null; declineCode: string | null; message: string | null };
    })
  | (EventBase & {
      type: 'charge.refunded';
      charge: {
        id: string;
        paymentIntentId: string | null;
        amountCents: number;
        amountRefundedCents: number;
        currency: string;
        refunded: boolean;
      };
    })
  /** A correctly signed event of a type Meshfront does not act on (acknowledge it with 200). */
  | (EventBase & { type: 'ignored'; originalType: string });

export type StripeWebhookParseResult =
  | { ok: true; event: StripeWebhookEvent }
  | {
      ok: false;
      reason: 'missing_signature' | 'invalid_signature' | 'timestamp_out_of_tolerance' | 'malformed_payload';
      message: string;
    };

function paymentIntentView(pi: Stripe.PaymentIntent): StripeWebhookPaymentIntent {
  return {
    id: pi.id,
    amountCents: pi.amount,
    amountReceivedCents: pi.amount_received,
    currency: pi.currency,
    status: pi.status,
    metadata: { ...(pi.metadata ?? {}) },
  };
}

/**
 * Verify and decode a webhook. `rawBody` is the request body exactly as received; `signatureHeader` is
 * the Stripe-Signature header. Never throws for bad input: the route answers 400 on `ok: false`.
 */
export function parseStripeWebhook(
  rawBody: string | Buffer,
  signatureHeader: string | null | undefined,
  secret: string,
  toleranceSeconds = 300,
  /** For tests: the receive time in milliseconds since the epoch (default now), as the SDK takes it. */
  receivedAt?: number,
): StripeWebhookParseResult {
  if (!signatureHeader) return { ok: false, reason: 'missing_signature', message: 'Missing Stripe-Signature header' };
  if (typeof rawBody !== 'string' && !Buffer.isBuffer(rawBody)) {
    return {
      ok: false,
      reason: 'malformed_payload',
      message: 'The webhook body must be the raw string or Buffer, not parsed JSON',
    };
  }
  let event: Stripe.Event;
  try {
    event = Stripe.webhooks.constructEvent(rawBody, signatureHeader, secret, toleranceSeconds, undefined, receivedAt);
  } catch (e) {
    const message = (e as Error)?.message ?? String(e);
    if (e instanceof Stripe.errors.StripeSignatureVerificationError) {
      if (/tolerance/i.test(message)) return { ok: false, reason: 'timestamp_out_of_tolerance', message };
      return { ok: false, reason: 'invalid_signature', message };
    }
    // Signed correctly but not JSON (constructEvent parses after verifying).
    return { ok: false, reason: 'malformed_payload', message };
  }
  // The SDK refuses a signature older than the tolerance but not one from the future: a delivery signed
  // ahead of time (a leaked secret, a clock far off) would stay replayable for as long as it lies ahead.
  const signedAt = signatureTimestamp(signatureHeader);
  const now = Math.floor((receivedAt ?? Date.now()) / 1000);
  if (toleranceSeconds > 0 && signedAt !== null && signedAt - now > toleranceSeconds) {
    return {
      ok: false,
      reason: 'timestamp_out_of_tolerance',
      message: `Timestamp outside the tolerance zone: the signature is dated ${signedAt - now} s in the future (at most ${toleranceSeconds} s allowed)`,
    };
  }
  if (!event || typeof event.id !== 'string' || typeof event.type !== 'string' || !event.data?.object) {
    return { ok: false, reason: 'malformed_payload', message: 'Not a Stripe event object' };
  }
  const shapeProblem = eventShapeProblem(event);
  if (shapeProblem) return { ok: false, reason: 'malformed_payload', message: shapeProblem };
  const base: EventBase = { id: event.id, created: event.created, livemode: event.livemode };
  switch (event.type) {
    case 'payment_intent.succeeded':
      return { ok: true, event: { ...base, type: event.type, paymentIntent: paymentIntentView(event.data.object) } };
    case 'payment_intent.payment_failed': {
      const pi = event.data.object;
      const err = pi.last_payment_error;
      return {
        ok: true,
        event: {
          ...base,
          type: event.type,
          paymentIntent: paymentIntentView(pi),
          failure: { code: err?.code ?? null, declineCode: err?.decline_code ?? null, message: err?.message ?? null },
        },
      };
    }
    case 'charge.refunded': {
      const ch = event.data.object;
      return {
        ok: true,
        event: {
          ...base,
          type: event.type,
          charge: {
            id: ch.id,
            paymentIntentId:
              typeof ch.payment_intent === 'string' ? ch.payment_intent : (ch.payment_intent?.id ?? null),
            amountCents: ch.amount,
            amountRefundedCents: ch.amount_refunded,
            currency: ch.currency,
            refunded: ch.refunded,
          },
        },
      };
    }
    default:
      return { ok: true, event: { ...base, type: 'ignored', originalType: event.type } };
  }
}

/** The `t=` of a Stripe-Signature header (unix seconds) read as the SDK reads it (the last one, parseInt); null without one. */
function signatureTimestamp(header: string): number | null {
  const t = header
    .split(',')
    .map((item) => item.split('='))
    .filter(([key]) => key === 't')
    .at(-1)?.[1];
  const seconds = t === undefined ? NaN : parseInt(t, 10);
  return Number.isFinite(seconds) ? seconds : null;
}

const STRIPE_ID = /^[A-Za-z0-9_]{1,255}$/;

/**
 * A correctly signed event still comes from outside: the ids and amounts the orders domain stores or
 * compares must have Stripe's shape (ids of letters, digits and '_'; amounts integer cents), or the event
 * is refused as malformed instead of failing later in the database.
 */
function eventShapeProblem(event: Stripe.Event): string | null {
  if (!STRIPE_ID.test(event.id)) return 'The event id is not a Stripe id';
  if (!STRIPE_ID.test(event.type.replace(/\./g, '_'))) return 'The event type is not a Stripe event type';
  const object = event.data.object as unknown as Record<string, unknown>;
  const isInt = (v: unknown) => Number.isSafeInteger(v);
  if (event.type === 'payment_intent.succeeded' || event.type === 'payment_intent.payment_failed') {
    if (typeof object.id !== 'string' || !STRIPE_ID.test(object.id)) return 'The PaymentIntent id is not a Stripe id';
    if (!isInt(object.amount) || !isInt(object.amount_received))
      return 'The PaymentIntent amounts are not integer cents';
    if (typeof object.currency !== 'string' || typeof object.status !== 'string')
      return 'The PaymentIntent has no currency or status';
    if (
      object.metadata !== undefined &&
      object.metadata !== null &&
      (typeof object.metadata !== 'object' || Array.isArray(object.metadata))
    )
      return 'The PaymentIntent metadata is not an object';
  }
  if (event.type === 'charge.refunded') {
    if (typeof object.id !== 'string' || !STRIPE_ID.test(object.id)) return 'The charge id is not a Stripe id';
    const pi = object.payment_intent;
    const piId = typeof pi === 'string' ? pi : pi && typeof pi === 'object' ? (pi as { id?: unknown }).id : null;
    if (piId !== null && piId !== undefined && (typeof piId !== 'string' || !STRIPE_ID.test(piId)))
      return 'The charge’s PaymentIntent id is not a Stripe id';
    if (!isInt(object.amount) || !isInt(object.amount_refunded) || typeof object.currency !== 'string')
      return 'The charge amounts are not integer cents';
  }
  return null;
}

/** De-duplication: process an event id once; a redelivery is acknowledged without acting again. */
export function decideWebhookDelivery(
  eventId: string,
  isProcessed: (eventId: string) => boolean,
): 'process' | 'duplicate' {
  return isProcessed(eventId) ? 'duplicate' : 'process';
}

/** WooGraphQL order statuses, lower-case as stored. */
export type OrderStatus =
  | 'pending'
  | 'processing'
  | 'on-hold'
  | 'completed'
  | 'cancelled'
  | 'refunded'
  | 'failed'
  | 'checkout-draft';

export type StripeOrderAction =
  | { action: 'mark_paid'; transactionId: string }
  | { action: 'mark_failed'; message: string }
  | { action: 'mark_refunded' }
  | { action: 'record_partial_refund'; refundedCents: number }
  | { action: 'ignore'; why: string };

/**
 * What an event means for the order it belongs to (the caller found the order by payment intent id).
 * Only forward moves: payment_complete from pending/failed/cancelled/on-hold (WooCommerce's rule) and
 * only for the exact amount and currency; a failure only marks a still-unpaid order failed; a refund
 * of the whole charge marks the order refunded, a partial one is recorded.
 */
export function decideOrderActionForStripeEvent(
  event: StripeWebhookEvent,
  order: { status: OrderStatus; totalCents: number; currency: string },
): StripeOrderAction {
  switch (event.type) {
    case 'payment_intent.succeeded': {
      const pi = event.paymentIntent;
      if (
        pi.amountReceivedCents !== order.totalCents ||
        pi.amountCents !== order.totalCents ||
        pi.currency.toLowerCase() !== order.currency.toLowerCase()
      ) {
        return {
          action: 'ignore',
          why: `amount ${pi.amountReceivedCents} ${pi.currency} does not match the order total ${order.totalCents} ${order.currency}`,
        };
      }
      if (['pending', 'failed', 'cancelled', 'on-hold', 'checkout-draft'].includes(order.status))
        return { action: 'mark_paid', transactionId: pi.id };
      return { action: 'ignore', why: `order is already ${order.status}` };
    }
    case 'payment_intent.payment_failed':
      if (order.status === 'pending')
        return { action: 'mark_failed', message: event.failure.message ?? 'The card payment failed.' };
      return { action: 'ignore', why: `order is ${order.status}` };
    case 'charge.refunded': {
      if (order.status === 'refunded') return { action: 'ignore', why: 'order is already refunded' };
      const c = event.charge;
      if (c.refunded || c.amountRefundedCents >= c.amountCents) return { action: 'mark_refunded' };
      return { action: 'record_partial_refund', refundedCents: c.amountRefundedCents };
    }
    default:
      return { action: 'ignore', why: `event type ${event.originalType} is not handled` };
  }
}
