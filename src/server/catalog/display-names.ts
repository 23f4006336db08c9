/**
 * Names of attributes, attribute values and variations as the shop shows them in a language: the term's name
 * ("5.8 dBi", "Schwarz"), never its slug ("5-8-dbi", "black"), which stays what carts and forms send back.
 * Used by the catalog's GraphQL fields, the cart, the order pages and the order mails.
 */
import type { LocaleCode } from '../../lib/i18n/locales.ts';
import type { ProductAttributeModel, ProductModel, VariationModel } from './snapshot.ts';
import { localized, localizedOption } from './translations.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** The taxonomy (pa_color) of a global attribute, the name of a local one: the key of variation attribute maps. */
export function attributeName(a: ProductAttributeModel): string {
  return a.attribute ? a.attribute.slug : a.name;
}

/** An attribute's name as the shop shows it in `locale` ("Farbe"); a local attribute's own name. */
export function attributeLabel(a: ProductAttributeModel, locale: LocaleCode): string {
  return a.attribute
    ? localized(a.attribute.name, a.attribute.translations, locale, 'name')
    : localized(a.name, a.translations, locale, 'name');
}

/**
 * A chosen attribute value as the shop shows it in `locale`: a global attribute's term name ("5.8 dBi",
 * "Schwarz") — never its slug ("5-8-dbi") — or a local attribute's (translated) value. The value itself
 * stays the slug: it is what carts and forms send back.
 */
export function attributeValueName(product: ProductModel, name: string, value: string, locale: LocaleCode): string {
  if (!value) return value;
  const a = product.attributes.find((x) => attributeName(x) === name);
  if (a?.attribute) {
    const term = a.attribute.terms.find((t) => t.slug === value);
    return term ? localized(term.name, term.translations, locale, 'name') : value;
  }
  return a ? localizedOption(a.options, a.translations, locale, value) : value;
}

/** The VariationAttribute nodes of a variation, a cart line or a default selection, in `locale`. */
export function variationAttributes(
  owner: number | string,
  attrs: Record<string, string>,
  product: ProductModel,
  locale: LocaleCode,
) {
  return Object.entries(attrs).map(([name, value]) => {
    const a = product.attributes.find((x) => attributeName(x) === name);
    return {
      id: b64(`${owner}||${name}||${value}`),
      attributeId: a?.attribute?.id ?? 0,
      name,
      label: a ? attributeLabel(a, locale) : name,
      value,
      valueName: attributeValueName(product, name, value, locale),
    };
  });
}

/** A variation's name in `locale`: "Meshfront T-Shirt - Weiß, L" (the product's name and its term names). */
export function localizedVariationName(v: VariationModel, locale: LocaleCode): string {
  const base = localized(v.product.name, v.product.translations, locale, 'name');
  const labels = Object.entries(v.attributes)
    .filter(([, value]) => value)
    .map(([name, value]) => attributeValueName(v.product, name, value, locale));
  return labels.length ? `${base} - ${labels.join(', ')}` : base;
}

/** A cart or order line's name in `locale`: the variation's ("Hoodie - Schwarz, M") or the product's. */
export function lineName(
  line: { product: ProductModel; variation: VariationModel | null },
  locale: LocaleCode,
): string {
  return line.variation
    ? localizedVariationName(line.variation, locale)
    : localized(line.product.name, line.product.translations, locale, 'name');
}

/**
 * An order line's attributes as the shop shows them in `locale` ({ name: "Farbe", value: "Schwarz" }): read
 * from the catalog by the slugs the line stored, the stored text itself where the product or term is gone.
 */
export function orderItemAttributes(
  product: ProductModel | undefined,
  attributes: Record<string, string>,
  locale: LocaleCode,
): { name: string; value: string }[] {
  return Object.entries(attributes)
    .filter(([, value]) => value)
    .map(([name, value]) => {
      const a = product?.attributes.find((x) => attributeName(x) === name);
      return {
        name: a ? attributeLabel(a, locale) : name.replace(/^pa_/, ''),
        value: product ? attributeValueName(product, name, value, locale) : value,
      };
    });
}
