/**
 * An order's amounts as the shop shows them to its customer (TAX_DISPLAY_CART, WooCommerce's
 * woocommerce_tax_display_cart): including tax — lines, subtotal, discount and shipping with their tax, the
 * total followed by the tax it includes — or without it, the tax as a row of its own. The order stores
 * net amounts and taxes (what WooGraphQL's order fields return); the confirmation mail and the admin show
 * them through this, so they read as the cart and the checkout did.
 */
import type { OrderItemRow, OrderRow } from '../orders/service.ts';

export type DisplayedOrderAmounts = {
  /** The amounts below include their tax; `taxCents` is then what the total includes. */
  taxIncluded: boolean;
  /** Per line, in the order of `items`: before discounts. */
  lineCents: number[];
  subtotalCents: number;
  discountCents: number;
  shippingCents: number;
  taxCents: number;
  totalCents: number;
};

export function displayedOrderAmounts(
  order: Pick<
    OrderRow,
    | 'subtotalCents'
    | 'discountCents'
    | 'discountTaxCents'
    | 'shippingCents'
    | 'shippingTaxCents'
    | 'totalTaxCents'
    | 'totalCents'
  >,
  items: Pick<OrderItemRow, 'subtotalCents' | 'subtotalTaxCents'>[],
  display: 'incl' | 'excl',
): DisplayedOrderAmounts {
  const incl = display === 'incl';
  const withTax = (net: number, tax: number) => (incl ? net + tax : net);
  return {
    taxIncluded: incl,
    lineCents: items.map((i) => withTax(i.subtotalCents, i.subtotalTaxCents)),
    subtotalCents: withTax(
      order.subtotalCents,
      items.reduce((s, i) => s + i.subtotalTaxCents, 0),
    ),
    discountCents: withTax(order.discountCents, order.discountTaxCents),
    shippingCents: withTax(order.shippingCents, order.shippingTaxCents),
    taxCents: order.totalTaxCents,
    totalCents: order.totalCents,
  };
}
