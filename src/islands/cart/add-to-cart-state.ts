/**
 * What the add-to-cart button can do right now, from the product and the chosen variation. Pure, so
 * tests/unit/cart-add-to-cart.test.ts can pin down every case.
 */
import type { StockStatusEnum as StockStatus } from '../../graphql/generated/schema';
import type { ChosenVariation } from '../product/selection';
import type { AddToCartInput } from '../../stores/cart-actions';

export interface AddToCartProduct {
  databaseId: number;
  /** 'SIMPLE' | 'VARIABLE' (external and grouped products have no add-to-cart button). */
  type: string | null | undefined;
  name?: string | null;
  stockStatus?: StockStatus | null;
  stockQuantity?: number | null;
  backordersAllowed?: boolean | null;
  soldIndividually?: boolean | null;
}

export type AddToCartState =
  | { kind: 'ready'; input: Omit<AddToCartInput, 'quantity'> }
  | { kind: 'out-of-stock' }
  | { kind: 'choose-options' };

export function addToCartState(product: AddToCartProduct, chosen: ChosenVariation | null): AddToCartState {
  if (product.type === 'VARIABLE') {
    const variation = chosen?.variation;
    if (!variation) {
      // Every variation sold out: say so instead of asking for options that cannot be bought.
      return product.stockStatus === 'OUT_OF_STOCK' ? { kind: 'out-of-stock' } : { kind: 'choose-options' };
    }
    if (variation.stockStatus === 'OUT_OF_STOCK') return { kind: 'out-of-stock' };
    return {
      kind: 'ready',
      input: {
        productId: product.databaseId,
        variationId: variation.databaseId,
        variation: chosen.attributes.map((a) => ({ attributeName: a.attributeName, attributeValue: a.attributeValue })),
      },
    };
  }
  if (product.stockStatus === 'OUT_OF_STOCK') return { kind: 'out-of-stock' };
  return { kind: 'ready', input: { productId: product.databaseId } };
}
