/**
 * What the product page's islands share: the chosen variation (the add-to-cart button of the cart issue
 * reads it) and the image to show for it (the gallery follows it). One module instance per page, so
 * separate islands see the same atoms.
 */
import { atom } from 'nanostores';
import type { CatalogImage, CatalogProduct, CatalogVariation } from '../../lib/catalog/types.ts';
import { findVariation, variationChoices, type Selection } from '../../lib/catalog/variations.ts';

export interface ChosenVariation {
  productId: number;
  /** Undefined until the selection is complete and matches a variation. */
  variation: CatalogVariation | undefined;
  selection: Selection;
  /** addToCart's `variation` input: [{ attributeName, attributeValue }]. */
  attributes: { attributeName: string; attributeValue: string }[];
}

export const $chosenVariation = atom<ChosenVariation | null>(null);
export const $variationImage = atom<CatalogImage | null>(null);

/**
 * What the picker publishes for a selection. The product page computes the same for the default
 * selection at build time, so the static add-to-cart button is right before any island runs.
 */
export function chosenVariation(product: CatalogProduct, selection: Selection): ChosenVariation {
  const choices = variationChoices(product);
  return {
    productId: product.databaseId,
    variation: findVariation(product, selection),
    selection,
    attributes: choices
      .filter((choice) => selection[choice.name])
      .map((choice) => ({ attributeName: choice.attributeName, attributeValue: selection[choice.name] })),
  };
}

/**
 * The SKU the product page shows: the chosen variation's once the choice matches one that has its own,
 * the product's otherwise (WooCommerce does the same when a variation is picked).
 */
export function shownSku(productSku: string | null | undefined, chosen: ChosenVariation | null): string {
  return chosen?.variation?.sku || productSku || '';
}
