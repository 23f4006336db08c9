import { priceDisplay } from '../../lib/catalog/price.ts';
import type { CatalogProduct } from '../../lib/catalog/types.ts';
import { createLookup, type Strings } from '../../lib/i18n/lookup.ts';
import { getSizes, localiseImageUrl, PLACEHOLDER_IMAGE } from '../../lib/image/helper.ts';
import WishlistButton from '../wishlist/WishlistButton.tsx';
import StarRating from './StarRating.tsx';
import { saleBadgeText } from './sale-badge.ts';
import TaxNote from './TaxNote.tsx';
import { useShopperPrices } from './use-shopper-prices.ts';

export interface ProductCardProps {
  product: CatalogProduct;
  strings: Strings;
  /** '' for English, '/de' … */
  localePrefix?: string;
  /** Above the fold: load eagerly with high priority (the first row of a listing). */
  priority?: boolean;
  showWishlist?: boolean;
  /** Image sizes for the grid the card sits in. */
  sizes?: string;
  /** Whether catalog prices include VAT (PUBLIC_TAX_DISPLAY_SHOP), for the note under the price. */
  pricesIncludeTax?: boolean;
}

export const CARD_IMAGE_SIZES = 'sm:50vw md:50vw lg:33vw xl:300px';

/**
 * One product in a grid: image, name, price (sale price, struck regular price and percent badge),
 * rating and a wishlist heart. Renders without JavaScript too (Astro can render it statically).
 */
export default function ProductCard({
  product: catalogProduct,
  strings,
  localePrefix = '',
  priority = false,
  showWishlist = true,
  sizes = CARD_IMAGE_SIZES,
  pricesIncludeTax = true,
}: ProductCardProps) {
  // A shopper whose destination is not the shop's base country sees their own prices.
  const product = useShopperPrices(catalogProduct);
  const t = createLookup(strings);
  const href = `${localePrefix}/product/${encodeURIComponent(product.slug ?? '')}`;
  const { price, regularPrice, onSale } = priceDisplay(product);
  const badge = saleBadgeText(product, t);
  const source = localiseImageUrl(product.image?.sourceUrl) || PLACEHOLDER_IMAGE;
  const image = getSizes(source, { preset: 'card', sizes });
  const outOfStock = product.stockStatus === 'OUT_OF_STOCK';
  const name = product.name ?? '';
  return (
    <article className="group relative flex flex-col" data-product-id={product.databaseId}>
      <div className="relative aspect-square overflow-hidden rounded-lg bg-gray-100 dark:bg-gray-800">
        <img
          src={image.src}
          srcSet={image.srcset}
          sizes={image.sizes}
          alt={product.image?.altText || name}
          width={480}
          height={480}
          loading={priority ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : 'auto'}
          decoding="async"
          className="h-full w-full object-contain transition-transform duration-300 group-hover:scale-105"
          onError={(event) => {
            const img = event.currentTarget;
            if (img.src !== PLACEHOLDER_IMAGE) {
              img.removeAttribute('srcset');
              img.src = PLACEHOLDER_IMAGE;
            }
          }}
        />
        {badge && (
          <span
            className="absolute left-2 top-2 rounded-full bg-main px-2 py-0.5 text-xs font-semibold text-on-main"
            data-sale-badge
          >
            {badge}
          </span>
        )}
        {showWishlist && (
          <span className="absolute right-2 top-2 z-10">
            <WishlistButton
              strings={strings}
              item={{
                databaseId: product.databaseId,
                slug: product.slug ?? '',
                name,
                image: product.image?.sourceUrl ?? null,
                price: price || null,
              }}
            />
          </span>
        )}
      </div>
      <h3 className="mt-3 text-sm font-medium text-gray-900 dark:text-gray-100">
        <a
          href={href}
          className="after:absolute after:inset-0 after:content-[''] focus-visible:outline-2 focus-visible:outline-main"
        >
          {name}
        </a>
      </h3>
      {(product.reviewCount ?? 0) > 0 && (
        <div className="mt-1">
          <StarRating rating={product.averageRating} count={product.reviewCount} strings={strings} />
        </div>
      )}
      <p className="mt-1 flex flex-wrap items-baseline gap-x-2 text-sm">
        {onSale && regularPrice && (
          <span className="text-gray-500 line-through dark:text-gray-400">
            <span className="sr-only">{t('product.regularPrice')} </span>
            {regularPrice}
          </span>
        )}
        <span className={`font-semibold ${onSale ? 'text-main' : 'text-gray-900 dark:text-gray-100'}`}>
          {onSale && <span className="sr-only">{t('product.salePrice')} </span>}
          {price}
        </span>
      </p>
      {price && <TaxNote t={t} localePrefix={localePrefix} includesTax={pricesIncludeTax} className="mt-0.5" />}
      {outOfStock && <p className="mt-1 text-xs text-gray-600 dark:text-gray-300">{t('product.outOfStock')}</p>}
    </article>
  );
}
