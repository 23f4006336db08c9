/**
 * A product as an island shows it: the shopper's own prices (shopper-prices.ts) laid over the catalog's
 * once mounted, so the first render matches the prebuilt HTML it hydrates.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useMemo, useState } from 'react';
import { $shopperPrices, watchShopperPrices, withShopperPrices, type Priced } from './shopper-prices.ts';

export function useShopperPrices<T extends Priced>(product: T): T {
  const prices = useStore($shopperPrices);
  const [mounted, setMounted] = useState(false);
  useEffect(() => setMounted(true), []);
  // Products an island shows later (another page of the listing) are priced for the shopper too.
  useEffect(() => {
    if (typeof product.databaseId === 'number') watchShopperPrices([product.databaseId]);
  }, [product.databaseId]);
  return useMemo(() => (mounted ? withShopperPrices(product, prices) : product), [product, prices, mounted]);
}
