/**
 * The cart's numbers, computed from the stored cart, the catalog, the applied coupons, the customer's
 * address and the shop settings — all in integer cents. Per line: subtotal (before discounts, excl. tax),
 * discount, total (after discounts, excl. tax) and tax on that total rounded half up; shipping taxed at
 * the same rate. The order copies these numbers, so cart and order always agree to the cent.
 */
import { productOnSale, productPrice, variationOnSale, variationPrice } from '../catalog/pricing.ts';
import type { CatalogSnapshot, ProductModel, TermModel, VariationModel } from '../catalog/snapshot.ts';
import type { CommerceSettings } from '../shop/settings.ts';
import { computeDiscounts, type CouponModel, type DiscountLine } from '../coupons/discounts.ts';
import { ratesFor, type ShippingRate } from '../shipping/zones.ts';
import { taxOf, taxRateFor, type TaxRate } from '../tax/rates.ts';
import type { StoredCart, StoredCartItem, SessionCustomer } from './model.ts';

export type CartLine = {
  item: StoredCartItem;
  key: string;
  quantity: number;
  product: ProductModel;
  variation: VariationModel | null;
  name: string;
  unitCents: number;
  onSale: boolean;
  virtual: boolean;
  downloadable: boolean;
  subtotalCents: number;
  subtotalTaxCents: number;
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
  taxRate: TaxRate | null;
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

/** A variation's display name, as the catalog shows it ("Alpha Gateway - EU868"). */
export function variationName(v: VariationModel): string {
  const labels = Object.entries(v.attributes).map(
    ([name, value]) => v.product.terms.find((t) => t.taxonomy === name && t.slug === value)?.name ?? value,
  );
  return labels.length ? `${v.product.name} - ${labels.join(', ')}` : v.product.name;
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
): Omit<CartLine, 'subtotalTaxCents' | 'discountCents' | 'totalCents' | 'taxCents'> | null {
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

export function computeCart(
  snap: CatalogSnapshot,
  cart: StoredCart,
  customer: SessionCustomer,
  coupons: CouponModel[],
  settings: CommerceSettings,
): CartView {
  const resolved = cart.items.map((i) => resolveLine(snap, i)).filter((l): l is NonNullable<typeof l> => l !== null);
  const dLines = discountLines(snap, resolved);
  const discounts = computeDiscounts(coupons, dLines);
  const country = customer.shipping.country || customer.billing.country || settings.baseCountry;
  const state = customer.shipping.country
    ? customer.shipping.state
    : customer.billing.country
      ? customer.billing.state
      : '';
  const taxRate = taxRateFor(settings, country);
  const lines: CartLine[] = resolved.map((l) => {
    const discount = discounts.perLine.get(l.key) ?? 0;
    const total = l.subtotalCents - discount;
    return {
      ...l,
      subtotalTaxCents: taxOf(l.subtotalCents, taxRate),
      discountCents: discount,
      totalCents: total,
      taxCents: taxOf(total, taxRate),
    };
  });
  // Discount tax per coupon: each line's (subtotal tax − total tax) shared among the coupons that discounted it.
  const couponViews: AppliedCouponView[] = coupons.map((coupon) => ({ coupon, discountCents: 0, discountTaxCents: 0 }));
  for (const line of lines) {
    const lineDiscountTax = line.subtotalTaxCents - line.taxCents;
    const shares = couponViews
      .map((cv) => ({ cv, d: discounts.perCoupon.get(cv.coupon.code)?.get(line.key) ?? 0 }))
      .filter((s) => s.d > 0);
    let given = 0;
    shares.forEach((s, i) => {
      s.cv.discountCents += s.d;
      const t =
        i === shares.length - 1
          ? lineDiscountTax - given
          : Number((BigInt(lineDiscountTax) * BigInt(s.d)) / BigInt(line.discountCents));
      s.cv.discountTaxCents += t;
      given += t;
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
    const packageSubtotal = shipped.reduce((s, l) => s + l.totalCents, 0);
    const freeCoupon = coupons.some((c) => c.freeShipping);
    const rates = ratesFor(settings, country, packageSubtotal, freeCoupon);
    packages.push({ rates, packageDetails: shipped.map((l) => `${l.name} ×${l.quantity}`).join(', ') });
    const wanted = cart.chosenShipping[0];
    const pick =
      rates.find((r) => r.id === wanted) ??
      (freeCoupon ? rates.find((r) => r.methodId === 'free_shipping') : undefined) ??
      rates[0];
    if (pick) {
      chosen.push(pick.id);
      chosenRates.push(pick);
    }
  }
  const shippingCents = chosenRates.reduce((s, r) => s + r.costCents, 0);
  const shippingTaxCents = chosenRates.reduce((s, r) => s + taxOf(r.costCents, taxRate), 0);
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
    taxRate,
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
