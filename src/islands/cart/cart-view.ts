/**
 * Pure helpers that turn the engine's Cart into what the drawer and the checkout review show.
 * tests/unit/cart-view.test.ts covers them.
 */
import type { CartFragment as Cart } from '../../graphql/generated/operations';
import type { CartItem, ShippingRate } from '../../graphql/shapes';
import { pageLocale } from '../../lib/i18n/page-locale';
import { decimalToCents, formatMoney } from '../../lib/money';

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

/**
 * The chosen variation's attributes: [{ label: 'Color', value: 'Black' }] — the engine's term names in the
 * page's language (valueName), never the slugs the cart keys on. "Any" values ("") are skipped.
 */
export function itemAttributes(item: CartItem): { label: string; value: string }[] {
  return (item.variation?.attributes ?? [])
    .filter((a): a is NonNullable<typeof a> => Boolean(a?.value))
    .map((a) => ({
      label: a.label || (a.name ?? '').replace(/^pa_/, '').replace(/[-_]/g, ' '),
      value: a.valueName || attributeValueLabel(a.value as string),
    }));
}

/** The chosen variation as the line prints it: "Frequency band: EU868 · Antenna gain: 5.8 dBi"; '' for none. */
export function itemChoices(item: CartItem): string {
  return itemAttributes(item)
    .map((a) => `${a.label}: ${a.value}`)
    .join(' · ');
}

/** The formatted unit price: the variation's when there is one. */
export function itemUnitPrice(item: CartItem): string | null {
  const product = item.product?.node;
  return (
    item.variation?.node?.price ??
    (product && 'price' in product ? ((product as { price?: string | null }).price ?? null) : null)
  );
}

/** A net RAW amount plus its RAW tax, formatted; null when the net amount is missing or malformed. */
function withTax(net: string | null | undefined, tax: string | null | undefined): string | null {
  const cents = decimalToCents(net ?? '');
  if (cents === null) return null;
  return formatMoney(cents + (decimalToCents(tax ?? '') ?? 0), pageLocale());
}

/**
 * What a line shows: its amount before discounts and the unit price, with their tax when the shop shows
 * cart prices so (the engine's `subtotal` is without tax, as WooGraphQL's). The unit price is the line's
 * amount over its quantity — exact, as the engine prices a line as quantity × unit price — so it is the
 * price for the customer's destination, not the catalog's.
 */
export function lineDisplay(item: CartItem, includeTax: boolean): { amount: string; unit: string | null } {
  const subtotal = decimalToCents(item.rawSubtotal ?? '');
  const tax = includeTax ? (decimalToCents(item.rawSubtotalTax ?? '') ?? 0) : 0;
  const quantity = item.quantity ?? 0;
  if (subtotal === null || quantity <= 0)
    return { amount: item.subtotal ?? item.total ?? '', unit: itemUnitPrice(item) };
  const amount = subtotal + tax;
  return {
    amount: formatMoney(amount, pageLocale()),
    unit: amount % quantity === 0 ? formatMoney(amount / quantity, pageLocale()) : itemUnitPrice(item),
  };
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
  /** includedTax: the tax the total includes (WooCommerce's "includes € VAT"), when prices are shown with it. */
  key: 'subtotal' | 'discount' | 'shipping' | 'tax' | 'total' | 'includedTax';
  value: string;
}

/**
 * The totals block: subtotal, discount (only when something is discounted), shipping (when the cart
 * needs shipping or a rate is chosen), tax, total. When the shop shows cart prices including tax
 * (`displayPricesIncludeTax`) subtotal, discount and shipping carry their tax and the tax is no row of
 * its own: the total is followed by the tax it includes (none when no tax is charged).
 */
export function totalsRows(cart: Cart): TotalsRow[] {
  const incl = cart.displayPricesIncludeTax === true;
  const shown = (
    formatted: string | null | undefined,
    raw: string | null | undefined,
    rawTax: string | null | undefined,
  ) => (incl ? withTax(raw, rawTax) : null) ?? formatted ?? '';
  const rows: TotalsRow[] = [{ key: 'subtotal', value: shown(cart.subtotal, cart.rawSubtotal, cart.rawSubtotalTax) }];
  if (isPositiveAmount(cart.rawDiscountTotal, cart.discountTotal) || (cart.appliedCoupons?.length ?? 0) > 0) {
    const discount = shown(cart.discountTotal, cart.rawDiscountTotal, cart.rawDiscountTax);
    rows.push({ key: 'discount', value: discount ? `-${discount.replace(/^-/, '')}` : '' });
  }
  if (hasShippingRates(cart) || isPositiveAmount(cart.rawShippingTotal, cart.shippingTotal)) {
    rows.push({ key: 'shipping', value: shown(cart.shippingTotal, cart.rawShippingTotal, cart.rawShippingTax) });
  }
  if (!incl) rows.push({ key: 'tax', value: cart.totalTax ?? '' });
  rows.push({ key: 'total', value: cart.total ?? '' });
  if (incl && isPositiveAmount(cart.rawTotalTax, cart.totalTax))
    rows.push({ key: 'includedTax', value: cart.totalTax ?? '' });
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
