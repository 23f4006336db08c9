import { useStore } from '@nanostores/react';
import { useEffect, useId, useMemo, useState } from 'react';
import { priceDisplay } from '../../lib/catalog/price.ts';
import type { CatalogProduct, CatalogVariation, PricedFields } from '../../lib/catalog/types.ts';
import {
  defaultSelection,
  findVariation,
  isOptionAvailable,
  sameAttributeValue,
  variationChoices,
  type Selection,
} from '../../lib/catalog/variations.ts';
import { createLookup, type Lookup, type Strings } from '../../lib/i18n/lookup.ts';
import { createPluralLookup, type PluralLookup } from '../../lib/i18n/plural.ts';
import { $liveProduct, mergeLive, shownStockCount, startLiveStockCheck } from './live-stock.ts';
import { $chosenVariation, $variationImage, chosenVariation } from './selection.ts';
import { saleBadgeText, type SaleBadgeItem } from '../catalog/sale-badge.ts';
import TaxNote from '../catalog/TaxNote.tsx';
import { useShopperPrices } from '../catalog/use-shopper-prices.ts';

export interface VariationPickerProps {
  /** getProduct's product (variations, attributes, defaultAttributes, terms, prices, stock). */
  product: CatalogProduct;
  strings: Strings;
  /**
   * Show the live price and stock ($liveProduct, read by the product page's script on load; the prebuilt
   * page may be stale). When nothing has asked yet, the picker asks itself. Default true.
   */
  live?: boolean;
  /** '' for English, '/de' …: the tax note's link to the shipping policy. */
  localePrefix?: string;
  /** Whether catalog prices include VAT (PUBLIC_TAX_DISPLAY_SHOP). Default true. */
  pricesIncludeTax?: boolean;
  /** BCP 47 tag of the page's locale: which plural form a count takes ('Only 1 left'). */
  locale?: string;
}

export function StockLine({ item, t, tn }: { item: PricedFields; t: Lookup; tn: PluralLookup }) {
  const status = item.stockStatus;
  if (!status) return null;
  const quantity = item.stockQuantity ?? null;
  const text =
    status === 'OUT_OF_STOCK'
      ? t('product.outOfStock')
      : status === 'ON_BACKORDER'
        ? t('product.onBackorder')
        : shownStockCount(quantity) !== null
          ? tn('product.lowStock', quantity as number)
          : t('product.inStock');
  const tone =
    status === 'OUT_OF_STOCK'
      ? 'text-red-700 dark:text-red-400'
      : status === 'ON_BACKORDER'
        ? 'text-amber-700 dark:text-amber-400'
        : 'text-green-700 dark:text-green-400';
  return <p className={`text-sm font-medium ${tone}`}>{text}</p>;
}

/**
 * The price (sale price with the struck regular price and the percent off). With `taxNote` the note the
 * law asks for follows it ("incl. VAT, plus shipping"); a partner's product, sold on their site, has none.
 */
export function PriceLine({
  item,
  t,
  taxNote,
}: {
  item: SaleBadgeItem;
  t: Lookup;
  taxNote?: { localePrefix: string; includesTax: boolean };
}) {
  const { price, regularPrice, onSale } = priceDisplay(item);
  return (
    <div>
      <PriceFigures price={price} regularPrice={regularPrice} onSale={onSale} badge={saleBadgeText(item, t)} t={t} />
      {taxNote && price && (
        <TaxNote t={t} localePrefix={taxNote.localePrefix} includesTax={taxNote.includesTax} className="block" />
      )}
    </div>
  );
}

function PriceFigures({
  price,
  regularPrice,
  onSale,
  badge,
  t,
}: {
  price: string;
  regularPrice: string | null;
  onSale: boolean;
  badge: string | null;
  t: Lookup;
}) {
  return (
    <p className="flex flex-wrap items-baseline gap-x-3 text-2xl">
      {onSale && regularPrice && (
        <span className="text-lg text-gray-500 line-through dark:text-gray-400">
          <span className="sr-only">{t('product.regularPrice')} </span>
          {regularPrice}
        </span>
      )}
      <span className={`font-semibold ${onSale ? 'text-main' : 'text-gray-900 dark:text-gray-100'}`}>
        {onSale && <span className="sr-only">{t('product.salePrice')} </span>}
        {price}
      </span>
      {badge && (
        <span className="rounded-full bg-main px-2 py-0.5 text-sm font-semibold text-on-main" data-sale-badge>
          {badge}
        </span>
      )}
    </p>
  );
}

/**
 * Price, stock and — for variable products — one radio group per variation attribute. The chosen
 * variation's price, stock and image show as soon as the selection matches one.
 */
export default function VariationPicker({
  product: initial,
  strings,
  live = true,
  localePrefix = '',
  pricesIncludeTax = true,
  locale = 'en-US',
}: VariationPickerProps) {
  const t = createLookup(strings);
  const tn = createPluralLookup(strings, locale);
  const id = useId();
  const liveData = useStore($liveProduct);
  // The first render matches the static HTML; live values apply from the next one on.
  const [mounted, setMounted] = useState(false);
  const merged = useMemo(
    () => (live && mounted ? mergeLive(initial, liveData) : initial),
    [initial, liveData, live, mounted],
  );
  // A shopper whose destination is not the shop's base country sees their own prices.
  const product = useShopperPrices(merged);
  const choices = useMemo(() => variationChoices(product), [product]);
  const [selection, setSelection] = useState<Selection>(() => defaultSelection(initial));
  const variation: CatalogVariation | undefined = useMemo(
    () => findVariation(product, selection),
    [product, selection],
  );

  useEffect(() => {
    setMounted(true);
    if (live && initial.slug) void startLiveStockCheck(initial.slug, initial);
  }, [initial, live]);

  useEffect(() => {
    // The image first: the gallery switches from its static image once $chosenVariation is set.
    $variationImage.set(variation?.image?.sourceUrl ? variation.image : null);
    $chosenVariation.set({ ...chosenVariation(product, selection), variation });
  }, [product, variation, selection]);

  const shown: SaleBadgeItem = variation ?? product;
  const complete = choices.every((choice) => selection[choice.name]);

  return (
    <div className="space-y-4">
      <div aria-live="polite" aria-atomic="true" className="space-y-1">
        <PriceLine item={shown} t={t} taxNote={{ localePrefix, includesTax: pricesIncludeTax }} />
        <StockLine item={shown} t={t} tn={tn} />
      </div>

      {choices.map((choice) => (
        <fieldset key={choice.name}>
          <legend className="mb-2 text-sm font-semibold text-gray-900 dark:text-gray-100">
            {choice.label}
            {selection[choice.name] && ' '}
            {selection[choice.name] && (
              <span className="ml-1 font-normal text-gray-600 dark:text-gray-300">
                {choice.options.find((o) => sameAttributeValue(o.value, selection[choice.name]))?.label ??
                  selection[choice.name]}
              </span>
            )}
          </legend>
          <div className="flex flex-wrap gap-2">
            {choice.options.map((option) => {
              const checked = sameAttributeValue(selection[choice.name], option.value);
              const available = isOptionAvailable(product, selection, choice.name, option.value);
              const inputId = `${id}-${choice.name}-${option.value}`.replace(/[^\w-]/g, '_');
              return (
                <span key={option.value}>
                  <input
                    id={inputId}
                    type="radio"
                    name={`${id}-${choice.name}`}
                    value={option.value}
                    checked={checked}
                    onChange={() => setSelection((s) => ({ ...s, [choice.name]: option.value }))}
                    className="peer sr-only"
                  />
                  <label
                    htmlFor={inputId}
                    className={`inline-flex cursor-pointer items-center rounded-md border px-3 py-2 text-sm peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-main ${
                      checked
                        ? 'border-main bg-main-tint font-semibold text-gray-900'
                        : 'border-gray-300 dark:border-gray-600'
                    } ${available ? '' : 'text-gray-400 line-through dark:text-gray-500'}`}
                  >
                    {option.label}
                    {!available && <span className="sr-only"> ({t('product.unavailable')})</span>}
                  </label>
                </span>
              );
            })}
          </div>
        </fieldset>
      ))}

      {choices.length > 0 && complete && !variation && (
        <p role="status" className="text-sm text-red-700 dark:text-red-400">
          {t('product.noVariation')}
        </p>
      )}
      {choices.length > 0 && !complete && (
        <p className="text-sm text-gray-600 dark:text-gray-300">{t('product.chooseOptions')}</p>
      )}
    </div>
  );
}
