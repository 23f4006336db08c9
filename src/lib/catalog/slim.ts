/**
 * Trims a getProducts node to what the listing island needs, before it is serialized into the page as
 * the island's prop: descriptions become plain text (search reads text only, and whole, so results
 * match the unslimmed list), unused fields such as galleries and non-attribute terms go.
 */
import { localiseImageUrl } from '../image/helper.ts';
import type { CatalogProduct } from './types.ts';

function plain(html: string | null | undefined): string {
  return (html ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function slimListingProduct(product: CatalogProduct): CatalogProduct {
  return {
    databaseId: product.databaseId,
    name: product.name ?? null,
    slug: product.slug ?? null,
    type: product.type ?? null,
    date: product.date ?? null,
    averageRating: product.averageRating ?? null,
    reviewCount: product.reviewCount ?? null,
    onSale: product.onSale ?? null,
    stockStatus: product.stockStatus ?? null,
    stockQuantity: product.stockQuantity ?? null,
    price: product.price ?? null,
    regularPrice: product.regularPrice ?? null,
    salePrice: product.salePrice ?? null,
    rawPrice: product.rawPrice ?? null,
    rawRegularPrice: product.rawRegularPrice ?? null,
    rawSalePrice: product.rawSalePrice ?? null,
    shortDescription: plain(product.shortDescription),
    description: plain(product.description),
    image: product.image
      ? // The shop's own images as site paths: shorter props, and the page needs no origin.
        { sourceUrl: localiseImageUrl(product.image.sourceUrl) || null, altText: product.image.altText ?? null }
      : null,
    productCategories: {
      nodes: (product.productCategories?.nodes ?? []).map((c) => ({ slug: c.slug ?? null, name: c.name ?? null })),
    },
    terms: {
      nodes: (product.terms?.nodes ?? [])
        .filter((t) => t.taxonomyName?.startsWith('pa_'))
        .map((t) => ({ taxonomyName: t.taxonomyName ?? null, slug: t.slug ?? null, name: t.name ?? null })),
    },
  };
}
