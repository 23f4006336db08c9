/** Display helpers of the admin pages (English, UTC: operators in different places see the same times). */
import type {
  AdminBackorders,
  AdminDiscountType,
  AdminMailStatus,
  AdminOrderStatus,
  AdminProductStatus,
  AdminReviewStatus,
  AdminStockStatus,
  AdminSubscriberStatus,
} from '../../../graphql/generated/admin-schema.ts';
import { formatEUR } from '../../../lib/money.ts';

export const money = (cents: number | null | undefined): string =>
  cents === null || cents === undefined ? '–' : formatEUR(cents);

/** ISO → "2026-11-22 16:48 UTC" (or the date alone). */
export function when(iso: string | null | undefined, dateOnly = false): string {
  if (!iso) return '–';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return '–';
  const s = d.toISOString();
  return dateOnly ? s.slice(0, 10) : `${s.slice(0, 10)} ${s.slice(11, 16)} UTC`;
}

export const ORDER_STATUS_LABELS: Readonly<Record<AdminOrderStatus, string>> = {
  PENDING: 'Pending payment',
  PROCESSING: 'Processing',
  ON_HOLD: 'On hold',
  COMPLETED: 'Completed',
  CANCELLED: 'Cancelled',
  REFUNDED: 'Refunded',
  FAILED: 'Failed',
};

export const PRODUCT_STATUS_LABELS: Readonly<Record<AdminProductStatus, string>> = {
  PUBLISH: 'Published',
  DRAFT: 'Draft',
  PRIVATE: 'Archived',
};
export const STOCK_STATUS_LABELS: Readonly<Record<AdminStockStatus, string>> = {
  INSTOCK: 'In stock',
  OUTOFSTOCK: 'Out of stock',
  ONBACKORDER: 'On backorder',
};
export const BACKORDER_LABELS: Readonly<Record<AdminBackorders, string>> = {
  NO: 'Do not allow',
  NOTIFY: 'Allow, but notify the customer',
  YES: 'Allow',
};
export const REVIEW_STATUS_LABELS: Readonly<Record<AdminReviewStatus, string>> = {
  APPROVED: 'Approved',
  PENDING: 'Waiting',
  REJECTED: 'Rejected',
};
export const SUBSCRIBER_STATUS_LABELS: Readonly<Record<AdminSubscriberStatus, string>> = {
  PENDING: 'Not confirmed',
  CONFIRMED: 'Confirmed',
  UNSUBSCRIBED: 'Unsubscribed',
};
export const MAIL_STATUS_LABELS: Readonly<Record<AdminMailStatus, string>> = {
  QUEUED: 'Retrying',
  SENT: 'Sent',
  FAILED: 'Failed',
  CANCELLED: 'Cancelled',
};
export const DISCOUNT_TYPE_LABELS: Readonly<Record<AdminDiscountType, string>> = {
  PERCENT: 'Percentage off the cart',
  FIXED_CART: 'Fixed amount off the cart',
  FIXED_PRODUCT: 'Fixed amount off each product',
};

/** The values of a label map (the admin API's enum values), for a filter to choose from. */
export const labelled = <K extends string>(labels: Readonly<Record<K, string>>): K[] => Object.keys(labels) as K[];

/** A coupon's amount as the operator reads it: "10%" or "€5.00". Percent amounts are hundredths of a percent. */
export function couponAmount(type: string, amountCents: number): string {
  if (type === 'PERCENT') return `${(amountCents / 100).toFixed(2).replace(/\.?0+$/, '')}%`;
  return formatEUR(amountCents);
}

/** Page numbers for a list: offset of a 1-based page, and the last page. */
export function paging(pageParam: string | null, perPage: number): { page: number; offset: number } {
  const page = /^\d{1,6}$/.test(pageParam ?? '') ? Math.max(1, Number(pageParam)) : 1;
  return { page, offset: (page - 1) * perPage };
}
