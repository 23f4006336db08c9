/**
 * Variation picking for variable products. Names and values come from several places that spell them
 * differently: the product's attributes say `pa_frequency-band` with option slugs (`eu868`), variations
 * say `pa_frequency-band` or `frequency-band` with values that may be slugs or labels (`EU 868`).
 * Names compare lower-cased without the `pa_` prefix; values compare ignoring dashes, spaces and case.
 */
import type { CatalogProduct, CatalogVariation } from './types.ts';

/** Attribute → chosen value, keyed by normalised attribute name. */
export type Selection = Record<string, string>;

export function normaliseAttributeName(name: string | null | undefined): string {
  return (name ?? '').trim().toLowerCase().replace(/^pa_/, '');
}

export function normaliseAttributeValue(value: string | null | undefined): string {
  return (value ?? '').toLowerCase().replace(/[\s-]+/g, '');
}

export function sameAttributeValue(a: string | null | undefined, b: string | null | undefined): boolean {
  return normaliseAttributeValue(a) === normaliseAttributeValue(b);
}

export interface VariationAttributeChoice {
  /** Normalised name, the key in a Selection. */
  name: string;
  /** What the shopper reads: the attribute label, else the name without pa_. */
  label: string;
  /** The original attribute name (pa_color), as addToCart's attributeName expects. */
  attributeName: string;
  options: { value: string; label: string }[];
}

/** The attributes a shopper chooses from (those marked `variation`), with term names as labels. */
export function variationChoices(product: CatalogProduct): VariationAttributeChoice[] {
  const terms = product.terms?.nodes ?? [];
  return (product.attributes?.nodes ?? [])
    .filter((attribute) => attribute.variation && attribute.name)
    .map((attribute) => {
      const attributeName = attribute.name as string;
      const name = normaliseAttributeName(attributeName);
      const options = (attribute.options ?? [])
        .filter((option): option is string => typeof option === 'string' && option !== '')
        .map((option) => {
          const term = terms.find(
            (t) => normaliseAttributeName(t.taxonomyName) === name && sameAttributeValue(t.slug, option),
          );
          return { value: option, label: term?.name || option };
        });
      return { name, attributeName, label: attribute.label || name.replace(/-/g, ' '), options };
    });
}

function variationValue(variation: CatalogVariation, name: string): string | undefined {
  const attribute = (variation.attributes?.nodes ?? []).find((a) => normaliseAttributeName(a.name) === name);
  return attribute ? (attribute.value ?? '') : undefined;
}

/** True when the variation agrees with every chosen value ('' on the variation means "any"). */
function agrees(variation: CatalogVariation, selection: Selection, except?: string): boolean {
  for (const [name, value] of Object.entries(selection)) {
    if (name === except || !value) continue;
    const own = variationValue(variation, name);
    if (own === undefined || own === '') continue;
    if (!sameAttributeValue(own, value)) return false;
  }
  return true;
}

/** Normalises a selection's keys so callers may pass `pa_color` or `Color`. */
export function normaliseSelection(selected: Record<string, string | null | undefined>): Selection {
  const selection: Selection = {};
  for (const [name, value] of Object.entries(selected)) {
    if (typeof value === 'string' && value !== '') selection[normaliseAttributeName(name)] = value;
  }
  return selection;
}

/**
 * The variation for a complete selection: every variation attribute of the product must be chosen and
 * the variation must agree with each choice. Incomplete or unmatched selections → undefined.
 */
export function findVariation(
  product: CatalogProduct,
  selected: Record<string, string | null | undefined>,
): CatalogVariation | undefined {
  const selection = normaliseSelection(selected);
  const required = variationChoices(product).map((choice) => choice.name);
  if (required.some((name) => !selection[name])) return undefined;
  return (product.variations?.nodes ?? []).find((variation) => agrees(variation, selection));
}

/** The selection the page opens with: the product's defaultAttributes, limited to its variation attributes. */
export function defaultSelection(product: CatalogProduct): Selection {
  const names = new Set(variationChoices(product).map((choice) => choice.name));
  const selection: Selection = {};
  for (const attribute of product.defaultAttributes?.nodes ?? []) {
    const name = normaliseAttributeName(attribute.name);
    if (names.has(name) && attribute.value) selection[name] = attribute.value;
  }
  return selection;
}

/**
 * Whether choosing `value` for `name` (keeping the other choices) can still lead to a variation, so the
 * picker can mark impossible combinations.
 */
export function isOptionAvailable(product: CatalogProduct, selection: Selection, name: string, value: string): boolean {
  const next = { ...selection, [name]: value };
  return (product.variations?.nodes ?? []).some((variation) => {
    const own = variationValue(variation, name);
    const matchesValue = own === undefined || own === '' || sameAttributeValue(own, value);
    return matchesValue && agrees(variation, next, name);
  });
}
