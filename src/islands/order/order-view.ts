/**
 * Pure helpers of the order pages: which getOrder call to make, whether the answer is the order the
 * URL names, the KDA payment window and progress, and when to keep polling.
 * tests/unit/checkout-order-view.test.ts covers them.
 */
import type { Address, Order, OrderIdType, OrderStatus } from '../../graphql/types';
import { gatewayKind } from '../checkout/gateways';

/**
 * The KDA gateway's order fields as the engine's Order type has them (src/server/schema/orders.ts):
 * amounts are KDA decimal strings; `timeoutValue` is the seconds left in the payment window when the
 * order was read, `paymentExpiresAt` the ISO 8601 end of the window.
 */
export interface CryptoOrderFields {
  paymentCurrency?: string | null;
  cryptoAmount?: string | null;
  cryptoRate?: string | null;
  receivedUnconfirmed?: string | null;
  receivedConfirmed?: string | null;
  timeoutValue?: number | null;
  paymentExpiresAt?: string | null;
  paymentAddress?: string | null;
}

export type ViewOrder = Order & CryptoOrderFields;

export function orderLookups(orderId: string, key: string | null | undefined): { id: string; idType: OrderIdType }[] {
  const calls: { id: string; idType: OrderIdType }[] = [];
  if (key) calls.push({ id: key, idType: 'ORDER_KEY' });
  // The owner (logged in) may open it by number; the engine refuses anyone else.
  if (/^\d+$/.test(orderId)) calls.push({ id: orderId, idType: 'DATABASE_ID' });
  return calls;
}

/** The answer must be the order the URL names: a valid key for another order shows nothing. */
export function orderMatches(
  order: Pick<Order, 'databaseId' | 'orderNumber'> | null | undefined,
  orderId: string,
): boolean {
  if (!order || !orderId) return false;
  return String(order.databaseId ?? '') === orderId || String(order.orderNumber ?? '') === orderId;
}

/** '/de/checkout/order-received/123' → '123'; no id → null. */
export function orderIdFromPath(pathname: string): string | null {
  const match = /\/(?:checkout\/order-received|order-summary)\/([^/?#]+)\/?$/.exec(pathname);
  if (!match) return null;
  try {
    return decodeURIComponent(match[1]);
  } catch {
    return null;
  }
}

export function isCryptoOrder(order: ViewOrder): boolean {
  return gatewayKind(order.paymentMethod) === 'crypto' || Boolean(order.cryptoAmount && order.paymentAddress);
}

const PAID: readonly OrderStatus[] = ['PROCESSING', 'COMPLETED'];
const CLOSED: readonly OrderStatus[] = ['CANCELLED', 'FAILED', 'REFUNDED'];

export function isPaid(order: Pick<Order, 'status' | 'needsPayment'>): boolean {
  return (
    (order.status !== null && PAID.includes(order.status)) ||
    (order.needsPayment === false && order.status !== null && !CLOSED.includes(order.status))
  );
}

export function isClosed(order: Pick<Order, 'status'>): boolean {
  return order.status !== null && CLOSED.includes(order.status);
}

/** Keep polling a crypto order while it waits for payment. */
export function shouldPoll(order: ViewOrder): boolean {
  return isCryptoOrder(order) && !isPaid(order) && !isClosed(order);
}

/**
 * When the payment window closes: paymentExpiresAt, or else `fetchedAt` (ms) plus timeoutValue
 * seconds; null when unknown.
 */
export function paymentWindowEnd(
  order: Pick<ViewOrder, 'timeoutValue' | 'paymentExpiresAt'>,
  fetchedAt: number,
): Date | null {
  if (order.paymentExpiresAt) {
    const end = Date.parse(order.paymentExpiresAt);
    if (!Number.isNaN(end)) return new Date(end);
  }
  const seconds = order.timeoutValue;
  if (typeof seconds === 'number' && Number.isFinite(seconds)) return new Date(fetchedAt + Math.max(0, seconds) * 1000);
  return null;
}

/** 3725000 ms → '1:02:05'; 65000 → '01:05'; ≤ 0 → '00:00'. */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const mmss = `${String(minutes).padStart(2, '0')}:${String(seconds).padStart(2, '0')}`;
  return hours > 0 ? `${hours}:${mmss}` : mmss;
}

const KDA_DECIMALS = 12;

/** "1.5" → 1500000000000n (KDA has 12 decimals); malformed → null. No floats. */
export function kdaUnits(value: string | null | undefined): bigint | null {
  if (typeof value !== 'string') return null;
  const match = /^\s*(\d+)(?:\.(\d+))?\s*$/.exec(value);
  if (!match) return null;
  const fraction = (match[2] ?? '').slice(0, KDA_DECIMALS).padEnd(KDA_DECIMALS, '0');
  return BigInt(match[1]) * 10n ** BigInt(KDA_DECIMALS) + BigInt(fraction);
}

export interface CryptoProgress {
  /** Whole percent of the amount, capped at 100. */
  unconfirmedPercent: number;
  confirmedPercent: number;
}

export function cryptoProgress(
  order: Pick<ViewOrder, 'cryptoAmount' | 'receivedUnconfirmed' | 'receivedConfirmed'>,
): CryptoProgress {
  const amount = kdaUnits(order.cryptoAmount);
  const percent = (value: string | null | undefined) => {
    const received = kdaUnits(value) ?? 0n;
    if (!amount || amount <= 0n) return 0;
    const p = (received * 100n) / amount;
    return Number(p > 100n ? 100n : p);
  };
  return { unconfirmedPercent: percent(order.receivedUnconfirmed), confirmedPercent: percent(order.receivedConfirmed) };
}

/** An address as display lines (name, company, street, postcode + city, state, country, contact). */
export function addressLines(
  address: Partial<Address> | null | undefined,
  countryName: (code: string) => string = (c) => c,
): string[] {
  if (!address) return [];
  const name = [address.firstName, address.lastName].filter(Boolean).join(' ');
  const city = [address.postcode, address.city].filter(Boolean).join(' ');
  const region = [address.state, address.country ? countryName(address.country) : ''].filter(Boolean).join(', ');
  return [name, address.company, address.address1, address.address2, city, region, address.phone, address.email]
    .map((line) => (line ?? '').trim())
    .filter(Boolean);
}

/** The order-summary page for an order. */
export function orderSummaryPath(
  localePrefix: string,
  order: { databaseId: number | null; orderKey: string | null },
): string {
  const key = order.orderKey ? `?key=${encodeURIComponent(order.orderKey)}` : '';
  return `${localePrefix}/order-summary/${order.databaseId ?? ''}${key}`;
}
