/**
 * Pure helpers of the order pages: which getOrder call to make, whether the answer is the order the
 * URL names, the rows of the totals, the addresses as lines, the KDA payment window and progress, and
 * when to keep polling.
 * tests/unit/checkout-order-view.test.ts covers them.
 */
import type { AddressFragment as Address, OrderFragment as Order } from '../../graphql/generated/operations';
import type { OrderIdTypeEnum as OrderIdType, OrderStatusEnum as OrderStatus } from '../../graphql/generated/schema';
import { formatAddress } from '../../lib/address/format';
import { pageLocale } from '../../lib/i18n/page-locale';
import { centsToDecimal, decimalToCents, formatMoney } from '../../lib/money';
import { gatewayKind } from '../checkout/gateways';

/**
 * An order as the order pages show it (fragments/Order.graphql). With the KDA gateway's fields: amounts
 * are KDA decimal strings; `timeoutValue` is the seconds left in the payment window when the order was
 * read, `paymentExpiresAt` the ISO 8601 end of the window.
 */
export type ViewOrder = Order;

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

type OrderLine = NonNullable<NonNullable<NonNullable<Order['lineItems']>['nodes']>[number]>;

/**
 * A line's variation as the order pages print it: "Antennengewinn: 5,8 dBi · Frequenzband: EU868", the
 * names the engine recorded when the order was placed (never the slugs); '' for a simple product.
 */
export function lineChoices(line: Pick<OrderLine, 'attributes'>): string {
  return (line.attributes ?? [])
    .filter((a) => a.valueName)
    .map((a) => `${a.label || a.name}: ${a.valueName}`)
    .join(' · ');
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

/**
 * An address as display lines: the postal address as its country writes it (state names, not codes;
 * src/lib/address/format.ts, as in the order e-mail), then phone and e-mail.
 */
export function addressLines(
  address: Partial<Address> | null | undefined,
  countryName: (code: string) => string = (c) => c,
): string[] {
  if (!address) return [];
  return [...formatAddress(address, { countryName }), address.phone, address.email]
    .map((line) => (line ?? '').trim())
    .filter(Boolean);
}

/**
 * What an order line shows: its amount before discounts, so the lines add up to the subtotal and the
 * discount is a row of its own below them (WooCommerce's order details do the same).
 */
export function lineAmount(
  line: {
    subtotal?: string | null;
    total?: string | null;
    rawSubtotal?: string | null;
    rawSubtotalTax?: string | null;
  },
  includeTax = false,
): string {
  // With its tax when the order's prices included it, as the cart showed the line.
  return (includeTax ? withTax(line.rawSubtotal, line.rawSubtotalTax) : null) ?? line.subtotal ?? line.total ?? '';
}

/** A net RAW amount plus its RAW tax, formatted; null when the net amount is missing or malformed. */
function withTax(net: string | null | undefined, tax: string | null | undefined): string | null {
  const cents = decimalToCents(net ?? '');
  return cents === null ? null : formatMoney(cents + (decimalToCents(tax ?? '') ?? 0), pageLocale());
}

/** includedTax: the tax the total includes (WooCommerce's "includes € VAT"), when amounts are shown with it. */
export type TotalRow = { key: 'subtotal' | 'discount' | 'shipping' | 'tax' | 'total' | 'includedTax'; value: string };

type TotalsFields = Pick<Order, 'subtotal' | 'discountTotal' | 'shippingTotal' | 'totalTax' | 'total'> &
  Partial<
    Pick<
      Order,
      | 'pricesIncludeTax'
      | 'rawSubtotal'
      | 'rawTotalTax'
      | 'rawDiscountTotal'
      | 'rawDiscountTax'
      | 'rawShippingTotal'
      | 'rawShippingTax'
    >
  > & { lineItems?: { nodes?: ({ rawSubtotalTax?: string | null } | null)[] | null } | null };

/**
 * The order's totals, top to bottom: subtotal, discount (when there is one, as a minus), shipping, tax,
 * total. An order whose prices included tax shows them as its cart did (src/islands/cart/cart-view.ts):
 * subtotal, discount and shipping with their tax, and after the total the tax it includes.
 */
export function orderTotalRows(order: TotalsFields): TotalRow[] {
  const incl = order.pricesIncludeTax === true;
  const subtotalTax = (order.lineItems?.nodes ?? []).reduce(
    (sum, line) => sum + (decimalToCents(line?.rawSubtotalTax ?? '') ?? 0),
    0,
  );
  const shown = (
    formatted: string | null | undefined,
    raw: string | null | undefined,
    tax: string | null | undefined,
  ) => (incl ? withTax(raw, tax) : null) ?? formatted ?? '';
  const rows: TotalRow[] = [
    { key: 'subtotal', value: shown(order.subtotal, order.rawSubtotal, centsToDecimal(subtotalTax)) },
  ];
  if (order.discountTotal && /[1-9]/.test(order.discountTotal)) {
    const discount = shown(order.discountTotal, order.rawDiscountTotal, order.rawDiscountTax);
    rows.push({ key: 'discount', value: `-${discount.replace(/^-/, '')}` });
  }
  if (order.shippingTotal)
    rows.push({ key: 'shipping', value: shown(order.shippingTotal, order.rawShippingTotal, order.rawShippingTax) });
  if (!incl) rows.push({ key: 'tax', value: order.totalTax ?? '' });
  rows.push({ key: 'total', value: order.total ?? '' });
  if (incl && (decimalToCents(order.rawTotalTax ?? '') ?? 0) > 0)
    rows.push({ key: 'includedTax', value: order.totalTax ?? '' });
  return rows;
}

/** The order-summary page for an order. */
export function orderSummaryPath(
  localePrefix: string,
  order: { databaseId: number | null; orderKey: string | null },
): string {
  const key = order.orderKey ? `?key=${encodeURIComponent(order.orderKey)}` : '';
  return `${localePrefix}/order-summary/${order.databaseId ?? ''}${key}`;
}
