import { useEffect, useId, useState, type FormEvent, type ReactNode } from 'react';
import type { AttributeFacet, PriceRange } from '../../lib/catalog/filters.ts';
import type { CatalogQuery } from '../../lib/catalog/query-url.ts';
import { centsToDecimal, decimalToCents } from '../../lib/money.ts';
import { createLookup, type Strings } from '../../lib/i18n/lookup.ts';
import { createPluralLookup } from '../../lib/i18n/plural.ts';
import { clearFiltersAndSearch, toggleFilterValue, updateFilters } from '../../stores/catalog.ts';

export interface FilterPanelProps {
  query: CatalogQuery;
  strings: Strings;
  categories: { slug: string; name: string; count?: number }[];
  attributes: AttributeFacet[];
  /** Catalog price bounds in cents, for the inputs' placeholders. */
  bounds: PriceRange | null;
  /** Hide the category group (a category route is already one category). */
  hideCategories?: boolean;
  /** BCP 47 tag of the page's locale: which plural form a count takes ('1 star & up'). */
  locale?: string;
}

const euros = (cents: number | null | undefined) => (cents == null ? '' : centsToDecimal(cents).replace(/\.00$/, ''));

function Group({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="border-b border-gray-200 py-4 dark:border-gray-700">
      <legend className="mb-2 text-sm font-semibold text-gray-900 dark:text-gray-100">{legend}</legend>
      <div className="space-y-2">{children}</div>
    </fieldset>
  );
}

function Check({
  checked,
  onChange,
  label,
  count,
}: {
  checked: boolean;
  onChange: () => void;
  label: string;
  count?: number;
}) {
  return (
    <label className="flex cursor-pointer items-center gap-2 text-sm text-gray-700 dark:text-gray-300">
      <input type="checkbox" checked={checked} onChange={onChange} className="h-4 w-4 accent-main" />
      <span>{label}</span>
      {count !== undefined && <span className="text-xs text-gray-500 dark:text-gray-400">({count})</span>}
    </label>
  );
}

/** Category, price range, rating, sale and attribute filters. Every change goes through the catalog store. */
export default function FilterPanel({
  query,
  strings,
  categories,
  attributes,
  bounds,
  hideCategories = false,
  locale = 'en-US',
}: FilterPanelProps) {
  const t = createLookup(strings);
  const tn = createPluralLookup(strings, locale);
  const id = useId();
  const { filters } = query;
  const [min, setMin] = useState(euros(filters.price?.min));
  const [max, setMax] = useState(euros(filters.price?.max));
  const [priceError, setPriceError] = useState(false);
  useEffect(() => {
    setMin(euros(filters.price?.min));
    setMax(euros(filters.price?.max));
  }, [filters.price?.min, filters.price?.max]);

  const applyPrice = (event: FormEvent) => {
    event.preventDefault();
    const low = min.trim() === '' ? null : decimalToCents(min.replace(',', '.'));
    const high = max.trim() === '' ? null : decimalToCents(max.replace(',', '.'));
    if ((min.trim() !== '' && (low === null || low < 0)) || (max.trim() !== '' && (high === null || high < 0))) {
      setPriceError(true);
      return;
    }
    setPriceError(false);
    updateFilters((f) => ({
      ...f,
      price:
        low === null && high === null
          ? null
          : low !== null && high !== null && low > high
            ? { min: high, max: low }
            : { min: low, max: high },
    }));
  };

  return (
    <div>
      {!hideCategories && categories.length > 0 && (
        <Group legend={t('catalog.filter.category')}>
          {categories.map((category) => (
            <Check
              key={category.slug}
              checked={filters.categories.includes(category.slug)}
              onChange={() => toggleFilterValue('category', category.slug)}
              label={category.name}
              count={category.count}
            />
          ))}
        </Group>
      )}

      <Group legend={t('catalog.filter.price')}>
        <form onSubmit={applyPrice} className="flex flex-wrap items-end gap-2" noValidate>
          <div className="flex flex-col">
            <label htmlFor={`${id}-min`} className="text-xs text-gray-600 dark:text-gray-400">
              {t('catalog.filter.priceMin')}
            </label>
            <input
              id={`${id}-min`}
              inputMode="decimal"
              value={min}
              placeholder={euros(bounds?.min)}
              onChange={(e) => setMin(e.currentTarget.value)}
              aria-invalid={priceError || undefined}
              aria-describedby={priceError ? `${id}-price-error` : undefined}
              className="w-24 rounded-md border border-gray-300 px-2 py-1.5 text-sm dark:border-gray-600 dark:bg-gray-900"
            />
          </div>
          <div className="flex flex-col">
            <label htmlFor={`${id}-max`} className="text-xs text-gray-600 dark:text-gray-400">
              {t('catalog.filter.priceMax')}
            </label>
            <input
              id={`${id}-max`}
              inputMode="decimal"
              value={max}
              placeholder={euros(bounds?.max)}
              onChange={(e) => setMax(e.currentTarget.value)}
              aria-invalid={priceError || undefined}
              className="w-24 rounded-md border border-gray-300 px-2 py-1.5 text-sm dark:border-gray-600 dark:bg-gray-900"
            />
          </div>
          <button
            type="submit"
            className="rounded-md bg-main px-3 py-1.5 text-sm font-medium text-on-main focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-main"
          >
            {t('catalog.filter.apply')}
          </button>
          {priceError && (
            <p id={`${id}-price-error`} role="alert" className="w-full text-xs text-red-700 dark:text-red-400">
              {t('catalog.filter.priceInvalid')}
            </p>
          )}
        </form>
      </Group>

      <Group legend={t('catalog.filter.rating')}>
        {[null, 4, 3, 2, 1].map((rating) => (
          <label
            key={rating ?? 'any'}
            className="flex cursor-pointer items-center gap-2 text-sm text-gray-700 dark:text-gray-300"
          >
            <input
              type="radio"
              name={`${id}-rating`}
              checked={filters.rating === rating}
              onChange={() => updateFilters((f) => ({ ...f, rating }))}
              className="h-4 w-4 accent-main"
            />
            {rating === null ? t('catalog.filter.ratingAny') : tn('catalog.filter.ratingAtLeast', rating)}
          </label>
        ))}
      </Group>

      <Group legend={t('catalog.filter.sale')}>
        <Check
          checked={filters.sale}
          onChange={() => updateFilters((f) => ({ ...f, sale: !f.sale }))}
          label={t('catalog.filter.saleOnly')}
        />
      </Group>

      {attributes
        .filter((facet) => facet.terms.length > 0)
        .map((facet) => (
          <Group
            key={facet.taxonomy}
            legend={
              strings[`catalog.attribute.${facet.taxonomy}`] ?? facet.taxonomy.replace(/^pa_/, '').replace(/-/g, ' ')
            }
          >
            {facet.terms.map((term) => (
              <Check
                key={term.slug}
                checked={(filters.attributes[facet.taxonomy] ?? []).includes(term.slug)}
                onChange={() => toggleFilterValue(facet.taxonomy as `pa_${string}`, term.slug)}
                label={term.name}
                count={term.count}
              />
            ))}
          </Group>
        ))}

      <button
        type="button"
        onClick={clearFiltersAndSearch}
        className="mt-4 text-sm font-medium text-main underline-offset-2 hover:underline"
      >
        {t('catalog.clearAll')}
      </button>
    </div>
  );
}
