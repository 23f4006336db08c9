import { useId } from 'react';
import type { CatalogQuery } from '../../lib/catalog/query-url.ts';
import { isSortKey, normaliseOrder, type SortKey, type SortOrder } from '../../lib/catalog/sort.ts';
import { createLookup, type Strings } from '../../lib/i18n/lookup.ts';
import { setSort } from '../../stores/catalog.ts';

/** The sort choices a shopper sees; each is a key and a direction. */
export const SORT_OPTIONS: { key: SortKey; order: SortOrder; label: string }[] = [
  { key: 'date', order: 'DESC', label: 'catalog.sort.newest' },
  { key: 'price', order: 'ASC', label: 'catalog.sort.priceAsc' },
  { key: 'price', order: 'DESC', label: 'catalog.sort.priceDesc' },
  { key: 'rating', order: 'DESC', label: 'catalog.sort.rating' },
  { key: 'discount', order: 'DESC', label: 'catalog.sort.discount' },
  { key: 'alphabetically', order: 'ASC', label: 'catalog.sort.nameAsc' },
  { key: 'alphabetically', order: 'DESC', label: 'catalog.sort.nameDesc' },
];

export default function SortSelect({ query, strings }: { query: CatalogQuery; strings: Strings }) {
  const t = createLookup(strings);
  const id = useId();
  const value = `${query.orderby ?? 'date'}:${normaliseOrder(query.order)}`;
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="text-sm text-gray-700 dark:text-gray-300">
        {t('catalog.sortBy')}
      </label>
      <select
        id={id}
        value={value}
        onChange={(event) => {
          const [key, order] = event.currentTarget.value.split(':');
          if (!isSortKey(key)) return;
          // The default (newest first) is written as no sort at all, keeping URLs short.
          if (key === 'date' && order === 'DESC') setSort(null, null);
          else setSort(key, order as SortOrder);
        }}
        className="rounded-md border border-gray-300 bg-white px-3 py-2 text-sm dark:border-gray-600 dark:bg-gray-900"
      >
        {SORT_OPTIONS.map((option) => (
          <option key={`${option.key}:${option.order}`} value={`${option.key}:${option.order}`}>
            {t(option.label)}
          </option>
        ))}
      </select>
    </div>
  );
}
