/**
 * The order screen's actions, from a posted form to the admin endpoint: complete (tracking note, customer
 * e-mail), hold, back to processing, cancel (stock returned), refund (full or partial, with the key the
 * page generated so a double submit never refunds twice) and notes. Returns where to go, or the
 * refusal to show on the form.
 */
import type { AdminCaller } from './client.ts';
import type { FormFields } from './forms.ts';
import type { DONE_MESSAGES } from './page.ts';

export type OrderIntent = 'complete' | 'hold' | 'processing' | 'cancel' | 'refund' | 'note';
export const ORDER_INTENTS: readonly OrderIntent[] = ['complete', 'hold', 'processing', 'cancel', 'refund', 'note'];

/** Which moves the screen offers from a status (the engine enforces the same rule). */
export function allowedMoves(status: string, refundableCents: number): Set<OrderIntent> {
  const s = new Set<OrderIntent>(['note']);
  if (status === 'PROCESSING' || status === 'ON_HOLD') s.add('complete');
  if (status === 'ON_HOLD') s.add('processing');
  if (status === 'PENDING' || status === 'PROCESSING') s.add('hold');
  if (status === 'PENDING' || status === 'PROCESSING' || status === 'ON_HOLD') s.add('cancel');
  if (['PROCESSING', 'COMPLETED', 'ON_HOLD', 'REFUNDED'].includes(status) && refundableCents > 0) s.add('refund');
  return s;
}

type Done = keyof typeof DONE_MESSAGES;

/** Runs one action; `done` when it went through (a code for the flash message), null when the form has errors. */
export async function runOrderAction(
  call: AdminCaller,
  orderId: number,
  intent: OrderIntent,
  f: FormFields,
  refundableCents: number,
): Promise<Done | null> {
  const note = f.text('note', 'The note', { max: 2000 });
  switch (intent) {
    case 'complete': {
      const trackingNumber = f.text('trackingNumber', 'Tracking number', { max: 100 });
      const trackingCarrier = f.text('trackingCarrier', 'Carrier', { max: 60 });
      const trackingUrl = f.text('trackingUrl', 'Tracking link', { max: 500 });
      if (trackingUrl && !/^https?:\/\/\S+$/.test(trackingUrl))
        f.errors.trackingUrl ??= 'The tracking link must be a full address starting with https://.';
      if ((trackingCarrier || trackingUrl) && !trackingNumber)
        f.errors.trackingNumber ??= 'Give the tracking number too.';
      if (!f.ok) return null;
      const notifyCustomer = f.checked('notify');
      const r = await call('adminUpdateOrderStatus', {
        input: {
          orderId,
          status: 'COMPLETED',
          note: note || null,
          trackingNumber: trackingNumber || null,
          trackingCarrier: trackingCarrier || null,
          trackingUrl: trackingUrl || null,
          notifyCustomer,
        },
      });
      return notifyCustomer
        ? r.adminUpdateOrderStatus.customerNotified
          ? 'completed-mailed'
          : 'completed-not-mailed'
        : 'completed';
    }
    case 'hold':
    case 'processing': {
      if (!f.ok) return null;
      await call('adminUpdateOrderStatus', {
        input: { orderId, status: intent === 'hold' ? 'ON_HOLD' : 'PROCESSING', note: note || null },
      });
      return intent === 'hold' ? 'on-hold' : 'processing';
    }
    case 'cancel': {
      f.confirmed('confirm', 'Tick the box to confirm the cancellation.');
      if (!f.ok) return null;
      await call('adminUpdateOrderStatus', { input: { orderId, status: 'CANCELLED', note: note || null } });
      return 'cancelled';
    }
    case 'refund': {
      const amountCents = f.money('amount', 'Amount', { min: 1, max: refundableCents });
      const reason = f.text('reason', 'Reason', { max: 500 });
      const key = f.raw('key');
      if (!/^[A-Za-z0-9:._-]{8,100}$/.test(key))
        f.errors.amount ??= 'The form is out of date; reload the page and try again.';
      f.confirmed('confirm', 'Tick the box to confirm the refund.');
      if (!f.ok) return null;
      const r = await call('adminRefundOrder', {
        input: { orderId, amountCents, reason: reason || null, idempotencyKey: key },
      });
      return r.adminRefundOrder.replayed ? 'refund-replayed' : 'refunded';
    }
    case 'note': {
      if (!note) f.errors.note ??= 'The note is empty.';
      if (!f.ok || !note) return null;
      await call('adminAddOrderNote', { orderId, note });
      return 'noted';
    }
  }
}
