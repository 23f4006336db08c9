/**
 * Pure helpers that turn the engine's Cart into what the drawer and the checkout review show.
 * tests/unit/cart-view.test.ts covers them.
 */
import type { Cart, CartItem, ShippingRate } from '../../graphql/types';
import { decimalToCents } from '../../lib/money';

export function itemName(item: CartItem): string {
  return item.variation?.node?.name || item.product?.node?.name || '';
}

/** The product page slug: a variation links to its parent product. */
export function itemSlug(item: CartItem): string | null {
  return item.product?.node?.slug ?? null;
}

export function itemImage(item: CartItem): { src: string | null; alt: string } {
  const image = item.variation?.node?.image?.sourceUrl ? item.variation.node.image : item.product?.node?.image;
  return { src: image?.sourceUrl ?? null, alt: image?.altText ?? '' };
}

/** A slug-looking attribute value ("eu-868") reads better as words ("Eu 868"); plain text stays as is. */
export function attributeValueLabel(value: string): string {
  if (/^[a-z0-9]+(-[a-z0-9]+)+$/.test(value)) {
    const words = value.replace(/-/g, ' ');
    return words.charAt(0).toUpperCase() + words.slice(1);
  }
  return value;
}

/** The chosen variation's attributes: [{ label: 'Colour', value: 'Black' }]. "Any" values ("") are skipped. */
export function itemAttributes(item: CartItem): { label: string; value: string }[] {
  return (item.variation?.attributes ?? [])
    .filter((a) => a?.value)
    .map((a) => ({
      label: a.label || (a.name ?? '').replace(/^pa_/, '').replace(/[-_]/g, ' '),
      value: attributeValueLabel(a.value as string),
    }));
}

/** The formatted unit price: the variation's when there is one. */
export function itemUnitPrice(item: CartItem): string | null {
  return (
    item.variation?.node?.price ??
    ('price' in (item.product?.node ?? {}) ? ((item.product?.node as { price?: string | null }).price ?? null) : null)
  );
}

/** True when a RAW amount is a positive number of cents; formatted-only values count as non-zero unless they look zero. */
export function isPositiveAmount(raw: string | null | undefined, formatted?: string | null): boolean {
  if (raw !== undefined && raw !== null && raw !== '') {
    const cents = decimalToCents(raw);
    return cents !== null && cents > 0;
  }
  if (!formatted) return false;
  return /[1-9]/.test(formatted);
}

export interface TotalsRow {
  key: 'subtotal' | 'discount' | 'shipping' | 'tax' | 'total';
  value: string;
}

/**
 * The totals block: subtotal, discount (only when something is discounted), shipping (when the cart
 * needs shipping or a rate is chosen), tax, total.
 */
export function totalsRows(cart: Cart): TotalsRow[] {
  const rows: TotalsRow[] = [{ key: 'subtotal', value: cart.subtotal ?? '' }];
  if (isPositiveAmount(cart.rawDiscountTotal, cart.discountTotal) || (cart.appliedCoupons?.length ?? 0) > 0) {
    rows.push({ key: 'discount', value: cart.discountTotal ? `-${cart.discountTotal.replace(/^-/, '')}` : '' });
  }
  if (hasShippingRates(cart) || isPositiveAmount(cart.rawShippingTotal, cart.shippingTotal)) {
    rows.push({ key: 'shipping', value: cart.shippingTotal ?? '' });
  }
  rows.push({ key: 'tax', value: cart.totalTax ?? '' });
  rows.push({ key: 'total', value: cart.total ?? '' });
  return rows;
}

export function hasShippingRates(cart: Cart): boolean {
  return (cart.availableShippingMethods ?? []).some((p) => (p?.rates?.length ?? 0) > 0);
}

/** The packages with their rates and the chosen rate id (the first rate when none is chosen yet). */
export function shippingPackages(
  cart: Cart,
): { index: number; details: string | null; rates: ShippingRate[]; chosen: string | null }[] {
  return (cart.availableShippingMethods ?? []).map((pkg, index) => {
    const rates = (pkg?.rates ?? []).filter((r): r is ShippingRate => Boolean(r?.id));
    const chosenId = cart.chosenShippingMethods?.[index] ?? null;
    const chosen = rates.some((r) => r.id === chosenId) ? chosenId : (rates[0]?.id ?? null);
    return { index, details: pkg?.packageDetails ?? null, rates, chosen };
  });
}

/**
 * A quantity typed into the stepper: whole numbers from 0 (removes) up to `max`; anything else keeps
 * the current quantity.
 */
export function parseQuantity(input: string, current: number, max = 999): number {
  if (!/^\s*\d+\s*$/.test(input)) return current;
  return Math.min(max, Math.max(0, Number.parseInt(input, 10)));
}
