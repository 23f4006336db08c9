/**
 * The order history (getOrders, newest first): number, date, status and total, each linking to the
 * order's summary page (/order-summary/{id}?key=…). On failure the spec's message.
 *
 * On a phone the four columns do not fit side by side: each order becomes a small card (number and
 * date above, status and total below) and the column heads are left to screen readers; from the `sm`
 * width on it is a plain table.
 */
import { useEffect, useState } from 'react';
import type { OrderSummaryFragment as OrderSummary } from '../../graphql/generated/operations';
import type { Lookup } from '../../lib/i18n/lookup';
import { accountRequest } from '../../stores/account';
import { orderSummaryPath } from '../order/order-view';
import { formatDate } from './format';
import { BUTTON_SECONDARY, LINK, Section } from './ui';

type Load = { state: 'loading' } | { state: 'error' } | { state: 'ready'; orders: OrderSummary[] };

export default function OrdersTab({ t, lang, localePrefix }: { t: Lookup; lang: string; localePrefix: string }) {
  const [load, setLoad] = useState<Load>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the retry button's signal to load again
  useEffect(() => {
    let live = true;
    setLoad({ state: 'loading' });
    accountRequest('getOrders', { first: 100 })
      .then((result) => {
        const orders = (result.customer?.orders?.nodes ?? []).filter((o): o is OrderSummary => !!o);
        if (live) setLoad(result.customer ? { state: 'ready', orders } : { state: 'error' });
      })
      .catch(() => live && setLoad({ state: 'error' }));
    return () => {
      live = false;
    };
  }, [attempt]);

  return (
    <Section title={t('account.orders.title')} id="orders-title">
      {load.state === 'loading' && <p className="text-sm text-gray-600">{t('account.orders.loading')}</p>}
      {load.state === 'error' && (
        <div role="alert" className="space-y-3" data-orders-error>
          <p className="text-sm text-red-700">{t('account.orders.error')}</p>
          <button type="button" className={BUTTON_SECONDARY} onClick={() => setAttempt((n) => n + 1)}>
            {t('account.retry')}
          </button>
        </div>
      )}
      {load.state === 'ready' && load.orders.length === 0 && (
        <p className="text-sm text-gray-600" data-orders-empty>
          {t('account.orders.empty')}{' '}
          <a href={`${localePrefix}/products`} className={LINK}>
            {t('account.orders.shop')}
          </a>
        </p>
      )}
      {load.state === 'ready' && load.orders.length > 0 && (
        <div className="sm:overflow-x-auto">
          <table className="block w-full text-left text-sm sm:table sm:min-w-full" data-orders>
            <caption className="sr-only">{t('account.orders.title')}</caption>
            <thead className="sr-only border-b border-gray-200 text-xs uppercase tracking-wide text-gray-600 sm:not-sr-only sm:table-header-group">
              <tr>
                <th scope="col" className="px-5 py-2 sm:px-3">
                  {t('account.orders.number')}
                </th>
                <th scope="col" className="px-3 py-2">
                  {t('account.orders.date')}
                </th>
                <th scope="col" className="px-3 py-2">
                  {t('account.orders.status')}
                </th>
                <th scope="col" className="px-3 py-2 text-right">
                  {t('account.orders.total')}
                </th>
              </tr>
            </thead>
            <tbody className="block divide-y divide-gray-100 sm:table-row-group">
              {load.orders.map((order) => (
                <tr
                  key={order.id}
                  data-order-row={order.databaseId ?? ''}
                  className="grid grid-cols-[1fr_auto] items-center gap-x-3 gap-y-2 py-3 sm:table-row sm:py-0"
                >
                  <th scope="row" className="font-medium sm:px-3 sm:py-3">
                    <a
                      href={orderSummaryPath(localePrefix, order)}
                      className={LINK}
                      aria-label={t('account.orders.view', { number: order.orderNumber ?? String(order.databaseId) })}
                    >
                      #{order.orderNumber ?? order.databaseId}
                    </a>
                  </th>
                  <td className="whitespace-nowrap text-right text-gray-700 sm:px-3 sm:py-3 sm:text-left">
                    {formatDate(order.date, lang) ?? '—'}
                  </td>
                  <td className="sm:px-3 sm:py-3" data-order-status={order.status ?? ''}>
                    <span className="rounded-full bg-gray-100 px-2 py-0.5 text-xs font-medium text-gray-800">
                      {order.status ? t(`order.statusName.${order.status}`) : '—'}
                    </span>
                  </td>
                  <td
                    className="whitespace-nowrap text-right font-medium text-gray-900 sm:px-3 sm:py-3"
                    data-order-total
                  >
                    {/* The column heads are for screen readers only on a phone: name the figure for the eye. */}
                    <span aria-hidden="true" className="mr-1 text-xs font-normal text-gray-600 sm:hidden">
                      {t('account.orders.total')}
                    </span>
                    {order.total ?? '—'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Section>
  );
}
