import { useStore } from '@nanostores/react';
import { useEffect, useId, useLayoutEffect, useMemo, useState, type FormEvent } from 'react';
import { ENGINE_THRESHOLD } from '../../lib/catalog/engine-query.ts';
import {
  attributeFacets,
  categoryFacets,
  categoryParentMap,
  hasActiveFilters,
  priceBounds,
  type AttributeFacet,
  type PriceRange,
} from '../../lib/catalog/filters.ts';
import { applyCatalogQuery, pageSlice, pagination, PRODUCTS_PER_PAGE } from '../../lib/catalog/list.ts';
import { isEmptyQuery, serializeCatalogQuery } from '../../lib/catalog/query-url.ts';
import type { CatalogProduct } from '../../lib/catalog/types.ts';
import { createLookup, type Strings } from '../../lib/i18n/lookup.ts';
import {
  $catalogChange,
  $catalogPage,
  $catalogQuery,
  clearFiltersAndSearch,
  goToPage,
  setSearch,
  startCatalogUrlSync,
  type CatalogChange,
} from '../../stores/catalog.ts';
import FilterPanel from './FilterPanel.tsx';
import Pagination from './Pagination.tsx';
import ProductCard from './ProductCard.tsx';
import SortSelect from './SortSelect.tsx';

export interface ProductListProps {
  /**
   * Local mode: every product of the listing (all products, or the category's), ideally trimmed with
   * slimListingProduct. Engine mode: only the products of the prebuilt page.
   */
  products: CatalogProduct[];
  strings: Strings;
  /** '' for English, '/de' … */
  localePrefix?: string;
  /** Whether catalog prices include VAT (PUBLIC_TAX_DISPLAY_SHOP), for the note under each price. */
  pricesIncludeTax?: boolean;
  /** bcp47 locale for alphabetical sorting. */
  locale?: string;
  /** The listing's path without '/page/{n}' ('/products', '/de/product-category/antennas'). */
  basePath: string;
  /** The page this static route renders. */
  initialPage?: number;
  perPage?: number;
  /** Global attributes offered as filters, e.g. ['pa_color', 'pa_size', 'pa_frequency-band']. */
  attributeTaxonomies?: string[];
  /**
   * Attribute filter values; default: collected from `products`. In engine mode `products` is one page,
   * so pass the terms of the configured taxonomies (getAllTerms) instead.
   */
  facets?: AttributeFacet[];
  /**
   * Lowest and highest price of the whole listing, the price inputs' placeholders; default: from
   * `products`. In engine mode `products` is one page, so pass the listing's own (null: no prices).
   */
  priceRange?: PriceRange | null;
  /**
   * The catalog's categories: the filter panel's list (default: the categories found in `products`) and,
   * through `parent` (the parent category's slug), the tree a category filter needs to include
   * subcategories' products as the engine does. Also passed on a category route, where the panel hides them.
   */
  categories?: { slug: string; name: string; count?: number; parent?: string }[];
  /** On a category route: its slug (the category group is hidden, engine queries stay in it). */
  fixedCategory?: string;
  /** Products in the whole listing; above engineThreshold the island asks the engine. */
  totalProducts?: number;
  engineThreshold?: number;
  showFilters?: boolean;
  showSort?: boolean;
}

/** How long after a change the list refreshes: 100 ms after a sort, 50 ms after a filter or search (typing stays smooth). */
const REFRESH_DELAY: Record<CatalogChange, number> = {
  init: 0,
  history: 0,
  page: 0,
  sort: 100,
  filter: 50,
  search: 50,
};

interface View {
  items: CatalogProduct[];
  total: number;
  page: number;
  loading: boolean;
  failed: boolean;
}

export default function ProductList(props: ProductListProps) {
  const {
    products,
    strings,
    localePrefix = '',
    locale,
    basePath,
    initialPage = 1,
    perPage = PRODUCTS_PER_PAGE,
    attributeTaxonomies = [],
    fixedCategory,
    totalProducts = products.length,
    engineThreshold = ENGINE_THRESHOLD,
    showFilters = true,
    showSort = true,
    pricesIncludeTax = true,
  } = props;
  const t = createLookup(strings);
  const engine = totalProducts > engineThreshold;
  const query = useStore($catalogQuery);
  const page = useStore($catalogPage);
  const change = useStore($catalogChange);
  const [started, setStarted] = useState(false);
  const [filtersOpen, setFiltersOpen] = useState(false);
  const panelId = useId();
  const categoryParents = useMemo(() => categoryParentMap(props.categories ?? []), [props.categories]);

  // The first render matches the static HTML: the route's page of the unfiltered list.
  const [view, setView] = useState<View>(() => ({
    items: engine ? products : pageSlice(products, initialPage, perPage),
    total: totalProducts,
    page: initialPage,
    loading: false,
    failed: false,
  }));

  // A layout effect, so URL sync is running before React replays a click made while the island was
  // hydrating: with a passive effect that click changed the store without updating the URL, and the
  // later sync then read the old URL back and dropped the shopper's filter.
  useLayoutEffect(() => {
    const stop = startCatalogUrlSync(window);
    setStarted(true);
    return stop;
  }, []);

  useEffect(() => {
    if (!started) return;
    const controller = new AbortController();
    const refresh = async () => {
      if (engine) {
        if (isEmptyQuery(query) && page === initialPage && change === 'init') return;
        setView((v) => ({ ...v, loading: true }));
        try {
          const { fetchCatalogPage } = await import('./engine-source.ts');
          const result = await fetchCatalogPage(query, page, perPage, {
            fixedCategory,
            locale,
            categoryParents,
            signal: controller.signal,
          });
          setView({ items: result.products, total: result.total, page, loading: false, failed: false });
        } catch (error) {
          if (controller.signal.aborted) return;
          console.error('Catalog request failed', error);
          setView((v) => ({ ...v, loading: false, failed: true }));
        }
      } else {
        let list: CatalogProduct[];
        try {
          list = applyCatalogQuery(products, query, { locale, categoryParents });
        } catch (error) {
          console.error(error);
          list = [];
        }
        const { page: shown } = pagination(list.length, page, perPage);
        setView({
          items: pageSlice(list, shown, perPage),
          total: list.length,
          page: shown,
          loading: false,
          failed: false,
        });
      }
      if (change !== 'init') {
        const smooth = !window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
        window.scrollTo({ top: 0, behavior: smooth ? 'smooth' : 'auto' });
      }
    };
    const timer = window.setTimeout(refresh, REFRESH_DELAY[change]);
    return () => {
      window.clearTimeout(timer);
      controller.abort();
    };
    // The products and options are fixed props of a static page (categoryParents is memoised on them):
    // only the start and the store's query, page and change run this again.
  }, [started, query, page, change, engine, products, initialPage, perPage, fixedCategory, locale, categoryParents]);

  const facets = useMemo(
    () => props.facets ?? attributeFacets(products, attributeTaxonomies),
    [products, attributeTaxonomies, props.facets],
  );
  const categories = useMemo(() => props.categories ?? categoryFacets(products), [products, props.categories]);
  const bounds = useMemo(
    () => (props.priceRange !== undefined ? props.priceRange : priceBounds(products)),
    [products, props.priceRange],
  );
  const numbers = pagination(view.total, view.page, perPage);
  const filtering = hasActiveFilters(query.filters) || query.search !== '';

  return (
    <div className="lg:grid lg:grid-cols-[16rem_1fr] lg:gap-8" data-catalog-ready={started ? '' : undefined}>
      {showFilters && (
        <aside className="mb-6 lg:mb-0">
          {/* Outside the collapsible panel, so the heading outline stays h1 → h2 → card h3 on phones too. */}
          <h2 className="sr-only">{t('catalog.filters')}</h2>
          <button
            type="button"
            className="flex w-full items-center justify-between rounded-md border border-gray-300 px-4 py-2 text-sm font-medium lg:hidden dark:border-gray-600"
            aria-expanded={filtersOpen}
            aria-controls={panelId}
            onClick={() => setFiltersOpen((open) => !open)}
          >
            {t('catalog.filters')}
            <span aria-hidden="true">{filtersOpen ? '−' : '+'}</span>
          </button>
          <div id={panelId} className={`${filtersOpen ? 'block' : 'hidden'} lg:block`}>
            <ListingSearch strings={strings} value={query.search} />
            <FilterPanel
              query={query}
              strings={strings}
              categories={categories}
              attributes={facets}
              bounds={bounds}
              hideCategories={Boolean(fixedCategory)}
              locale={locale}
            />
          </div>
        </aside>
      )}

      <div>
        <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
          <p className="text-sm text-gray-700 dark:text-gray-300" aria-live="polite">
            {view.total > 0 ? t('catalog.showing', { from: numbers.from, to: numbers.to, total: numbers.total }) : ''}
          </p>
          {showSort && <SortSelect query={query} strings={strings} />}
        </div>

        {view.failed && (
          <p
            role="alert"
            className="mb-4 rounded-md bg-red-50 p-3 text-sm text-red-800 dark:bg-red-950 dark:text-red-200"
          >
            {t('catalog.loadFailed')}
          </p>
        )}

        {view.items.length === 0 && !view.loading ? (
          <div className="rounded-lg border border-dashed border-gray-300 p-10 text-center dark:border-gray-600">
            <h2 className="text-lg font-semibold text-gray-900 dark:text-gray-100">{t('catalog.empty.title')}</h2>
            <p className="mt-2 text-sm text-gray-600 dark:text-gray-300">{t('catalog.empty.hint')}</p>
            {filtering && (
              <button
                type="button"
                onClick={clearFiltersAndSearch}
                className="mt-4 rounded-md bg-main px-4 py-2 text-sm font-medium text-on-main focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-main"
              >
                {t('catalog.clearAll')}
              </button>
            )}
          </div>
        ) : (
          <ul
            className={`grid grid-cols-2 gap-x-4 gap-y-8 md:grid-cols-3 xl:grid-cols-4 ${view.loading ? 'opacity-60' : ''}`}
            aria-busy={view.loading}
          >
            {view.items.map((product, index) => (
              <li key={product.databaseId}>
                <ProductCard
                  product={product}
                  strings={strings}
                  localePrefix={localePrefix}
                  priority={index < 4}
                  pricesIncludeTax={pricesIncludeTax}
                />
              </li>
            ))}
          </ul>
        )}

        <Pagination
          page={numbers.page}
          pages={numbers.pages}
          basePath={basePath}
          search={serializeCatalogQuery(query)}
          strings={strings}
          onNavigate={started ? goToPage : undefined}
        />
      </div>
    </div>
  );
}

function ListingSearch({ strings, value }: { strings: Strings; value: string }) {
  const t = createLookup(strings);
  const id = useId();
  const [text, setText] = useState(value);
  useEffect(() => setText(value), [value]);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() !== value) setSearch(text);
  };
  return (
    // Named, so it is a different landmark from the header's site search.
    // biome-ignore lint/a11y/useSemanticElements: a form with the search role is the landmark in browsers that lack the `search` element
    <form
      role="search"
      aria-label={t('catalog.search.label')}
      onSubmit={submit}
      className="flex gap-2 border-b border-gray-200 pb-4 dark:border-gray-700"
    >
      <label htmlFor={id} className="sr-only">
        {t('catalog.search.label')}
      </label>
      <input
        id={id}
        type="search"
        value={text}
        maxLength={100}
        placeholder={t('catalog.search.placeholder')}
        onChange={(event) => {
          setText(event.currentTarget.value);
          // Clearing the field clears the search straight away.
          if (event.currentTarget.value === '' && value !== '') setSearch('');
        }}
        className="min-w-0 flex-1 rounded-md border border-gray-300 px-3 py-2 text-sm dark:border-gray-600 dark:bg-gray-900"
      />
      <button
        type="submit"
        className="rounded-md bg-main px-3 py-2 text-sm font-medium text-on-main focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-main"
      >
        {t('catalog.search.submit')}
      </button>
    </form>
  );
}
