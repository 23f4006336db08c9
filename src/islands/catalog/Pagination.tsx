import type { MouseEvent } from 'react';
import { pageNumbers, pagePath } from '../../lib/catalog/list.ts';
import { createLookup, type Strings } from '../../lib/i18n/lookup.ts';

export interface PaginationProps {
  page: number;
  pages: number;
  /** Listing path without '/page/{n}'. */
  basePath: string;
  /** Query string to keep on page links ('' or 'filter=…'). */
  search: string;
  strings: Strings;
  /** Client-side paging; links still work without JavaScript. */
  onNavigate?: (page: number) => void;
}

/** Numbered pagination with previous/next; real links so it works before hydration and for crawlers. */
export default function Pagination({ page, pages, basePath, search, strings, onNavigate }: PaginationProps) {
  const t = createLookup(strings);
  if (pages <= 1) return null;
  const href = (n: number) => `${pagePath(basePath, n)}${search ? `?${search}` : ''}`;
  const go = (n: number) => (event: MouseEvent<HTMLAnchorElement>) => {
    if (!onNavigate || event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
    event.preventDefault();
    onNavigate(n);
  };
  const link =
    'inline-flex h-10 min-w-10 items-center justify-center rounded-md px-3 text-sm focus-visible:outline-2 focus-visible:outline-main';
  return (
    <nav aria-label={t('catalog.pagination')} className="mt-10 flex justify-center">
      <ul className="flex flex-wrap items-center gap-1">
        {page > 1 && (
          <li>
            <a
              href={href(page - 1)}
              onClick={go(page - 1)}
              rel="prev"
              className={`${link} hover:bg-gray-100 dark:hover:bg-gray-800`}
            >
              <span aria-hidden="true">‹</span>
              <span className="sr-only sm:not-sr-only sm:ml-1">{t('catalog.previous')}</span>
            </a>
          </li>
        )}
        {pageNumbers(page, pages).map((n, i, all) =>
          n === null ? (
            // A gap always follows a page number, which names it.
            <li key={`gap-after-${all[i - 1]}`} aria-hidden="true" className="px-2 text-gray-500">
              …
            </li>
          ) : (
            <li key={n}>
              <a
                href={href(n)}
                onClick={go(n)}
                aria-current={n === page ? 'page' : undefined}
                aria-label={t('catalog.pageN', { page: n })}
                className={`${link} ${n === page ? 'bg-main font-semibold text-on-main' : 'hover:bg-gray-100 dark:hover:bg-gray-800'}`}
              >
                {n}
              </a>
            </li>
          ),
        )}
        {page < pages && (
          <li>
            <a
              href={href(page + 1)}
              onClick={go(page + 1)}
              rel="next"
              className={`${link} hover:bg-gray-100 dark:hover:bg-gray-800`}
            >
              <span className="sr-only sm:not-sr-only sm:mr-1">{t('catalog.next')}</span>
              <span aria-hidden="true">›</span>
            </a>
          </li>
        )}
      </ul>
    </nav>
  );
}
