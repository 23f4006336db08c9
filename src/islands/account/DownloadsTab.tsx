/**
 * The customer's downloads (getDownloads): file and product, downloads left (unlimited shown as such),
 * expiry, and a download button. Each link is signed and short-lived, so the list is fetched again
 * after a download (the count goes down) and when the page comes back into view. A used-up or expired
 * download shows why instead of a button; the engine refuses such a link with the same reason.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { DownloadableItemFragment as DownloadableItem } from '../../graphql/generated/operations';
import type { Lookup } from '../../lib/i18n/lookup';
import { accountRequest } from '../../stores/account';
import { downloadState, formatDate, remainingLabel } from './format';
import { BUTTON, BUTTON_SECONDARY, LINK, Section } from './ui';

type Load = { state: 'loading' } | { state: 'error' } | { state: 'ready'; items: DownloadableItem[] };

/** How long after a click the list is fetched again: the engine counts the download when it starts. */
const RELOAD_AFTER_DOWNLOAD_MS = 1500;

export default function DownloadsTab({ t, lang, localePrefix }: { t: Lookup; lang: string; localePrefix: string }) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);

  const fetchList = useCallback(async (quiet = false) => {
    if (!quiet) setLoad({ state: 'loading' });
    try {
      const result = await accountRequest('getDownloads', { first: 100 });
      const items = (result.customer?.downloadableItems?.nodes ?? []).filter((d): d is DownloadableItem => !!d);
      setLoad(result.customer ? { state: 'ready', items } : { state: 'error' });
    } catch {
      setLoad({ state: 'error' });
    }
  }, []);

  useEffect(() => {
    void fetchList();
    const onVisible = () => {
      if (document.visibilityState === 'visible') void fetchList(true);
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      if (timer.current) clearTimeout(timer.current);
    };
  }, [fetchList]);

  const downloaded = () => {
    if (timer.current) clearTimeout(timer.current);
    timer.current = setTimeout(() => void fetchList(true), RELOAD_AFTER_DOWNLOAD_MS);
  };

  const now = Date.now();
  return (
    <Section title={t('account.downloads.title')} id="downloads-title">
      {load.state === 'loading' && <p className="text-sm text-gray-600">{t('account.downloads.loading')}</p>}
      {load.state === 'error' && (
        <div role="alert" className="space-y-3" data-downloads-error>
          <p className="text-sm text-red-700">{t('account.downloads.error')}</p>
          <button type="button" className={BUTTON_SECONDARY} onClick={() => void fetchList()}>
            {t('account.retry')}
          </button>
        </div>
      )}
      {load.state === 'ready' && load.items.length === 0 && (
        <p className="text-sm text-gray-600" data-downloads-empty>
          {t('account.downloads.empty')}{' '}
          <a href={`${localePrefix}/products`} className={LINK}>
            {t('account.orders.shop')}
          </a>
        </p>
      )}
      {load.state === 'ready' && load.items.length > 0 && (
        <ul className="divide-y divide-gray-100" data-downloads>
          {load.items.map((item) => {
            const state = downloadState(item, now);
            const remaining = remainingLabel(item.downloadsRemaining);
            const expires = formatDate(item.accessExpires, lang);
            const name = item.name ?? item.downloadId;
            return (
              <li
                key={item.id}
                className="flex flex-col gap-3 py-4 sm:flex-row sm:items-center sm:justify-between"
                data-download={item.downloadId}
                data-download-state={state}
              >
                <div className="min-w-0">
                  <p className="font-medium text-gray-900">{name}</p>
                  {item.product?.name && (
                    <p className="text-sm text-gray-600">
                      <a
                        href={`${localePrefix}/product/${encodeURIComponent(item.product.slug ?? '')}`}
                        className={LINK}
                      >
                        {item.product.name}
                      </a>
                    </p>
                  )}
                  <dl className="mt-1 flex flex-wrap gap-x-4 gap-y-1 text-xs text-gray-600">
                    <div className="flex gap-1">
                      <dt>{t('account.downloads.remaining')}</dt>
                      <dd
                        className="font-medium text-gray-800"
                        data-download-remaining={item.downloadsRemaining ?? 'unlimited'}
                      >
                        {t(remaining.key, remaining.params)}
                      </dd>
                    </div>
                    <div className="flex gap-1">
                      <dt>{t('account.downloads.expires')}</dt>
                      <dd className="font-medium text-gray-800">{expires ?? t('account.downloads.never')}</dd>
                    </div>
                  </dl>
                </div>
                {state === 'available' && item.url ? (
                  // Never prefetched: each request of the link takes one of the limited downloads.
                  <a
                    href={item.url}
                    download
                    data-astro-prefetch="false"
                    className={BUTTON}
                    onClick={downloaded}
                    aria-label={t('account.downloads.downloadNamed', { name })}
                  >
                    {t('account.downloads.download')}
                  </a>
                ) : (
                  <p className="text-sm font-medium text-red-700" data-download-refused>
                    {state === 'expired' ? t('account.downloads.expired') : t('account.downloads.limitReached')}
                  </p>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Section>
  );
}
