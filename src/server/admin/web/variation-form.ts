/**
 * A variable product's variation forms: the attribute values (one select per attribute the product uses
 * for variations, "any" allowed as WooCommerce does), the SKU, and price and stock (product-form.ts).
 * Used for adding a variation and for editing one.
 */
import type {
  AdminProductFieldsFragment,
  AdminVariationFieldsFragment,
} from '../../../graphql/generated/admin-operations.ts';
import type { AdminVariationInput } from '../../../graphql/generated/admin-schema.ts';
import { priceStockValues, variationPriceStockInput } from './product-form.ts';
import type { FormFields } from './forms.ts';

const SKU = /^[A-Za-z0-9._-]+$/;

/** What the variation forms read of the product: its attributes and its variations. */
type VariableProduct = Pick<AdminProductFieldsFragment, 'attributes' | 'variations'>;

/** The product's attributes used for variations ({ name, options }). */
export function variationAttributes(product: VariableProduct): { name: string; options: string[] }[] {
  return (product.attributes ?? []).filter((a) => a.variation);
}

/** The field name of one attribute's select (attribute names may contain spaces and any character). */
export const attributeField = (index: number) => `attr${index}`;

/** adminCreateVariation / adminUpdateVariation input, or null with f.errors set. */
export function variationInput(
  f: FormFields,
  product: VariableProduct,
  self: { id: number } | null,
): AdminVariationInput | null {
  const attrs = variationAttributes(product);
  const attributes: { name: string; value: string }[] = [];
  attrs.forEach((a, i) => {
    const field = attributeField(i);
    const value = f.raw(field);
    // '' is "any value" for this attribute.
    if (value !== '' && !a.options.includes(value)) f.errors[field] ??= `Choose one of: ${a.options.join(', ')}.`;
    else attributes.push({ name: a.name, value });
  });
  if (attrs.length && attributes.length === attrs.length && attributes.every((a) => a.value === '')) {
    f.errors[attributeField(0)] ??= 'Choose at least one attribute value.';
  }
  // Two variations with the same values: the shop could not tell which one a shopper picked.
  if (f.ok && attrs.length) {
    const same = (product.variations ?? []).find(
      (v) =>
        v.id !== self?.id &&
        attributes.every((a) => (v.attributes.find((x) => x.name === a.name)?.value ?? '') === a.value),
    );
    if (same) f.errors[attributeField(0)] ??= `Variation ${same.sku} already has these values.`;
  }
  const sku = f.text('sku', 'SKU', { required: true, max: 100 });
  if (sku && !SKU.test(sku))
    f.errors.sku ??= 'The SKU may contain letters, digits, dots, underscores and hyphens only.';
  const priceStock = variationPriceStockInput(f);
  if (!priceStock || !f.ok) return null;
  return { sku, attributes, ...priceStock };
}

export type VariationValues = ReturnType<typeof priceStockValues> & { sku: string; attrs: string[] };

/** What a variation form shows: the stored variation, what was posted, or a new variation's defaults. */
export function variationValues(
  product: VariableProduct,
  variation: AdminVariationFieldsFragment | null,
  posted: URLSearchParams | null,
): VariationValues {
  const attrs = variationAttributes(product);
  if (posted)
    return {
      ...priceStockValues(null, posted),
      sku: posted.get('sku') ?? '',
      attrs: attrs.map((_, i) => posted.get(attributeField(i)) ?? ''),
    };
  if (!variation) {
    return {
      ...priceStockValues({ manageStock: true, stockQuantity: 0, backorders: 'NO', stockStatus: 'INSTOCK' }, null),
      sku: '',
      attrs: attrs.map(() => ''),
    };
  }
  return {
    ...priceStockValues(variation, null),
    sku: variation.sku,
    attrs: attrs.map((a) => variation.attributes.find((x) => x.name === a.name)?.value ?? ''),
  };
}
