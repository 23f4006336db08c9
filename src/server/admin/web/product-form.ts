/**
 * The product screen's forms: price and stock of a product, or of one variation, read from the posted
 * fields into admin-endpoint input. The engine validates again (a sale price above the regular one,
 * sale dates in the wrong order…) and its message is shown on the form.
 */
import type { AdminProductFieldsFragment } from '../../../graphql/generated/admin-operations.ts';
import type { AdminProductInput, AdminVariationInput } from '../../../graphql/generated/admin-schema.ts';
import { eurosInput, type FormFields } from './forms.ts';

const MAX_CENTS = 100_000_000;
const BACKORDERS = ['NO', 'NOTIFY', 'YES'] as const;
const STOCK_STATUSES = ['INSTOCK', 'OUTOFSTOCK', 'ONBACKORDER'] as const;

/** Price and stock fields shared by products and variations; null when a field is invalid (see f.errors). */
function priceAndStock(f: FormFields) {
  const regularPriceCents = f.money('regularPrice', 'Regular price', { required: true, max: MAX_CENTS });
  const salePriceCents = f.money('salePrice', 'Sale price', { max: MAX_CENTS });
  if (
    typeof regularPriceCents === 'number' &&
    typeof salePriceCents === 'number' &&
    salePriceCents >= regularPriceCents
  ) {
    f.errors.salePrice ??= 'The sale price must be below the regular price (leave it empty for no sale).';
  }
  const manageStock = f.checked('manageStock');
  const stockQuantity = f.int('stockQuantity', 'Stock quantity', {
    required: manageStock,
    min: -1_000_000,
    max: 1_000_000,
  });
  const lowStockAmount = f.int('lowStockAmount', 'Low-stock amount', { max: 1_000_000 });
  const backorders = f.choice('backorders', 'Backorders', BACKORDERS, { required: true });
  const stockStatus = manageStock ? null : f.choice('stockStatus', 'Stock status', STOCK_STATUSES, { required: true });
  return { regularPriceCents, salePriceCents, manageStock, stockQuantity, lowStockAmount, backorders, stockStatus };
}

/** adminUpdateProduct input for a simple (or external: price only) product. */
export function productPriceStockInput(f: FormFields, type: string): AdminProductInput | null {
  if (type === 'EXTERNAL') {
    const regularPriceCents = f.money('regularPrice', 'Regular price', { required: true, max: MAX_CENTS });
    const salePriceCents = f.money('salePrice', 'Sale price', { max: MAX_CENTS });
    const sale = saleDates(f);
    return f.ok ? { regularPriceCents, salePriceCents, ...sale } : null;
  }
  const v = priceAndStock(f);
  const sale = saleDates(f);
  if (!f.ok) return null;
  return {
    regularPriceCents: v.regularPriceCents,
    salePriceCents: v.salePriceCents,
    ...sale,
    manageStock: v.manageStock,
    ...(v.manageStock ? { stockQuantity: v.stockQuantity } : { stockStatus: v.stockStatus }),
    lowStockAmount: v.lowStockAmount,
    backorders: v.backorders,
  };
}

function saleDates(f: FormFields) {
  const dateOnSaleFrom = f.date('saleFrom', 'Sale starts');
  const dateOnSaleTo = f.date('saleTo', 'Sale ends');
  if (dateOnSaleFrom && dateOnSaleTo && dateOnSaleTo < dateOnSaleFrom)
    f.errors.saleTo ??= 'The sale cannot end before it starts.';
  return { dateOnSaleFrom, dateOnSaleTo };
}

/** adminUpdateVariation input. */
export function variationPriceStockInput(f: FormFields): AdminVariationInput | null {
  const v = priceAndStock(f);
  if (!f.ok) return null;
  return {
    regularPriceCents: v.regularPriceCents,
    salePriceCents: v.salePriceCents,
    manageStock: v.manageStock,
    ...(v.manageStock ? { stockQuantity: v.stockQuantity } : { stockStatus: v.stockStatus }),
    lowStockAmount: v.lowStockAmount,
    backorders: v.backorders,
  };
}

/**
 * The price and stock a product and a variation both have (a variation has no sale dates), as the admin
 * endpoint returns them; a new product's form gives only the defaults it starts from.
 */
type PriceStockItem = Partial<
  Pick<
    AdminProductFieldsFragment,
    | 'regularPriceCents'
    | 'salePriceCents'
    | 'dateOnSaleFrom'
    | 'dateOnSaleTo'
    | 'manageStock'
    | 'stockQuantity'
    | 'lowStockAmount'
    | 'backorders'
    | 'stockStatus'
  >
>;

/** What the form shows: the stored values, or what the operator sent when it was refused. */
export function priceStockValues(item: PriceStockItem | null, posted: URLSearchParams | null) {
  if (posted || !item) {
    const g = (k: string) => posted?.get(k) ?? '';
    return {
      regularPrice: g('regularPrice'),
      salePrice: g('salePrice'),
      saleFrom: g('saleFrom'),
      saleTo: g('saleTo'),
      manageStock: posted?.get('manageStock') === 'on',
      stockQuantity: g('stockQuantity'),
      lowStockAmount: g('lowStockAmount'),
      backorders: g('backorders'),
      stockStatus: g('stockStatus'),
    };
  }
  return {
    regularPrice: eurosInput(item.regularPriceCents),
    salePrice: eurosInput(item.salePriceCents),
    saleFrom: item.dateOnSaleFrom ? String(item.dateOnSaleFrom).slice(0, 10) : '',
    saleTo: item.dateOnSaleTo ? String(item.dateOnSaleTo).slice(0, 10) : '',
    manageStock: !!item.manageStock,
    stockQuantity: item.stockQuantity ?? '',
    lowStockAmount: item.lowStockAmount ?? '',
    backorders: item.backorders ?? 'NO',
    stockStatus: item.stockStatus ?? 'INSTOCK',
  };
}
