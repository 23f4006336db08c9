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

/** A variation's choices in `locale`, "any" ones left out: "Weiß, L", "EU868, 5.8 dBi". */
export function variationChoices(v: VariationModel, locale: LocaleCode): string {
  return Object.entries(v.attributes)
    .filter(([, value]) => value)
    .map(([name, value]) => attributeValueName(v.product, name, value, locale))
    .join(', ');
}

/** A variation's name in `locale`: "Meshfront T-Shirt - Weiß, L" (the product's name and its term names). */
export function localizedVariationName(v: VariationModel, locale: LocaleCode): string {
  const base = localized(v.product.name, v.product.translations, locale, 'name');
  const choices = variationChoices(v, locale);
  return choices ? `${base} - ${choices}` : base;
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
 * A line's variation choices as the shop shows them in `locale` ({ key: "pa_color", name: "Farbe", value:
 * "Schwarz" }): read from the catalog by the slugs the line holds, the slug itself where the product or term
 * is gone. "Any" values ("") are skipped. What the checkout records on an order line.
 */
export function orderItemAttributes(
  product: ProductModel | undefined,
  attributes: Record<string, string>,
  locale: LocaleCode,
): { key: string; name: string; value: string }[] {
  // In the product's order of attributes: a jsonb object (how a line keeps its slugs) does not keep its keys' order.
  const position = (key: string) => {
    const i = product?.attributes.findIndex((x) => attributeName(x) === key) ?? -1;
    return i < 0 ? Number.MAX_SAFE_INTEGER : i;
  };
  return Object.entries(attributes)
    .filter(([, value]) => value)
    .sort(([a], [b]) => position(a) - position(b))
    .map(([key, value]) => {
      const a = product?.attributes.find((x) => attributeName(x) === key);
      return {
        key,
        name: a ? attributeLabel(a, locale) : key.replace(/^pa_/, ''),
        value: product ? attributeValueName(product, key, value, locale) : value,
      };
    });
}

/**
 * An order line's choices as they were shown when it was ordered (recorded in the order's language, so a
 * later rename in the catalog does not change an order already placed); for a line ordered before they
 * were recorded, named from the catalog in the order's language.
 */
export function shownOrderItemAttributes(
  item: { attributes: Record<string, string>; attributeNames: { key: string; name: string; value: string }[] },
  product: ProductModel | undefined,
  orderLocale: LocaleCode,
): { key: string; name: string; value: string }[] {
  return item.attributeNames.length ? item.attributeNames : orderItemAttributes(product, item.attributes, orderLocale);
}
