/**
 * The cart's numbers, computed from the stored cart, the catalog, the applied coupons, the customer's
 * address and the shop settings — all in integer cents. Each line's unit price is the one the customer
 * pays for their destination (tax/prices.ts: prices entered including the base country's VAT, adjusted to
 * the destination's rate; net for a business whose VAT is reverse charged). Per line: subtotal (before
 * discounts, excl. tax), discount, total (after discounts, excl. tax) and the tax, rounded per line;
 * shipping (entered without tax, as WooCommerce's rates) taxed at the destination's rate. The order copies
 * these numbers, so cart, order and confirmation mail always agree to the cent.
 */
import { localizedVariationName } from '../catalog/display-names.ts';
import { DEFAULT_LOCALE } from '../../lib/i18n/locales.ts';
import { productOnSale, productPrice, variationOnSale, variationPrice } from '../catalog/pricing.ts';
import type { CatalogSnapshot, ProductModel, TermModel, VariationModel } from '../catalog/snapshot.ts';
import type { CommerceSettings } from '../shop/settings.ts';
import { computeDiscounts, type CouponModel, type DiscountLine } from '../coupons/discounts.ts';
import { chooseRate } from '../shipping/choice.ts';
import { ratesFor, type ShippingRate } from '../shipping/zones.ts';
import { customerTax } from '../tax/location.ts';
import { lineTax, unitPrice } from '../tax/prices.ts';
import { taxOf, type TaxRate } from '../tax/rates.ts';
import type { StoredCart, StoredCartItem, SessionCustomer } from './model.ts';

export type CartLine = {
  item: StoredCartItem;
  key: string;
  quantity: number;
  product: ProductModel;
  variation: VariationModel | null;
  name: string;
  /**
   * The unit price: as entered in the catalog on a resolved line; on a priced line (computeCart) the one
   * this customer pays, including `taxRate` when `unitIncludesTax`.
   */
  unitCents: number;
  onSale: boolean;
  virtual: boolean;
  downloadable: boolean;
  /** quantity × unit price as entered on a resolved line; before discounts, excl. tax on a priced line */
  subtotalCents: number;
  /** The line's tax rate (null: no tax, e.g. outside the EU or reverse charged). */
  taxRate: TaxRate | null;
  unitIncludesTax: boolean;
  subtotalTaxCents: number;
  /** the coupons' discount, excl. tax */
  discountCents: number;
  /** after discounts, excl. tax */
  totalCents: number;
  taxCents: number;
};

export type AppliedCouponView = { coupon: CouponModel; discountCents: number; discountTaxCents: number };
export type ShippingPackageView = { rates: ShippingRate[]; packageDetails: string };

export type CartView = {
  lines: CartLine[];
  coupons: AppliedCouponView[];
  packages: ShippingPackageView[];
  chosenShippingMethods: string[];
  chosenRates: ShippingRate[];
  needsShipping: boolean;
  country: string;
  state: string;
  /** The destination's tax; null when none is charged (no tax there, or reverse charged). */
  taxRate: TaxRate | null;
  /** The customer's VAT is reverse charged (tax/location.ts): net prices, no VAT. */
  vatExempt: boolean;
  /** The shop shows cart amounts including tax (TAX_DISPLAY_CART). */
  displayIncludesTax: boolean;
  subtotalCents: number;
  subtotalTaxCents: number;
  discountCents: number;
  discountTaxCents: number;
  contentsCents: number;
  contentsTaxCents: number;
  shippingCents: number;
  shippingTaxCents: number;
  totalTaxCents: number;
  totalCents: number;
  itemCount: number;
};

/**
 * A variation's display name, as the catalog shows it in English ("Alpha Gateway - EU868"): term names,
 * never slugs. What the engine's own messages and the shipping package list name a line by.
 */
export function variationName(v: VariationModel): string {
  return localizedVariationName(v, DEFAULT_LOCALE.code);
}

function categoryTrail(snap: CatalogSnapshot, cats: TermModel[]): TermModel[] {
  const out = new Map<number, TermModel>();
  for (const c of cats) {
    for (
      let t: TermModel | undefined = c;
      t && !out.has(t.id);
      t = t.parentId ? snap.termsById.get(t.parentId) : undefined
    )
      out.set(t.id, t);
  }
  return [...out.values()];
}

/** Resolve a stored line against the catalog: null when the product (or variation) is gone or unpublished. */
export function resolveLine(
  snap: CatalogSnapshot,
  item: StoredCartItem,
): Omit<
  CartLine,
  'taxRate' | 'unitIncludesTax' | 'subtotalTaxCents' | 'discountCents' | 'totalCents' | 'taxCents'
> | null {
  const product = snap.productsById.get(item.productId);
  if (product?.status !== 'publish' || product.type === 'external') return null;
  let variation: VariationModel | null = null;
  if (item.variationId !== null) {
    variation = snap.variationsById.get(item.variationId) ?? null;
    if (!variation || variation.product.id !== product.id) return null;
  } else if (product.type === 'variable') return null;
  const unit = variation ? variationPrice(variation) : productPrice(product);
  if (unit === null) return null;
  return {
    item,
    key: item.key,
    quantity: item.quantity,
    product,
    variation,
    name: variation ? variationName(variation) : product.name,
    unitCents: unit,
    onSale: variation ? variationOnSale(variation) : productOnSale(product),
    virtual: product.virtual,
    downloadable: product.downloadable,
    subtotalCents: unit * item.quantity,
  };
}

export function discountLines(
  snap: CatalogSnapshot,
  lines: Pick<CartLine, 'key' | 'name' | 'quantity' | 'subtotalCents' | 'product' | 'onSale'>[],
): DiscountLine[] {
  return lines.map((l) => {
    const cats = categoryTrail(snap, l.product.categories);
    return {
      key: l.key,
      name: l.name,
      quantity: l.quantity,
      subtotalCents: l.subtotalCents,
      productSlug: l.product.slug,
      categorySlugs: cats.map((c) => c.slug),
      categoryNames: Object.fromEntries(cats.map((c) => [c.slug, c.name])),
      onSale: l.onSale,
    };
  });
}

/**
 * The cart's subtotal before discounts as the customer sees it (TAX_DISPLAY_CART: with or without tax), at
 * the customer's own prices: what a coupon's minimum and maximum spend compare against, as WooCommerce
 * compares its displayed subtotal. `lines` are resolved lines (catalog prices as entered).
 */
export function shownSubtotalCents(
  lines: Pick<CartLine, 'unitCents' | 'quantity'>[],
  customer: SessionCustomer,
  settings: CommerceSettings,
): number {
  const { context } = customerTax(settings, customer);
  return lines.reduce((sum, l) => {
    const price = unitPrice(l.unitCents, context);
    const amounts = lineTax(price.cents * l.quantity, 0, price);
    return sum + amounts.subtotalNetCents + (settings.taxDisplayCart === 'incl' ? amounts.subtotalTaxCents : 0);
  }, 0);
}

export function computeCart(
  snap: CatalogSnapshot,
  cart: StoredCart,
  customer: SessionCustomer,
  coupons: CouponModel[],
  settings: CommerceSettings,
): CartView {
  const resolved = cart.items.map((i) => resolveLine(snap, i)).filter((l): l is NonNullable<typeof l> => l !== null);
  const { country, vatExempt, context: taxContext } = customerTax(settings, customer);
  const state = customer.shipping.country
    ? customer.shipping.state
    : customer.billing.country
      ? customer.billing.state
      : '';
  // The customer's unit prices. Coupons discount them as they are: including the tax when they do, as
  // WooCommerce discounts prices entered with tax.
  const priced = resolved.map((l) => {
    const price = unitPrice(l.unitCents, taxContext);
    return { ...l, price, unitCents: price.cents, subtotalCents: price.cents * l.quantity };
  });
  const discounts = computeDiscounts(coupons, discountLines(snap, priced));
  const lines: CartLine[] = priced.map(({ price, ...l }) => {
    const amounts = lineTax(l.subtotalCents, discounts.perLine.get(l.key) ?? 0, price);
    return {
      ...l,
      taxRate: price.rate,
      unitIncludesTax: price.includesTax,
      subtotalCents: amounts.subtotalNetCents,
      subtotalTaxCents: amounts.subtotalTaxCents,
      discountCents: amounts.subtotalNetCents - amounts.totalNetCents,
      totalCents: amounts.totalNetCents,
      taxCents: amounts.totalTaxCents,
    };
  });
  // Each line's discount (excl. tax) and discount tax, shared among the coupons that discounted it in
  // proportion to what each took off the price.
  const couponViews: AppliedCouponView[] = coupons.map((coupon) => ({ coupon, discountCents: 0, discountTaxCents: 0 }));
  for (const line of lines) {
    const lineDiscountTax = line.subtotalTaxCents - line.taxCents;
    const taken = discounts.perLine.get(line.key) ?? 0;
    const shares = couponViews
      .map((cv) => ({ cv, d: discounts.perCoupon.get(cv.coupon.code)?.get(line.key) ?? 0 }))
      .filter((s) => s.d > 0);
    let givenNet = 0;
    let givenTax = 0;
    shares.forEach((s, i) => {
      const last = i === shares.length - 1;
      const part = (amount: number) => Number((BigInt(amount) * BigInt(s.d)) / BigInt(taken));
      const net = last ? line.discountCents - givenNet : part(line.discountCents);
      const tax = last ? lineDiscountTax - givenTax : part(lineDiscountTax);
      s.cv.discountCents += net;
      s.cv.discountTaxCents += tax;
      givenNet += net;
      givenTax += tax;
    });
  }
  const sum = (f: (l: CartLine) => number) => lines.reduce((s, l) => s + f(l), 0);
  const subtotalCents = sum((l) => l.subtotalCents);
  const subtotalTaxCents = sum((l) => l.subtotalTaxCents);
  const discountCents = sum((l) => l.discountCents);
  const contentsCents = sum((l) => l.totalCents);
  const contentsTaxCents = sum((l) => l.taxCents);
  const shipped = lines.filter((l) => !l.virtual);
  const needsShipping = shipped.length > 0;
  const packages: ShippingPackageView[] = [];
  const chosen: string[] = [];
  const chosenRates: ShippingRate[] = [];
  if (needsShipping) {
    // WooCommerce's free-shipping minimum compares the subtotal as displayed, after discounts.
    const displayIncl = settings.taxDisplayCart === 'incl';
    const packageSubtotal = shipped.reduce((s, l) => s + l.totalCents + (displayIncl ? l.taxCents : 0), 0);
    const freeCoupon = coupons.some((c) => c.freeShipping);
    const rates = ratesFor(settings, country, packageSubtotal, freeCoupon);
    packages.push({ rates, packageDetails: shipped.map((l) => `${l.name} ×${l.quantity}`).join(', ') });
    const pick = chooseRate(rates, cart.chosenShipping[0], cart.offeredShipping);
    if (pick) {
      chosen.push(pick.id);
      chosenRates.push(pick);
    }
  }
  const shippingCents = chosenRates.reduce((s, r) => s + r.costCents, 0);
  const shippingTaxCents = chosenRates.reduce((s, r) => s + taxOf(r.costCents, taxContext.rate), 0);
  const totalTaxCents = contentsTaxCents + shippingTaxCents;
  return {
    lines,
    coupons: couponViews,
    packages,
    chosenShippingMethods: chosen,
    chosenRates,
    needsShipping,
    country,
    state,
    taxRate: vatExempt ? null : taxContext.rate,
    vatExempt,
    displayIncludesTax: settings.taxDisplayCart === 'incl',
    subtotalCents,
    subtotalTaxCents,
    discountCents,
    discountTaxCents: subtotalTaxCents - contentsTaxCents,
    contentsCents,
    contentsTaxCents,
    shippingCents,
    shippingTaxCents,
    totalTaxCents,
    totalCents: contentsCents + contentsTaxCents + shippingCents + shippingTaxCents,
    itemCount: sum((l) => l.quantity),
  };
}
